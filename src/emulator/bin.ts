#!/usr/bin/env node
/**
 * agent-hosting-emulator [--port 8787] [--host 127.0.0.1] [--api-key KEY]
 *   [--ready-after-ms 1500] [--rollout rolling|immediate] [--secret-set NAME=FIELD1,FIELD2 ...] [--state-file PATH]
 *   [--reading emulator|other] and the reading switches (args.ts, USAGE)
 *
 * Its first line is `agent-hosting-emulator listening on http://HOST:PORT/v1`
 * (tools read the URL from it); then the `pulumi config set` lines that point
 * a stack at it. Serves until SIGINT or SIGTERM (exit 0). `--help` and
 * `--version` print and exit 0; a bad flag: message and usage, exit 2.
 */
import { BIN_DEFAULT_API_KEY, parseEmulatorArgs, USAGE } from "./args";
import { helpText, infoRequest, packageVersion, pasteText } from "./help";
import { startEmulator } from "./server";

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const info = infoRequest(argv);
  if (info !== undefined) {
    process.stdout.write(info === "help" ? helpText() : `${packageVersion()}\n`);
    return;
  }
  const parsed = parseEmulatorArgs(argv);
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
  // One write, so a reader of the first chunk sees the first line whole.
  const secretSets = Object.keys(parsed.options.secretSets ?? {});
  process.stdout.write(
    `agent-hosting-emulator listening on ${emulator.url}\n${pasteText(emulator.url, parsed.options.apiKey ?? BIN_DEFAULT_API_KEY, secretSets)}`,
  );
}

/** What to tell the user when the emulator cannot start: the cause, and for a taken address, the flag that fixes it. */
function startFailure(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === "EADDRINUSE") return `${message}: another process listens there; pass --port 0 for a free port, or another --port`;
  if (code === "EADDRNOTAVAIL") return `${message}: this machine has no such address; pass --host 127.0.0.1 or one of its own addresses`;
  return message;
}

main().catch((error: unknown) => {
  process.stderr.write(`agent-hosting-emulator: ${startFailure(error)}\n`);
  process.exit(1);
});
