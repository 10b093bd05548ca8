// Registry requests of a preview of the large size's agents on one tag-form
// image, pinning on, against the real distribution registry (the tests' own,
// scripts/lib/image-registry-server.mjs) behind a counting proxy: the
// dynamic provider's one lookup resolves the tag once for every agent. In
// each of the registry's three modes, because authentication adds requests
// that are not the provider's to save: anonymous, one HEAD; htpasswd
// `Basic`, the HEAD the registry answers 401 (how it asks for credentials)
// and the HEAD with them; `Bearer`, the challenged HEAD, one request to the
// token service and the HEAD with the token. The credentials come from
// agent-hosting:registryAuth (its environment form); an empty docker config
// keeps the machine's own logins out.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { startImageRegistry } from "../../scripts/lib/image-registry-server.mjs";
import { makeFigure } from "../lib/figure.mjs";
import { quiet, stackFor } from "../lib/stacks.mjs";

/** The figure families of the three modes, in order (bench/lib/bars.mjs holds each bar). */
export const REGISTRY_MODES = [
  { auth: "anonymous", family: "registry-requests-preview" },
  { auth: "basic", family: "registry-requests-preview-basic" },
  { auth: "bearer", family: "registry-requests-preview-bearer" },
];

export async function registryFigures(ctx) {
  const n = ctx.sizes.large;
  const dockerConfig = join(ctx.work, "registry-empty-docker-config");
  mkdirSync(dockerConfig, { recursive: true });
  ctx.log(`registry requests of a preview of ${n} agents on one image, anonymous / Basic / Bearer`);
  const figures = [];
  for (const mode of REGISTRY_MODES) {
    const registry = await startImageRegistry({ auth: /** @type {"anonymous" | "basic" | "bearer"} */ (mode.auth) });
    try {
      await registry.pushImage("voice-bot", "main");
      const proxy = await registry.proxy();
      const credentials = [{ server: proxy.host, username: registry.username, password: registry.password }];
      const env = {
        AGENT_HOSTING_PIN_IMAGE_DIGESTS: "true",
        DOCKER_CONFIG: dockerConfig,
        ...(mode.auth === "anonymous" ? {} : { AGENT_HOSTING_REGISTRY_AUTH: JSON.stringify(credentials) }),
      };
      const params = { count: n, prefix: `registry-${mode.auth}`, image: `${proxy.host}/voice-bot:main` };
      const handle = await stackFor(ctx.work, `registry-${mode.auth}-${n}`, "agents.cjs", params, ctx.emulator, env);
      // crane's push asked the token service too: only the preview's requests count.
      const tokensBefore = registry.tokenService?.requests.length ?? 0;
      const result = await handle.stack.preview({ ...quiet, parallel: n });
      const creates = result.changeSummary?.create ?? 0;
      if (creates < n) throw new Error(`the preview of ${n} agents on ${params.image} planned ${creates} creates`);
      const heads = proxy.requests.filter((r) => r.method === "HEAD").length;
      const others = proxy.requests.length - heads;
      const tokens = (registry.tokenService?.requests.length ?? 0) - tokensBefore;
      figures.push(
        makeFigure({
          id: `${mode.family}-${n}`,
          name: `Registry requests of a preview of ${n} agents on one image (${mode.auth})`,
          unit: "",
          samples: [proxy.requests.length + tokens],
          extra: { parts: { heads, otherRegistryRequests: others, tokenRequests: tokens } },
        }),
      );
    } finally {
      await registry.close();
    }
  }
  return figures;
}
