/**
 * The one emulator fixture of every tier (unit, integration, e2e, languages):
 * an in-process emulator on 127.0.0.1, port 0, with its control client, raw
 * fetch calls (as any HTTP client would make them), the project's own client,
 * and helpers to wait and read timestamps.
 *
 * - `startEmu(options)` starts one now; the caller closes it (`await emu.close()`).
 * - `useEmulator(options)` starts one in `beforeAll` of the enclosing describe
 *   block (or the file) and closes it in `afterAll`.
 *
 * Both start with `EMULATOR_DEFAULTS` (the shared key, READY_AFTER_MS and the
 * set "voice-secrets" (A, B)); every option of the emulator overrides them.
 * Options the emulator rejects make the start reject, as `startEmulator` does.
 */
import { afterAll, beforeAll } from "vitest";
import { AgentHostingClient, type AgentHostingClientOptions } from "../../src/client/client";
import { EmulatorControl, startEmulator, type EmulatorOptions, type RunningEmulator } from "../../src/emulator";
import { API_KEY, IMAGE } from "./fixtures";

export type { EmulatorOptions, RunningEmulator } from "../../src/emulator";

export const READY_AFTER_MS = 200;

/** What every emulator of the tests starts with unless the options say otherwise. */
export const EMULATOR_DEFAULTS = {
  port: 0,
  apiKey: API_KEY,
  readyAfterMs: READY_AFTER_MS,
  secretSets: { "voice-secrets": ["A", "B"] },
} as const satisfies EmulatorOptions;

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
  /** http://127.0.0.1:PORT/v1, the base URL a client or a stack is given. */
  readonly url: string;
  /** http://127.0.0.1:PORT (control endpoints live under /_emulator/). */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly port: number;
  control: EmulatorControl;
  /** A client of the service with the emulator's key and the default retry pacing, made once and closed with the emulator. */
  readonly client: AgentHostingClient;
  /** A new client of the project with quick retries (5 ms, at most 20 ms); `options` override. Closed with the emulator. */
  newClient(options?: Partial<AgentHostingClientOptions>): AgentHostingClient;
  /** A raw fetch of `path` (e.g. "/v1/agents") against http://127.0.0.1:PORT. */
  raw(method: string, path: string, options?: RawOptions): Promise<Raw>;
  /** Closes the clients, then the emulator; a second call waits for the first. */
  close(): Promise<void>;
}

/** Starts an emulator with EMULATOR_DEFAULTS; `options` override. */
export async function startEmu(options: EmulatorOptions = {}): Promise<Emu> {
  return emuFor(await startEmulator({ ...EMULATOR_DEFAULTS, ...options }));
}

/**
 * An emulator for the enclosing describe block (or the file), started in
 * `beforeAll` with EMULATOR_DEFAULTS and `options`, closed in `afterAll`.
 * Its fields can be read inside a test or a hook.
 */
export function useEmulator(options: EmulatorOptions = {}): Emu {
  let started: Emu | undefined;
  beforeAll(async () => {
    started = await startEmu(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const get = (): Emu => {
    if (!started) throw new Error("the emulator starts in beforeAll: use it inside a test or a hook");
    return started;
  };
  return {
    get emulator() {
      return get().emulator;
    },
    get url() {
      return get().url;
    },
    get baseUrl() {
      return get().baseUrl;
    },
    get apiKey() {
      return get().apiKey;
    },
    get port() {
      return get().port;
    },
    get control() {
      return get().control;
    },
    get client() {
      return get().client;
    },
    newClient: (o) => get().newClient(o),
    raw: (method, path, o) => get().raw(method, path, o),
    close: () => get().close(),
  };
}

/** The fixture around an emulator already started; closing it closes the emulator. */
function emuFor(emulator: RunningEmulator): Emu {
  const clients: AgentHostingClient[] = [];
  let shared: AgentHostingClient | undefined;
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
  const keep = (c: AgentHostingClient): AgentHostingClient => {
    clients.push(c);
    return c;
  };
  return {
    emulator,
    url: emulator.url,
    baseUrl: emulator.baseUrl,
    apiKey: emulator.apiKey,
    port: emulator.port,
    control: new EmulatorControl(emulator.baseUrl),
    get client() {
      shared ??= keep(new AgentHostingClient({ baseUrl: emulator.url, apiKey: emulator.apiKey }));
      return shared;
    },
    raw,
    newClient: (options = {}) =>
      keep(
        new AgentHostingClient({
          baseUrl: emulator.url,
          apiKey: emulator.apiKey,
          retryBaseDelayMs: 5,
          retryMaxDelayMs: 20,
          ...options,
        }),
      ),
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
