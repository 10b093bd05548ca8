/**
 * The provider core in process, called as the hosts call it: one provider
 * instance (src/core/provider-core.ts) over the registry (src/registry.ts),
 * configured for an emulator, with the Agent's verbs taking and returning
 * the engine's property bags. The marks go in and out of the properties as
 * both hosts keep them in the state (src/core/state-marks.ts), a partial
 * failure's properties are what the engine keeps, and `cancel` is what
 * SIGINT or the engine's Cancel call does. Every line the provider writes
 * is kept in `lines`.
 */
import { createEngineLog, type LogEntry } from "../../../src/core/engine-log";
import { createProviderCore, type CallOptions } from "../../../src/core/provider-core";
import type { DiffResult, Props } from "../../../src/core/resource-entry";
import { API_KEY_CONFIG, BASE_URL_CONFIG } from "../../../src/core/settings";
import { marksOf, withMarks, withoutReserved } from "../../../src/core/state-marks";
import { REGISTRY } from "../../../src/registry";

export interface ProviderSession {
  /** Check's inputs with defaults, failing the test's expectation when check fails (see `checkFailures`). */
  check(news: Props, olds?: Props): Promise<Props>;
  /** Check's failures' reasons for `news` (empty when it passes). */
  checkFailures(news: Props): Promise<string[]>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(inputs: Props, options?: CallOptions): Promise<{ id: string; outs: Props }>;
  update(id: string, olds: Props, news: Props, options?: CallOptions): Promise<{ outs: Props }>;
  /** A refresh (with `olds`) or an adoption (without): the state after it, `undefined` when the agent is gone. */
  read(id: string, olds?: Props): Promise<{ id: string; props: Props; inputs: Props } | undefined>;
  delete(id: string, olds?: Props): Promise<void>;
  /** What SIGINT or the engine's Cancel call does to the calls in flight. */
  cancel(reason: string): void;
  readonly lines: LogEntry[];
  /** The messages of the lines kept so far (all severities, status lines included). */
  messages(): string[];
}

/** A provider instance for the emulator at `url` with `apiKey`, as a host configures one. */
export function providerSession(url: string, apiKey: string): ProviderSession {
  const lines: LogEntry[] = [];
  const settings: Record<string, string> = { [API_KEY_CONFIG]: apiKey, [BASE_URL_CONFIG]: url };
  const core = createProviderCore({
    registry: REGISTRY,
    config: { get: (key) => settings[key] },
    log: createEngineLog(() => async (entry) => void lines.push(entry)),
    host: "dynamic",
    client: { retryBaseDelayMs: 5 },
  });
  // The Agent by its type token on the native plugin; the dynamic host finds the same entry by its dynamic type.
  const agent = core.resource("agent-hosting:index:Agent");
  const urn = "urn:pulumi:test::matrix::agent-hosting:index:Agent::bot";
  const secretInputs = (props: Props) => marksOf(props).secretInputs;
  const stored = (outputs: Props, marks: Parameters<typeof withMarks>[1]) => withMarks(outputs, marks);
  const session: ProviderSession = {
    lines,
    messages: () => lines.map((l) => l.message),
    async check(news, olds = {}) {
      const outcome = await agent.verbs.check({ urn, olds, news, secretInputs: secretInputs(news), secretSets: core.secretSets });
      if (outcome.failures.length > 0) throw new Error(`check failed: ${outcome.failures.map((f) => f.reason).join("; ")}`);
      return { ...outcome.inputs, ...(secretInputs(news).length > 0 ? { __secretInputs: secretInputs(news) } : {}) };
    },
    async checkFailures(news) {
      const outcome = await agent.verbs.check({ urn, olds: {}, news, secretInputs: secretInputs(news), secretSets: core.secretSets });
      return outcome.failures.map((f) => f.reason);
    },
    diff: (id, olds, news) =>
      agent.verbs.diff({ urn, id, olds: withoutReserved(olds), news: withoutReserved(news), oldMarks: marksOf(olds), newMarks: marksOf(news), log: core.rowLog(urn) }),
    create: (inputs, options = {}) =>
      core.talking(urn, { waiting: true, ...options }, async (call) => {
        const made = await agent.verbs.create({ ...call, inputs: withoutReserved(inputs), marks: { secretInputs: secretInputs(inputs) } });
        return { id: made.id, outs: stored(made.outputs, made.marks) };
      }),
    update: (id, olds, news, options = {}) =>
      core.talking(urn, { waiting: true, ...options }, async (call) => {
        const marks = { secretInputs: secretInputs(news) };
        const made = await agent.verbs.update({ ...call, id, olds: withoutReserved(olds), oldMarks: marksOf(olds), inputs: withoutReserved(news), marks });
        return { outs: stored(made.outputs, made.marks) };
      }),
    read: (id, olds) =>
      core.talking(urn, {}, async (call) => {
        const read = await agent.verbs.read({ ...call, id, ...(olds === undefined ? {} : { olds: withoutReserved(olds) }), marks: marksOf(olds ?? {}) });
        return read && { id: read.id, props: stored(read.outputs, read.marks), inputs: read.inputs };
      }),
    delete: (id, olds) =>
      core.talking(urn, { waiting: true }, (call) => agent.verbs.delete({ ...call, id, ...(olds === undefined ? {} : { olds: withoutReserved(olds) }) })),
    cancel: (reason) => core.cancel(reason),
  };
  return session;
}
