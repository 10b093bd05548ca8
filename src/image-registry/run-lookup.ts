/**
 * The image digest lookup of one provider instance (one run), made from the
 * provider's settings (src/core/settings.ts): whether pinning is on by
 * default (agent-hosting:pinImageDigests), the registry credentials
 * (agent-hosting:registryAuth, then the docker config file) and plain http
 * beyond loopback (agent-hosting:allowInsecureHttp). The settings are read
 * at first use, and the resolver (with its HTTP stack) is made at the first
 * resolve, so a check that pins nothing loads neither. Every resolve shares
 * that one resolver: one registry request per distinct reference for the
 * lookup's life, however many agents name the image.
 */
import type { ImageDigestLookup, PinnedImage } from "../core/image-digest-lookup";
import { insecureHttpAllowed, pinImageDigestsByDefault, registryAuthText } from "../core/settings";
import type { ConfigSource } from "../core/settings";
import type { ImageDigestResolver } from "./digest-resolver";
import { parseRegistryAuth } from "./registry-auth-setting";

export interface RunImageDigestLookup extends ImageDigestLookup {
  /** Closes the resolver's connections, when one was made. */
  close(): Promise<void>;
}

export function imageDigestLookup(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): RunImageDigestLookup {
  let pinByDefault: boolean | undefined;
  let resolver: Promise<ImageDigestResolver> | undefined;
  const made = (): Promise<ImageDigestResolver> => {
    resolver ??= (async () => {
      const auth = registryAuthText(config, env);
      const registryAuth = auth === undefined ? [] : parseRegistryAuth(auth.text, auth.from);
      const { ImageDigestResolver } = await import("./digest-resolver");
      return new ImageDigestResolver({ registryAuth, allowInsecureHttp: insecureHttpAllowed(config, env) });
    })();
    return resolver;
  };
  return {
    get pinByDefault() {
      pinByDefault ??= pinImageDigestsByDefault(config, env);
      return pinByDefault;
    },
    async resolve(image: string, signal?: AbortSignal): Promise<PinnedImage> {
      const { digest, pinnedImage } = await (await made()).resolve(image, signal);
      return { image, digest, pinnedImage };
    },
    async close() {
      // A resolver never made (its settings refused) has nothing to close.
      if (resolver !== undefined) await resolver.then((made) => made.close(), () => undefined);
    },
  };
}
