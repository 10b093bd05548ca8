/**
 * What the dynamic provider process loads, verb by verb: the built provider
 * (dist/, as the serialized shim loads it) in a Node process of its own,
 * against the emulator. A preview's check and diff of an agent that names no
 * secret set load neither the HTTP stack nor zod; a destroy's delete reads
 * the agent's live sessions (GET, the one member checked by hand), then
 * deletes it, which loads the HTTP stack but not zod; a check that names a
 * set makes one request (GET /secrets/{name}), whose answer zod checks. Each library is tens
 * of milliseconds of a short operation's wall time. The verbs that talk to
 * the service (create, read, update, delete, and the readiness wait, health
 * check and rollback they use) load at their first call.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_KEY, IMAGE } from "../support/fixtures";
import { startEmu, type Emu } from "../support/emulator-fixture";

const repoRoot = join(__dirname, "../..");

let emu: Emu;
beforeAll(async () => {
  emu = await startEmu({ readyAfterMs: 0 });
  await emu.control.seedSecretSet("bot-secrets", ["TOKEN"]);
  await emu.newClient().createAgent({ serviceName: "doomed-bot", image: IMAGE });
  await emu.newClient().createAgent({ serviceName: "kept-bot", image: IMAGE });
});
afterAll(async () => emu?.close());

/** The child: runs the verbs in order and prints, after each, whether undici and zod are loaded. */
const CHILD = `
const impl = require(${JSON.stringify(join(repoRoot, "dist/hosts/dynamic/provider-impl.js"))}).provider;
const loaded = (lib) => Object.keys(require.cache).some((file) => file.includes("/node_modules/" + lib + "/"));
const own = (file) => Object.keys(require.cache).some((path) => path.endsWith("/dist/resources/agent/" + file));
const seen = () => ({ undici: loaded("undici"), zod: loaded("zod"), serviceVerbs: ["rollout.js", "read.js", "rollout-wait.js"].filter(own) });
(async () => {
  const settings = JSON.parse(process.env.SETTINGS);
  await impl.configure({ config: { get: (key) => settings[key] } });
  const report = { start: seen() };
  const { inputs } = await impl.check({}, { serviceName: "kept-bot", image: ${JSON.stringify(IMAGE)} });
  await impl.diff("kept-bot", inputs, inputs);
  report.preview = seen();
  await impl.delete("doomed-bot");
  report.delete = seen();
  const named = await impl.check({}, { serviceName: "kept-bot", image: ${JSON.stringify(IMAGE)}, secretSet: "bot-secrets", requiredSecrets: ["TOKEN"] });
  await impl.check({}, { serviceName: "other-bot", image: ${JSON.stringify(IMAGE)}, secretSet: "bot-secrets" });
  report.previewWithSet = { ...seen(), failures: named.failures };
  await impl.read("kept-bot", inputs);
  report.read = seen();
  process.stdout.write(JSON.stringify(report));
  process.exit(0);
})().catch((error) => { console.error(error); process.exit(1); });
`;

it("loads undici at the first request and zod at the first answer it checks, neither in a preview of agents that name no secret set nor zod in a delete, and the verbs that talk to the service at their first call", async () => {
  const settings = { "agent-hosting:baseUrl": emu.emulator.url, "agent-hosting:apiKey": API_KEY };
  // Asynchronous: the emulator answers from this process.
  const before = (await emu.control.requests()).requests.length;
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", CHILD], { env: { ...process.env, SETTINGS: JSON.stringify(settings) } });
  expect(JSON.parse(stdout)).toEqual({
    start: { undici: false, zod: false, serviceVerbs: [] },
    preview: { undici: false, zod: false, serviceVerbs: [] },
    delete: { undici: true, zod: false, serviceVerbs: ["read.js"] },
    previewWithSet: { undici: true, zod: true, serviceVerbs: ["read.js"], failures: [] },
    read: { undici: true, zod: true, serviceVerbs: ["read.js"] },
  });
  const made = (await emu.control.requests()).requests.slice(before).filter((r) => !r.path.startsWith("/_emulator"));
  expect(made.map((r) => `${r.method} ${r.path}`)).toEqual([
    "GET /v1/agents/doomed-bot",
    "DELETE /v1/agents/doomed-bot",
    "GET /v1/secrets/bot-secrets",
    "GET /v1/agents/kept-bot",
  ]);
  const { agents } = await emu.control.listAgents();
  expect(agents.map((a) => a.name)).toEqual(["kept-bot"]);
});
