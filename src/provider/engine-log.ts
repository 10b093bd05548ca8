/**
 * What the provider tells the user while it works: retry notes, readiness
 * progress, warnings. Lines go to the engine's Log RPC, so `pulumi up` prints
 * them on the resource's own row; without an engine they go to stderr. A line
 * never carries a header or the key: notes hold only method, path and reason.
 *
 * The URN of the resource a call is about travels in an AsyncLocalStorage, so
 * code deep in a verb (retry notes, the readiness wait) reports to the right
 * row without being handed the URN. While a create or update waits on the
 * service, its info lines are status lines: the next one replaces them and
 * they do not stay in the output, the way pulumi-kubernetes reports its await.
 */
import { AsyncLocalStorage } from "node:async_hooks";
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

export interface ProviderLog {
  /** An informational line (a status line while a create or update waits); `urn` defaults to the current resource. */
  info(message: string, urn?: string): Promise<void>;
  /** A warning; `urn` defaults to the current resource (or none: the run's own row). */
  warning(message: string, urn?: string): Promise<void>;
  /** Tells the user a request is retried. */
  retry(note: RetryNote): void;
  /** Runs `fn` with `urn` as the resource its lines are about; `waiting` for a create or update. */
  forResource<T>(urn: string, fn: () => Promise<T>, waiting?: boolean): Promise<T>;
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
export function createEngineLog(connect: () => LogRpc | undefined): ProviderLog {
  const current = new AsyncLocalStorage<{ urn: string; waiting: boolean }>();
  let connected: { rpc: LogRpc | undefined } | undefined;
  const send = (entry: Omit<LogEntry, "urn">, urn: string | undefined): Promise<void> => {
    connected ??= { rpc: connect() };
    const { rpc } = connected;
    const full = { ...entry, urn: urn || (current.getStore()?.urn ?? "") };
    if (!rpc) {
      if (!full.ephemeral) process.stderr.write(`${full.message}\n`);
      return Promise.resolve();
    }
    return Promise.race([rpc(full), new Promise<void>((r) => setTimeout(r, DELIVERY_WAIT_MS).unref())]);
  };
  return {
    info: (message, urn) => send({ severity: "info", message, ephemeral: current.getStore()?.waiting ?? false }, urn),
    warning: (message, urn) => send({ severity: "warning", message, ephemeral: false }, urn),
    retry: (note) => void send({ severity: "warning", message: formatRetry(note), ephemeral: false }, undefined),
    forResource: (urn, fn, waiting = false) => current.run({ urn, waiting }, fn),
  };
}
