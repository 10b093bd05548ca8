/**
 * Telling the user what was retried. Inside the dynamic provider process
 * (started by the engine as `.../cmd/dynamic-provider <engine-address>`) a
 * warning is sent to the engine's Log RPC, so `pulumi up` prints it; anywhere
 * else it goes to stderr. Never includes a header or the key: notes carry
 * only method, path and reason.
 */
import * as path from "node:path";
import type { RetryNote } from "../client/retry";

export type { RetryNote };

export type Severity = "info" | "warning";
export type Sender = (message: string, severity: Severity, urn: string) => Promise<void> | void;
let sender: Sender | undefined;

/** Whether this process is a provider process the engine started: the dynamic provider's, or the native plugin (which routes notes itself). */
export function insideProviderProcess(): boolean {
  return routed || engineAddress() !== undefined;
}

function engineAddress(): string | undefined {
  const script = process.argv[1] ?? "";
  const address = process.argv[2];
  if (!script.includes("dynamic-provider") || !address || !/^[\w.[\]:-]+:\d+$/.test(address)) return undefined;
  return address;
}

function engineSender(address: string): Sender | undefined {
  try {
    const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
    /* eslint-disable @typescript-eslint/no-require-imports */
    const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
    const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
    const engproto = require("@pulumi/pulumi/proto/engine_pb");
    /* eslint-enable @typescript-eslint/no-require-imports */
    const engine = new engrpc.EngineClient(address, grpc.credentials.createInsecure());
    return (message, severity, urn) =>
      new Promise<void>((resolve) => {
        const req = new engproto.LogRequest();
        req.setSeverity(severity === "info" ? engproto.LogSeverity.INFO : engproto.LogSeverity.WARNING);
        req.setMessage(message);
        req.setUrn(urn);
        engine.log(req, () => resolve());
      });
  } catch {
    return undefined;
  }
}

let routed = false;

/** Where notes go when the host process is not the dynamic provider (the native plugin routes them to the engine). */
export function sendNotesTo(next: Sender): void {
  sender = next;
  routed = true;
}

/** Sends a line; the promise settles when the engine has it (or after 2 s), so a caller about to return can wait for it. */
function send(message: string, severity: Severity = "warning", urn = ""): Promise<void> {
  if (sender === undefined) {
    const address = engineAddress();
    sender =
      (address && engineSender(address)) ||
      (async (m) => {
        process.stderr.write(`${m}\n`);
      });
  }
  const delivered = Promise.resolve(sender(message, severity, urn));
  return Promise.race([delivered, new Promise<void>((r) => setTimeout(r, 2_000).unref())]);
}

export function formatRetry(note: RetryNote): string {
  return `agent-hosting: ${note.method} ${note.path} answered ${note.reason}; retry ${note.attempt} in ${note.delayMs} ms`;
}

export function reportRetry(note: RetryNote): void {
  void send(formatRetry(note));
}

/** Any other warning for the user (no key, no header). */
export function reportNote(message: string): Promise<void> {
  return send(message);
}

/** An informational line, on the resource's own row when its URN is known. */
export function reportInfo(message: string, urn?: string): Promise<void> {
  return send(message, "info", urn ?? "");
}
