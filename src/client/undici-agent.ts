/**
 * undici's `Agent`, loaded without the rest of undici. `import { Agent } from
 * "undici"` evaluates undici's whole index: fetch, WebSocket, EventSource,
 * the cache and mock dispatchers, every interceptor. The client uses only the
 * Agent's keep-alive pool and the Dispatcher's `request`, and the index costs
 * about 3 MiB of heap and 8 MiB of resident memory more in every provider
 * process. This loads the two files the
 * index takes them from and does what the index does to give a dispatcher its
 * `request` (`Object.assign(Dispatcher.prototype, api)`), so the Agent is the
 * same class with the same methods. The paths are undici 7's layout;
 * package.json pins undici's exact version, and test/unit/undici-agent.test.ts
 * holds this Agent to the index's.
 */
import type { Agent as UndiciAgent } from "undici";

/* eslint-disable @typescript-eslint/no-require-imports */
const Dispatcher = require("undici/lib/dispatcher/dispatcher") as { prototype: object };
const api = require("undici/lib/api") as object;
const AgentClass = require("undici/lib/dispatcher/agent") as typeof UndiciAgent;
/* eslint-enable @typescript-eslint/no-require-imports */

Object.assign(Dispatcher.prototype, api);

export const Agent = AgentClass;

