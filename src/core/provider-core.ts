/**
 * One provider instance, host-neutral: the registry's resources and
 * functions over one client (made from the resolved settings at the first
 * call that needs it, so a preview's check and diff never load the HTTP
 * stack), one readiness gate, and one cancellation. The dynamic host builds
 * one per `configure`; the gRPC host one per Configure. Nothing is kept
 * outside the object.
 */
import type { AgentHostingClient, AgentHostingClientOptions } from "../client/client";
import type { EngineLog } from "./engine-log";
import { InterruptedError } from "./interrupt";
import type { Cancellable } from "./interrupt";
import { PollGate } from "./readiness/poll-gate";
import type { Call, FunctionEntry, Registry, ResourceEntry, ServiceAccess } from "./resource-entry";
import { explainServiceError } from "./service-errors";
import { resolveSettings, settingSources } from "./settings";
import type { ConfigSource } from "./settings";

/** Client options beyond the settings (a dispatcher such as undici's MockAgent or a proxy agent, retry delays). */
export type ExtraClientOptions = Omit<AgentHostingClientOptions, "baseUrl" | "apiKey" | "allowInsecureHttp" | "onRetry">;

export interface ProviderCoreOptions {
  registry: Registry;
  /** The stack config (dynamic host) or the provider's inputs (gRPC host); the environment fills in what it lacks. */
  config: ConfigSource | undefined;
  log: EngineLog;
  host: Call["host"];
  client?: ExtraClientOptions;
}

export interface ProviderCore extends Cancellable {
  /** The registered resource of `type` (its native or dynamic type token). */
  resource(type: string): ResourceEntry;
  /** The registered function of `token`. */
  function(token: string): FunctionEntry;
  /** What a verb's request carries for a call about `urn`; `waiting` for a create or update. */
  call(urn: string, options?: { waiting?: boolean; timeoutMs?: number }): Call;
  /**
   * Runs a verb that may talk to the service: counted as in flight (so a
   * signal waits for its answer), and a failure of the service or the
   * settings named with the setting to fix.
   */
  talking<T>(verb: () => Promise<T>): Promise<T>;
  service: ServiceAccess;
}

function clientMaker(options: ProviderCoreOptions): () => Promise<AgentHostingClient> {
  let made: Promise<AgentHostingClient> | undefined;
  return () => {
    made ??= (async () => {
      const settings = resolveSettings(options.config);
      const { AgentHostingClient } = await import("../client/client");
      return new AgentHostingClient({ ...options.client, ...settings });
    })();
    return made;
  };
}

export function createProviderCore(options: ProviderCoreOptions): ProviderCore {
  const { registry, log, host } = options;
  const cancelled = new AbortController();
  const service: ServiceAccess = { client: clientMaker(options), gate: new PollGate() };
  let inFlight = 0;
  const served = (kind: string, names: readonly string[]) => `this provider serves the ${kind} ${names.join(", ")}`;
  return {
    resource(type) {
      const entry = registry.resources.find((r) => r.nativeType === type || r.dynamicType === type);
      if (!entry) throw new Error(`unknown resource type "${type}"; ${served("resources", registry.resources.map((r) => r.nativeType))}`);
      return entry;
    },
    function(token) {
      const entry = registry.functions.find((f) => f.token === token);
      if (!entry) throw new Error(`unknown function ${token}; ${served("functions", registry.functions.map((f) => f.token))}`);
      return entry;
    },
    call(urn, callOptions = {}) {
      const call: Call = { host, urn, log: log.forResource(urn, { waiting: callOptions.waiting ?? false }), signal: cancelled.signal, service };
      return callOptions.timeoutMs === undefined ? call : { ...call, timeoutMs: callOptions.timeoutMs };
    },
    async talking(verb) {
      inFlight++;
      try {
        return await verb();
      } catch (error) {
        throw explainServiceError(error, { baseUrl: baseUrlOf(options.config), ...settingSources(options.config) });
      } finally {
        inFlight--;
      }
    },
    service,
    busy: () => inFlight,
    cancel: (reason) => cancelled.abort(new InterruptedError(reason)),
  };
}

/** The base URL the client talks to, for messages (resolved again: it holds no secret). */
function baseUrlOf(config: ConfigSource | undefined): string {
  try {
    return resolveSettings(config).baseUrl;
  } catch {
    return "";
  }
}
