/**
 * What the dynamic provider process loads, verb by verb: the built provider
 * (dist/, as the serialized shim loads it) in a Node process of its own,
 * against the emulator. A preview's check and diff load neither the HTTP
 * stack nor zod; a destroy's delete loads undici but not zod (its answer has
 * nothing to check); the first read of an agent loads zod. Each library is
 * tens of milliseconds of a short operation's wall time.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_KEY, IMAGE } from "../support/fixtures";
import { startEmu, type Emu } from "./support/emulator-harness";

const repoRoot = join(__dirname, "../..");

let emu: Emu;
beforeAll(async () => {
  emu = await startEmu({ readyAfterMs: 0 });
  await emu.client().createAgent({ serviceName: "doomed-bot", image: IMAGE });
  await emu.client().createAgent({ serviceName: "kept-bot", image: IMAGE });
});
afterAll(async () => emu?.close());

/** The child: runs the verbs in order and prints, after each, whether undici and zod are loaded. */
const CHILD = `
const impl = require(${JSON.stringify(join(repoRoot, "dist/hosts/dynamic/provider-impl.js"))}).provider;
const loaded = (lib) => Object.keys(require.cache).some((file) => file.includes("/node_modules/" + lib + "/"));
const seen = () => ({ undici: loaded("undici"), zod: loaded("zod") });
(async () => {
  const settings = JSON.parse(process.env.SETTINGS);
  await impl.configure({ config: { get: (key) => settings[key] } });
  const report = { start: seen() };
  const { inputs } = await impl.check({}, { serviceName: "kept-bot", image: ${JSON.stringify(IMAGE)} });
  await impl.diff("kept-bot", inputs, inputs);
  report.preview = seen();
  await impl.delete("doomed-bot");
  report.delete = seen();
  await impl.read("kept-bot", inputs);
  report.read = seen();
  process.stdout.write(JSON.stringify(report));
  process.exit(0);
})().catch((error) => { console.error(error); process.exit(1); });
`;

it("loads undici at the first request and zod at the first answer it checks, never in a preview", async () => {
  const settings = { "agent-hosting:baseUrl": emu.emulator.url, "agent-hosting:apiKey": API_KEY };
  // Asynchronous: the emulator answers from this process.
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", CHILD], { env: { ...process.env, SETTINGS: JSON.stringify(settings) } });
  expect(JSON.parse(stdout)).toEqual({
    start: { undici: false, zod: false },
    preview: { undici: false, zod: false },
    delete: { undici: true, zod: false },
    read: { undici: true, zod: true },
  });
  const { agents } = await emu.control.listAgents();
  expect(agents.map((a) => a.name)).toEqual(["kept-bot"]);
});
