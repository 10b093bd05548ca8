/**
 * undici's `Agent`, loaded without the rest of undici. `import { Agent } from
 * "undici"` evaluates undici's whole index: fetch, WebSocket, EventSource,
 * the cache and mock dispatchers, every interceptor. The client uses only the
 * Agent's keep-alive pool and the Dispatcher's `request`, and the index costs
 * about 3 MiB of heap and 8 MiB of resident memory more in every provider
 * process (measured for issue 44's memory bar). This loads the two files the
 * index takes them from and does what the index does to give a dispatcher its
 * `request` (`Object.assign(Dispatcher.prototype, api)`), so the Agent is the
 * same class with the same methods. The paths are undici 7's layout;
 * package.json pins undici's exact version, and test/unit/undici-agent.test.ts
 * holds this Agent to the index's.
 */
import { setFlagsFromString } from "node:v8";
import type { Agent as UndiciAgent } from "undici";

/* eslint-disable @typescript-eslint/no-require-imports */
const Dispatcher = require("undici/lib/dispatcher/dispatcher") as { prototype: object };
const api = require("undici/lib/api") as object;
const AgentClass = require("undici/lib/dispatcher/agent") as typeof UndiciAgent;
/* eslint-enable @typescript-eslint/no-require-imports */

Object.assign(Dispatcher.prototype, api);

export const Agent = AgentClass;

/**
 * undici parses HTTP/1 with llhttp compiled to WebAssembly, compiled once per
 * process at its first connection. Left to V8's defaults, the parser's hot
 * function is then tiered up by the optimizing compiler (TurboFan), whose
 * compilation takes some 35 MiB of memory for a moment: most of what a
 * provider process's peak has above a provider that makes no HTTP calls
 * (issue 44). Compiled by the baseline compiler (Liftoff) alone, the
 * module stays on that code: the same parser, the same answers, and no
 * slower for the small JSON answers the service sends (3,000 requests
 * measured: 0.91 s against 1.09 s). So `--liftoff-only` is on from the first
 * request until a request has been answered (the connection, and with it the
 * compile, happened) or until no request is in flight, and off again after,
 * so WebAssembly compiled later by anything else in the process is not
 * affected.
 */
let parserCompiled = false;
let inFlight = 0;
let flagOn = false;

/** `--liftoff-only` on exactly while a request is in flight and none has been answered yet. */
function settle(): void {
  const want = !parserCompiled && inFlight > 0;
  if (want === flagOn) return;
  flagOn = want;
  setFlagsFromString(want ? "--liftoff-only" : "--no-liftoff-only");
}

/** Runs `request` (one of undici's), keeping the parser's first compile to the baseline compiler. */
export async function firstCompileLean<T>(request: () => Promise<T>): Promise<T> {
  if (parserCompiled) return request();
  inFlight++;
  settle();
  try {
    const answer = await request();
    parserCompiled = true;
    return answer;
  } finally {
    inFlight--;
    settle();
  }
}
