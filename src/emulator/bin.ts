#!/usr/bin/env node
/**
 * agent-hosting-emulator [--port 8787] [--host 127.0.0.1] [--api-key KEY]
 *   [--ready-after-ms 1500] [--secret-set NAME=FIELD1,FIELD2 ...] [--state-file PATH]
 *   [--reading emulator|other] and the reading switches (args.ts, USAGE)
 *
 * Prints one line, `agent-hosting-emulator listening on http://HOST:PORT/v1`,
 * and serves until SIGINT or SIGTERM (exit 0). A bad flag: message, exit 2.
 */
import { parseEmulatorArgs, USAGE } from "./args";
import { startEmulator } from "./server";

async function main(): Promise<void> {
  const parsed = parseEmulatorArgs(process.argv.slice(2));
  if (!parsed.ok) {
    process.stderr.write(`agent-hosting-emulator: ${parsed.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const emulator = await startEmulator(parsed.options);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // Announced only once the handlers are in place: a signal sent on seeing the line must exit 0.
  process.stdout.write(`agent-hosting-emulator listening on ${emulator.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`agent-hosting-emulator: ${(error as Error).message}\n`);
  process.exit(1);
});
