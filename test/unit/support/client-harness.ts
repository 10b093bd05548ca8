/**
 * Shared set-up of the client unit tests: an AgentHostingClient wired to an
 * undici MockAgent (net connect disabled, every request recorded), a sleep
 * that records its delays and resolves at once, and builders of valid
 * service answers (the Agent answer is in test/support/fixtures.ts).
 */
import { MockAgent, type Interceptable, type MockCallHistoryLog } from "undici";
import { AgentHostingClient, type AgentHostingClientOptions, type RetryNote, type RetryPacing } from "../../../src/client/client";
import { API_KEY } from "../../support/fixtures";

export const ORIGIN = "https://api.test";
export const BASE_URL = `${ORIGIN}/v1`;
export const JSON_REPLY = { headers: { "content-type": "application/json" } };

export interface Harness {
  mockAgent: MockAgent;
  /** Interceptors of https://api.test. */
  api: Interceptable;
  client: AgentHostingClient;
  /** Every delay the client slept, in order. */
  sleeps: number[];
  /** Every onRetry note, in order. */
  notes: RetryNote[];
  /** Every request the client dispatched (matched or not), in order. */
  calls(): MockCallHistoryLog[];
  /** Asserts every interceptor was used, then closes the mock agent. */
  finish(): Promise<void>;
}

export function makeHarness(options: Partial<AgentHostingClientOptions> = {}, pacing: Partial<RetryPacing> = {}): Harness {
  const mockAgent = new MockAgent({ enableCallHistory: true });
  mockAgent.disableNetConnect();
  const sleeps: number[] = [];
  const notes: RetryNote[] = [];
  const client = new AgentHostingClient(
    { baseUrl: BASE_URL, apiKey: API_KEY, dispatcher: mockAgent, onRetry: (note) => notes.push(note), ...options },
    {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      ...pacing,
    },
  );
  return {
    mockAgent,
    api: mockAgent.get(ORIGIN),
    client,
    sleeps,
    notes,
    calls: () => mockAgent.getCallHistory()?.calls() ?? [],
    finish: async () => {
      try {
        mockAgent.assertNoPendingInterceptors();
      } finally {
        await client.close();
        await mockAgent.close();
      }
    },
  };
}

/** The request headers as sent, with lower-case names. */
export function headersOf(call: MockCallHistoryLog): Record<string, string> {
  const raw = call.headers as unknown;
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  } else if (raw && typeof raw === "object") {
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) out[k.toLowerCase()] = String(v);
  }
  return out;
}

/** A service error body: the message and the machine-readable code. */
export function errorJson(code: string, message: string): { error: string; code: string } {
  return { error: message, code };
}

/** `n` log entries numbered from `from`, each with a nanosecond timestamp. */
export function logEntries(from: number, n: number): { log: string; timestamp: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    log: `line ${from + i}`,
    timestamp: `2024-05-01T10:00:00.${String(from + i).padStart(9, "0")}Z`,
  }));
}

/** The transport errors undici raises, as the client sees them. */
export const reset = () => Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
export const refused = () => Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
export const headersTimeout = () => Object.assign(new Error("Headers Timeout Error"), { code: "UND_ERR_HEADERS_TIMEOUT" });

/** Drains an async iterator into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** The error a promise rejects with (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject, but it resolved");
}

/** What `iterable` yielded before it failed, and the error it failed with (fails when it ends normally). */
export async function readUntilFailure<T>(iterable: AsyncIterable<T>): Promise<{ seen: T[]; error: unknown }> {
  const seen: T[] = [];
  const error = await rejectionOf(
    (async () => {
      for await (const item of iterable) seen.push(item);
    })(),
  );
  return { seen, error };
}

/** The error a function throws synchronously (fails when it does not). */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw, but it returned");
}
