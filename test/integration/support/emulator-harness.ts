/** Starts an in-process emulator and calls it with raw fetch, as any HTTP client would. */
import { EmulatorControl, startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator";

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  body: any;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  /** A JSON body (sent with Content-Type: application/json). */
  json?: unknown;
  /** A raw body, sent as is. */
  raw?: string;
  /** The API key to send; null sends no Authorization header. Default: the emulator's key. */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface Harness {
  emulator: RunningEmulator;
  control: EmulatorControl;
  /** Calls `path` under the emulator's base URL (e.g. "/v1/agents"). */
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  close(): Promise<void>;
}

export const AGENT_FIELDS = [
  "name",
  "ready",
  "createdAt",
  "updatedAt",
  "activeDeploymentId",
  "activeDeploymentReady",
  "autoScaling",
  "activeSessionCount",
  "deployment",
].sort();

export async function harness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ port: 0, ...options });
  return harnessFor(emulator);
}

export function harnessFor(emulator: RunningEmulator): Harness {
  const control = new EmulatorControl(emulator.baseUrl);
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? emulator.apiKey : options.key;
    if (key !== null) headers["authorization"] = `Bearer ${key}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] ??= "application/json";
    } else if (options.raw !== undefined) {
      body = options.raw;
    }
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body;
    const response = await fetch(`${emulator.baseUrl}${path}`, init);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  };
  return { emulator, control, call, close: () => emulator.close() };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every `everyMs` until it returns true or `timeoutMs` passes; returns whether it did. */
export async function pollUntil(probe: () => Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(everyMs);
  }
  return probe();
}

/** "2026-11-23T06:00:00.123456789Z" → epoch nanoseconds. */
export function timestampNs(timestamp: string): bigint {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{9})Z$/.exec(timestamp);
  if (!match) throw new Error(`not a nanosecond timestamp: ${timestamp}`);
  return BigInt(Date.parse(`${match[1]}Z`)) * 1_000_000n + BigInt(match[2] as string);
}

export const NS_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;
