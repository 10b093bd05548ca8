/**
 * One provider instance, host-neutral: the registry's resources and
 * functions over one client, made from the settings resolved once, at the
 * first call that talks to the service (so a preview's check and diff never
 * load the HTTP stack); one readiness gate, and one cancellation. The
 * dynamic host builds one per `configure`; the gRPC host one per Configure.
 * Nothing is kept outside the object.
 */
import { setMaxListeners } from "node:events";
import type { AgentHostingClient, AgentHostingClientOptions } from "../client/client";
import { checkedConnection } from "../client/connection-settings";
import { loadOnce } from "../client/load-once";
import { callSignal } from "./call-signal";
import type { EngineLog, ResourceLog } from "./engine-log";
import { InterruptedError } from "./interrupt";
import type { Cancellable } from "./interrupt";
import type { ImageDigestLookup } from "./image-digest-lookup";
import { PollGate } from "./readiness/poll-gate";
import { NotFoundError } from "../client/errors";
import type { Call, FunctionEntry, Registry, ResourceEntry, SecretSetAnswer, SecretSetLookup } from "./resource-entry";
import { explainServiceError } from "./service-errors";
import type { ErrorContext } from "./service-errors";
import { resolveConnection } from "./settings";
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
  /** The instance's image digests (the hosts make it from the same settings: src/image-registry/run-lookup.ts); absent, nothing is pinned. */
  imageDigests?: ImageDigestLookup;
}

/** What a call that talks to the service is about: its resource's URN, whether it waits (a create or update), the engine's limit. */
export interface CallOptions {
  waiting?: boolean;
  timeoutMs?: number;
}

export interface ProviderCore extends Cancellable {
  /** The registered resource of `type` (its native or dynamic type token). */
  resource(type: string): ResourceEntry;
  /** The registered function of `token`. */
  function(token: string): FunctionEntry;
  /** The lines on the row of `urn`, for a verb that talks to no service (diff). */
  rowLog(urn: string): ResourceLog;
  /**
   * Runs a verb that talks to the service, handing it its call (the client
   * and the gate among them): counted as in flight (so a signal waits for
   * its answer), and a failure of the service or the settings named with the
   * setting to fix.
   */
  talking<T>(urn: string, options: CallOptions, verb: (call: Call) => Promise<T>): Promise<T>;
  /**
   * Secret sets at the service, one GET per set name for the life of this
   * instance (the dynamic provider's process runs every dynamic resource of
   * a run; the native plugin's, one provider): check and the verbs share it.
   */
  secretSets: SecretSetLookup;
  /** The instance's image digests, one registry request per image reference for its life; check and the functions share it. */
  imageDigests?: ImageDigestLookup;
}

/** The client and what its errors name, made once from the settings resolved once. */
interface Service {
  client: AgentHostingClient;
  context: ErrorContext;
}

function serviceMaker(options: ProviderCoreOptions): () => Promise<Service> {
  return loadOnce(async () => {
    const { settings, sources } = resolveConnection(options.config);
    const { AgentHostingClient } = await import("../client/client");
    return { client: new AgentHostingClient(checkedConnection({ ...options.client, ...settings })), context: { baseUrl: settings.baseUrl, ...sources } };
  });
}

export function createProviderCore(options: ProviderCoreOptions): ProviderCore {
  const { registry, log, host } = options;
  const cancelled = new AbortController();
  // Every call in flight listens on this one signal through its own (call-signal.ts) and removes its
  // listener when it ends. Node's default of 10 listeners would print a "possible memory leak"
  // warning, which the engine shows on the stack's row, once 11 agents wait at once.
  setMaxListeners(0, cancelled.signal);
  const service = serviceMaker(options);
  const gate = new PollGate();
  let inFlight = 0;
  const sets = new Map<string, Promise<SecretSetAnswer>>();
  const served = (kind: string, names: readonly string[]) => `this provider serves the ${kind} ${names.join(", ")}`;
  const core: ProviderCore = {
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
    rowLog: (urn) => log.forResource(urn),
    async talking(urn, callOptions, verb) {
      inFlight++;
      // Unset while the settings do not resolve: their error names the setting itself.
      let context: ErrorContext | undefined;
      const own = callSignal(cancelled.signal);
      try {
        const made = await service();
        context = made.context;
        const call: Call = {
          host,
          urn,
          log: log.forResource(urn, { waiting: callOptions.waiting ?? false }),
          signal: own.signal,
          client: made.client,
          gate,
          secretSets: core.secretSets,
        };
        return await verb(callOptions.timeoutMs === undefined ? call : { ...call, timeoutMs: callOptions.timeoutMs });
      } catch (error) {
        throw context === undefined ? error : explainServiceError(error, context);
      } finally {
        own.release();
        inFlight--;
      }
    },
    secretSets(name) {
      const known = sets.get(name);
      if (known !== undefined) return known;
      // One promise per name: the agents that share a set wait for the same request (a failure included).
      const answer = core.talking("", {}, async ({ client, signal }): Promise<SecretSetAnswer> => {
        try {
          const set = await client.getSecretSet(name, { signal });
          return { name, fieldNames: set.secrets.map((s) => s.fieldName) };
        } catch (error) {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }
      });
      sets.set(name, answer);
      return answer;
    },
    ...(options.imageDigests ? { imageDigests: options.imageDigests } : {}),
    busy: () => inFlight,
    cancel: (reason) => cancelled.abort(new InterruptedError(reason)),
  };
  return core;
}
