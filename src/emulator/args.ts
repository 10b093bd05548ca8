/**
 * The bin's command line:
 * agent-hosting-emulator [--port 8787] [--host 127.0.0.1] [--api-key KEY]
 *   [--ready-after-ms 1500] [--secret-set NAME=FIELD1,FIELD2 ...] [--state-file PATH]
 */
import { parseArgs } from "node:util";
import type { EmulatorOptions } from "./server";

export const USAGE =
  "usage: agent-hosting-emulator [--port 8787] [--host 127.0.0.1] [--api-key KEY] [--ready-after-ms 1500] " +
  "[--secret-set NAME=FIELD1,FIELD2 ...] [--state-file PATH]";

/** The key the bin uses when none is given: the user must know it to call the emulator. */
export const BIN_DEFAULT_API_KEY = "local-emulator-key";

export type ParsedArgs = { ok: true; options: EmulatorOptions } | { ok: false; message: string };

/** Parses the bin's arguments; never throws, never exits. */
export function parseEmulatorArgs(argv: readonly string[]): ParsedArgs {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string", default: "8787" },
        host: { type: "string", default: "127.0.0.1" },
        "api-key": { type: "string", default: BIN_DEFAULT_API_KEY },
        "ready-after-ms": { type: "string", default: "1500" },
        "secret-set": { type: "string", multiple: true, default: [] },
        "state-file": { type: "string" },
      },
    }).values;
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) {
    return { ok: false, message: `--port must be an integer from 0 to 65535, got "${values.port}"` };
  }
  const readyAfterMs = Number(values["ready-after-ms"]);
  if (!/^\d+$/.test(values["ready-after-ms"])) {
    return { ok: false, message: `--ready-after-ms must be an integer ≥ 0, got "${values["ready-after-ms"]}"` };
  }
  if (values.host === "") return { ok: false, message: "--host must not be empty" };
  if (values["api-key"] === "") return { ok: false, message: "--api-key must not be empty" };
  const secretSets: Record<string, string[]> = {};
  for (const spec of values["secret-set"]) {
    const match = /^([^=]+)=(.*)$/.exec(spec);
    if (!match) return { ok: false, message: `--secret-set must be NAME=FIELD1,FIELD2, got "${spec}"` };
    secretSets[match[1] as string] = (match[2] as string).split(",").filter((field) => field !== "");
  }
  const options: EmulatorOptions = { port, host: values.host, apiKey: values["api-key"], readyAfterMs, secretSets };
  if (values["state-file"] !== undefined && values["state-file"] !== "") options.stateFile = values["state-file"];
  return { ok: true, options };
}
