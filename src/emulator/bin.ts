#!/usr/bin/env node
/**
 * agent-hosting-emulator [--port 8787] [--host 127.0.0.1] [--api-key KEY]
 *   [--ready-after-ms 1500] [--secret-set NAME=FIELD1,FIELD2 ...] [--state-file PATH]
 */
import { parseArgs } from "node:util";
import { startEmulator, type EmulatorOptions } from "./server";

const USAGE =
  "usage: agent-hosting-emulator [--port 8787] [--host 127.0.0.1] [--api-key KEY] [--ready-after-ms 1500] [--secret-set NAME=FIELD1,FIELD2 ...] [--state-file PATH]";

function fail(message: string): never {
  process.stderr.write(`agent-hosting-emulator: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function options(): EmulatorOptions {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        port: { type: "string", default: "8787" },
        host: { type: "string", default: "127.0.0.1" },
        "api-key": { type: "string", default: "local-emulator-key" },
        "ready-after-ms": { type: "string", default: "1500" },
        "secret-set": { type: "string", multiple: true, default: [] },
        "state-file": { type: "string" },
      },
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
  const port = Number(parsed.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0 to 65535, got "${parsed.port}"`);
  const readyAfterMs = Number(parsed["ready-after-ms"]);
  if (!Number.isFinite(readyAfterMs) || readyAfterMs < 0) fail(`--ready-after-ms must be ≥ 0, got "${parsed["ready-after-ms"]}"`);
  const secretSets: Record<string, string[]> = {};
  for (const spec of parsed["secret-set"] ?? []) {
    const match = /^([^=]+)=(.*)$/.exec(spec);
    if (!match) fail(`--secret-set must be NAME=FIELD1,FIELD2, got "${spec}"`);
    secretSets[match[1] as string] = (match[2] as string).split(",").filter((f) => f !== "");
  }
  const result: EmulatorOptions = { port, host: parsed.host, apiKey: parsed["api-key"], readyAfterMs, secretSets };
  if (parsed["state-file"]) result.stateFile = parsed["state-file"];
  return result;
}

async function main(): Promise<void> {
  const emulator = await startEmulator(options());
  process.stdout.write(`agent-hosting-emulator listening on ${emulator.url}\n`);
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`agent-hosting-emulator: ${(error as Error).message}\n`);
  process.exit(1);
});
