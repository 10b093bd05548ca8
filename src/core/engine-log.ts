/**
 * What the provider tells the user while it works: retry notes, readiness
 * progress, warnings. Lines go to the engine's Log RPC, so `pulumi up` prints
 * them on the resource's own row; without an engine they go to stderr. A line
 * never carries a header or the key: notes hold only method, path and reason.
 *
 * A host makes one ResourceLog per call, for the resource the call is about,
 * and hands it to the verb in its request. While a create or update waits on
 * the service, its info lines are status lines: the next one replaces them
 * and they do not stay in the output, the way pulumi-kubernetes reports its
 * await.
 */
import type { RetryNote } from "../client/retry";

export type { RetryNote };

export interface LogEntry {
  severity: "info" | "warning";
  message: string;
  urn: string;
  /** A status line: replaced by the next one, not kept in the output. */
  ephemeral: boolean;
}

/** Sends one entry to the engine; settles when the engine has it (a lost line must never fail the operation). */
export type LogRpc = (entry: LogEntry) => Promise<void>;

/** The lines of one call, on its resource's row. */
export interface ResourceLog {
  /** An informational line (a status line while a create or update waits). */
  info(message: string): Promise<void>;
  warning(message: string): Promise<void>;
  /** Tells the user a request is retried. */
  retry(note: RetryNote): void;
}

export interface EngineLog {
  /** The log of a call about `urn` ("" for the run's own row); `waiting` for a create or update, whose info lines are status lines. */
  forResource(urn: string, options?: { waiting?: boolean }): ResourceLog;
}

export function formatRetry(note: RetryNote): string {
  return `agent-hosting: ${note.method} ${note.path} answered ${note.reason}; retry ${note.attempt} in ${note.delayMs} ms`;
}

const DELIVERY_WAIT_MS = 2_000;

/**
 * A log over the RPC `connect` returns, or over stderr when it returns none.
 * `connect` is called at the first line, not before: a preview that prints
 * nothing never loads the engine's gRPC stubs.
 */
export function createEngineLog(connect: () => LogRpc | undefined): EngineLog {
  let connected: { rpc: LogRpc | undefined } | undefined;
  const send = (entry: LogEntry): Promise<void> => {
    connected ??= { rpc: connect() };
    const { rpc } = connected;
    if (!rpc) {
      if (!entry.ephemeral) process.stderr.write(`${entry.message}\n`);
      return Promise.resolve();
    }
    return Promise.race([rpc(entry), new Promise<void>((r) => setTimeout(r, DELIVERY_WAIT_MS).unref())]);
  };
  return {
    forResource: (urn, options = {}) => ({
      info: (message) => send({ severity: "info", message, urn, ephemeral: options.waiting ?? false }),
      warning: (message) => send({ severity: "warning", message, urn, ephemeral: false }),
      retry: (note) => void send({ severity: "warning", message: formatRetry(note), urn, ephemeral: false }),
    }),
  };
}
