/**
 * The one harness of the emulator's integration tests: an in-process emulator
 * with its control client, raw fetch calls (as any HTTP client would make
 * them), the project's own client, and helpers to wait and read timestamps.
 */
import { AgentHostingClient, type AgentHostingClientOptions } from "../../../src/client/client";
import { EmulatorControl, startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator";
import { API_KEY, IMAGE } from "../../support/fixtures";

export const READY_AFTER_MS = 200;

/** The top-level fields of an Agent answer, sorted. */
export const AGENT_KEYS = [
  "activeDeploymentId",
  "activeDeploymentReady",
  "activeSessionCount",
  "autoScaling",
  "createdAt",
  "deployment",
  "name",
  "ready",
  "updatedAt",
];

export interface Raw {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
  json: any;
  text: string;
  headers: Headers;
}

export interface RawOptions {
  /** Sent as JSON with Content-Type: application/json (unless `headers` says another type). */
  json?: unknown;
  /** Sent as is, with only the headers given. */
  body?: string;
  /** Replaces the Authorization header; null sends none. Default `Bearer <the emulator's key>`. */
  authorization?: string | null;
  headers?: Record<string, string>;
}

export interface Emu {
  emulator: RunningEmulator;
  control: EmulatorControl;
  /** A raw fetch of `path` (e.g. "/v1/agents") against http://127.0.0.1:PORT. */
  raw(method: string, path: string, options?: RawOptions): Promise<Raw>;
  /** A client of the project, closed with the emulator. */
  client(options?: Partial<AgentHostingClientOptions>): AgentHostingClient;
  close(): Promise<void>;
}

/** Starts an emulator on a free port with the shared key, READY_AFTER_MS and the set "voice-secrets" (A, B); `options` override. */
export async function startEmu(options: EmulatorOptions = {}): Promise<Emu> {
  return emuFor(
    await startEmulator({
      port: 0,
      apiKey: API_KEY,
      readyAfterMs: READY_AFTER_MS,
      secretSets: { "voice-secrets": ["A", "B"] },
      ...options,
    }),
  );
}

/** The harness around an emulator started elsewhere; closing it closes the emulator. */
export function emuFor(emulator: RunningEmulator): Emu {
  const clients: AgentHostingClient[] = [];
  let closing: Promise<void> | undefined;
  const raw = async (method: string, path: string, o: RawOptions = {}): Promise<Raw> => {
    const headers: Record<string, string> = {};
    const authorization = o.authorization === undefined ? `Bearer ${emulator.apiKey}` : o.authorization;
    if (authorization !== null) headers["authorization"] = authorization;
    let body: string | undefined;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers["content-type"] = "application/json";
    } else if (o.body !== undefined) {
      body = o.body;
    }
    Object.assign(headers, o.headers);
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body;
    const response = await fetch(`${emulator.baseUrl}${path}`, init);
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text, headers: response.headers };
  };
  return {
    emulator,
    control: new EmulatorControl(emulator.baseUrl),
    raw,
    client: (options = {}) => {
      const c = new AgentHostingClient({
        baseUrl: emulator.url,
        apiKey: emulator.apiKey,
        retryBaseDelayMs: 5,
        retryMaxDelayMs: 20,
        ...options,
      });
      clients.push(c);
      return c;
    },
    close: () => {
      closing ??= (async () => {
        await Promise.all(clients.map((c) => c.close()));
        await emulator.close();
      })();
      return closing;
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Calls `probe` every `everyMs` until it is true; fails the test after `timeoutMs`. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 5_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export const NS_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;

/** "2026-11-23T06:00:00.123456789Z" → epoch nanoseconds (throws on another form). */
export function toNs(timestamp: string): bigint {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{9})Z$/.exec(timestamp);
  if (!match) throw new Error(`not a nanosecond timestamp: ${timestamp}`);
  return BigInt(Date.parse(`${match[1]}Z`)) * 1_000_000n + BigInt(match[2] as string);
}

/** A create body with every field set. */
export function fullBody(serviceName: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    serviceName,
    image: IMAGE,
    nodeType: "arm",
    secretSet: "voice-secrets",
    autoScaling: { minAgents: 2, maxAgents: 7 },
    enableNoise: true,
    ...overrides,
  };
}
