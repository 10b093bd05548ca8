/**
 * The dynamic-provider host: turns Pulumi's dynamic-provider calls (plain
 * property bags) into the typed requests of a registered resource's verbs,
 * and their answers back. The serialized text (src/resources/agent/type-tokens.ts)
 * hands the engine's dynamic-provider process a provider made here
 * (provider-impl.ts), loaded from the installed package at call time, so no
 * code, client or key is captured in the state.
 *
 * What the dynamic interface does not carry is passed among the properties:
 * the resource class puts its URN in `__urn` and its secret inputs in
 * `__secretInputs`; the state keeps the marks (src/core/state-marks.ts); the
 * engine's `__provider` is Pulumi's own.
 */
import type * as pulumi from "@pulumi/pulumi";
import { createEngineLog } from "../../core/engine-log";
import type { EngineLog } from "../../core/engine-log";
import { exitOnSignals } from "../../core/interrupt";
import { isPartialFailure } from "../../core/partial-failure";
import { createProviderCore } from "../../core/provider-core";
import type { ExtraClientOptions, ProviderCore } from "../../core/provider-core";
import type { Props, Registry, ResourceEntry } from "../../core/resource-entry";
import type { ConfigSource } from "../../core/settings";
import { marksOf, withMarks, withoutReserved, withRecordedImageDigest } from "../../core/state-marks";
import { imageDigestLookup } from "../../image-registry/run-lookup";
import { dynamicEngineRpc, dynamicProviderEngineAddress } from "./dynamic-engine-rpc";
import { keepWasmOnBaseline } from "../wasm-baseline";

const PROVIDER_KEY = "__provider";
const URN_KEY = "__urn";

export interface DynamicHostOptions {
  registry: Registry;
  /** The dynamic type of the resource this provider serves. */
  type: string;
  /** Client options beyond the settings, e.g. an undici dispatcher. */
  client?: ExtraClientOptions;
  /** Where lines go; by default the engine of the dynamic-provider process this runs in, else stderr. */
  log?: EngineLog;
  /** The process's arguments, which tell whether this is the engine's provider process. */
  argv?: readonly string[];
}

export interface DynamicProvider {
  configure(req: { config: ConfigSource | undefined }): Promise<void>;
  check(olds: Props, news: Props): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }>;
  diff(id: string, olds: Props, news: Props): ReturnType<ResourceEntry["verbs"]["diff"]>;
  create(props: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props?: Props): Promise<{ id: string; props: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props?: Props): Promise<void>;
}

const urnOf = (props: Props): string => (typeof props[URN_KEY] === "string" ? props[URN_KEY] : "");

/**
 * The keys the dynamic host keeps in every state of the resource: the
 * serialized provider, and the resource's URN, which Pulumi's dynamic
 * provider hands to create and update (in the inputs) but not to read and
 * delete, whose lines then go on the resource's row too.
 */
function hostKeys(props: Props): Props {
  const urn = urnOf(props);
  return { [PROVIDER_KEY]: props[PROVIDER_KEY], ...(urn === "" ? {} : { [URN_KEY]: urn }) };
}

/** A partial create or update keeps the host's keys in its outputs, as every state of this resource does. */
function keepingProvider<T>(props: Props, run: () => Promise<T>): Promise<T> {
  return run().catch((error: unknown) => {
    if (isPartialFailure(error)) error.properties = { ...error.properties, ...hostKeys(props) };
    throw error;
  });
}

export function createDynamicProvider(options: DynamicHostOptions): DynamicProvider {
  const argv = options.argv ?? process.argv;
  const address = dynamicProviderEngineAddress(argv);
  const log = options.log ?? createEngineLog(() => (address === undefined ? undefined : dynamicEngineRpc(address)));
  const build = (config: ConfigSource | undefined): ProviderCore =>
    createProviderCore({
      registry: options.registry,
      config,
      log,
      host: "dynamic",
      imageDigests: imageDigestLookup(config),
      ...(options.client ? { client: options.client } : {}),
    });
  let core = build(undefined);
  const entry = () => core.resource(options.type);
  // Inside the engine's provider process, SIGINT and SIGTERM cancel the calls in flight, and the
  // HTTP parser's WebAssembly stays on the baseline compiler (src/hosts/wasm-baseline.ts).
  if (address !== undefined) {
    exitOnSignals({ busy: () => core.busy(), cancel: (reason) => core.cancel(reason) });
    keepWasmOnBaseline();
  }
  return {
    configure: async (req) => {
      core = build(req.config);
    },
    check: async (olds, news) => {
      const { secretSets, imageDigests } = core;
      const request = { urn: urnOf(news), olds, news, secretInputs: marksOf(news).secretInputs, secretSets, ...(imageDigests ? { imageDigests } : {}) };
      const outcome = await entry().verbs.check(request);
      return { ...outcome, inputs: withRecordedImageDigest(outcome.inputs, olds) };
    },
    diff: (id, olds, news) =>
      entry().verbs.diff({ urn: urnOf(news), id, olds: withoutReserved(olds), news: withoutReserved(news), oldMarks: marksOf(olds), newMarks: marksOf(news), log: core.rowLog(urnOf(news)) }),
    create: (props) =>
      core.talking(urnOf(props), { waiting: true }, (call) =>
        keepingProvider(props, async () => {
          const stored = await entry().verbs.create({ ...call, inputs: withoutReserved(props), marks: { secretInputs: marksOf(props).secretInputs } });
          return { id: stored.id, outs: { ...withMarks(stored.outputs, stored.marks), ...hostKeys(props) } };
        }),
      ),
    read: (id, props) =>
      core.talking(urnOf(props ?? {}), {}, async (call) => {
        const olds = props === undefined ? undefined : withoutReserved(props);
        const adopting = olds === undefined || Object.keys(olds).length === 0;
        const read = await entry().verbs.read({ ...call, id, ...(adopting ? {} : { olds }), marks: marksOf(props ?? {}) });
        if (read === undefined) return { id: "", props: {} };
        const kept = props === undefined ? {} : hostKeys(props);
        return { id: read.id, props: { ...withMarks(read.outputs, read.marks), ...kept }, inputs: read.inputs };
      }),
    update: (id, olds, news) =>
      core.talking(urnOf(news), { waiting: true }, (call) =>
        keepingProvider(news, async () => {
          // The digest the previous inputs recorded goes with them: the update's diff decides what it sends.
          const { secretInputs, recordedImageDigest } = marksOf(news);
          const marks = recordedImageDigest === undefined ? { secretInputs } : { secretInputs, recordedImageDigest };
          const stored = await entry().verbs.update({ ...call, id, olds: withoutReserved(olds), oldMarks: marksOf(olds), inputs: withoutReserved(news), marks });
          return { outs: { ...withMarks(stored.outputs, stored.marks), ...hostKeys(news) } };
        }),
      ),
    delete: (id, props) =>
      core.talking(urnOf(props ?? {}), { waiting: true }, (call) => {
        const olds = withoutReserved(props ?? {});
        return entry().verbs.delete({ ...call, id, ...(Object.keys(olds).length === 0 ? {} : { olds }) });
      }),
  };
}

/** The shape Pulumi's dynamic-provider process calls. */
export type PulumiDynamicProvider = DynamicProvider & pulumi.dynamic.ResourceProvider;
