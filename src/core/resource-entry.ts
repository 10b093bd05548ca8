/**
 * What the registry (src/registry.ts) holds for each resource and function
 * the package serves, and the typed requests their verbs take. The hosts
 * (src/hosts/dynamic, src/hosts/grpc) turn the engine's calls into these
 * requests; nothing here knows which host called.
 */
import type { DocumentedField } from "../client/answer-tables";
import type { AgentHostingClient } from "../client/client";
import type { ResourceLog } from "./engine-log";
import type { RuleFailure } from "../client/field-rules";
import type { FieldSpec, OutputFieldSpec } from "./field-table";
import type { ImageDigestLookup } from "./image-digest-lookup";
import type { PollGate } from "./readiness/poll-gate";
import type { SchemaExample } from "./schema-docs";

export type Props = Record<string, unknown>;
export type Json = Record<string, unknown>;

/** What the provider keeps in the state beside the outputs. */
export interface Marks {
  /** Names of the inputs the program declared secret: the outputs that reflect them stay secret. */
  secretInputs: readonly string[];
  /**
   * A create or update that was sent and did not finish: the next `up` waits
   * for it instead of sending it again. "rollback": an update back to the
   * last ready spec (the outputs describe that spec).
   */
  pending?: "create" | "update" | "rollback";
  /**
   * With an unfinished update: the spec it replaced and that spec's
   * deployment, so that onFailure "rollback" can still return to it when
   * the next `up` finds the update failed.
   */
  lastReady?: { deploymentId: string; spec: Props };
  /**
   * The image digest the state's inputs recorded at the last check, which
   * check carries in the inputs it returns (src/core/state-marks.ts): a step
   * without changes records the inputs but not the outputs, so diff compares
   * a moved tag against it when the outputs record no digest.
   */
  recordedImageDigest?: string;
}

/** A secret set as the service holds it (names only, never values), or undefined when it does not exist (404). */
export type SecretSetAnswer = { name: string; fieldNames: readonly string[] } | undefined;

/**
 * Looks a secret set up at the service (GET /secrets/{name}): once per set
 * name and provider instance, however many resources name it. The client is
 * made at the first lookup, so a check that names no set loads no HTTP stack.
 * A refused key or an unreachable service rejects as the verbs' calls do.
 */
export type SecretSetLookup = (name: string) => Promise<SecretSetAnswer>;

/** Every call that talks to the service (create, read, update, delete); check and diff never do (check only through `secretSets`). */
export interface Call {
  /** Which host serves the call: messages name what that host's users write. */
  host: "dynamic" | "grpc";
  urn: string;
  /** Lines on the resource's own row. */
  log: ResourceLog;
  /** Aborted by Cancel or SIGINT: polls and requests in flight end, and the step answers with what it has. */
  signal: AbortSignal;
  /** The provider instance's client, made once from its settings, resolved once (src/core/provider-core.ts). */
  client: AgentHostingClient;
  /** The provider instance's readiness gate: every poll of every wait goes through it. */
  gate: PollGate;
  /** The engine's limit for this operation (`customTimeouts`, which only the native plugin receives). */
  timeoutMs?: number;
  /** The provider instance's secret-set lookups, shared with check (a name unknown at preview is checked before the request). */
  secretSets?: SecretSetLookup;
}

export interface CheckRequest {
  urn: string;
  olds: Props;
  /** The program's values; a preview's unknowns are the engine's unknown sentinel. */
  news: Props;
  secretInputs: readonly string[];
  /** The provider instance's secret-set lookups (absent: references are not checked). */
  secretSets?: SecretSetLookup;
  /** The provider instance's image digests (absent: no image is pinned). */
  imageDigests?: ImageDigestLookup;
}

export interface CheckResult {
  /** The inputs with defaults applied. */
  inputs: Props;
  failures: RuleFailure[];
}

export interface DiffRequest<O = Props> {
  urn: string;
  id: string;
  /** The previous outputs, decoded once at the host from the state (written by this version or an earlier one) without the marks. */
  olds: O;
  /** The checked inputs (a preview's unknowns are the engine's unknown sentinel), without the marks. */
  news: Props;
  oldMarks: Marks;
  newMarks: Marks;
  log: ResourceLog;
}

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  /** Changed inputs, in field order. */
  changed: string[];
  /** Outputs the update will not change. */
  stables: string[];
  /** Nothing needs to be sent to the service: only settings kept in the state changed. */
  localOnly: boolean;
  deleteBeforeReplace: boolean;
}

export interface CreateRequest<I> extends Call {
  inputs: I;
  marks: Marks;
}

export interface ReadRequest<O = Props> extends Call {
  id: string;
  /** The previous outputs, as in DiffRequest; absent when a resource is adopted by id (a `get` in the program, an import). */
  olds?: O;
  marks: Marks;
}

export interface UpdateRequest<I, O = Props> extends Call {
  id: string;
  /** The previous outputs, as in DiffRequest. */
  olds: O;
  oldMarks: Marks;
  inputs: I;
  marks: Marks;
}

export interface DeleteRequest<O = Props> extends Call {
  id: string;
  /** The outputs being deleted, decoded as in DiffRequest; absent when the host has none. */
  olds?: O;
}

/** What a create, read or update leaves in the state. */
export interface Stored<O = Props> {
  id: string;
  /**
   * The outputs, built from the resource's field tables. As the hosts see
   * them, they are the engine's properties, where a value that reflects a
   * secret input is the engine's secret (`asSecret`,
   * src/core/engine-sentinels.ts): the resource's encodeOutputs writes them so.
   */
  outputs: O;
  marks: Marks;
}

/** A read: the resource as the service holds it and its inputs rebuilt, or `undefined` when it is gone. */
export type ReadResult<O = Props> = (Stored<O> & { inputs: Props }) | undefined;

/** The verbs over typed requests: `I` the checked inputs, `O` the outputs (the previous ones decoded from the state). */
export interface ResourceVerbs<I, O = Props> {
  check(request: CheckRequest): CheckResult | Promise<CheckResult>;
  diff(request: DiffRequest<O>): Promise<DiffResult>;
  create(request: CreateRequest<I>): Promise<Stored<O>>;
  read(request: ReadRequest<O>): Promise<ReadResult<O>>;
  update(request: UpdateRequest<I, O>): Promise<Stored<O>>;
  delete(request: DeleteRequest<O>): Promise<void>;
}

/**
 * How a resource's outputs are kept in the state, both ways. A resource
 * without it keeps its outputs as plain properties.
 */
export interface OutputsCodec<O> {
  /** The previous outputs, from the state without the marks: typed once, before any verb sees them; tolerant of what earlier versions wrote. */
  decodeOutputs(props: Props): O;
  /** The outputs as the engine keeps them (those that reflect a secret input, the engine's secrets). */
  encodeOutputs(outputs: O, marks: Marks): Props;
}

/** A resource as its folder describes it, with typed inputs and outputs. */
export interface ResourceSpec<I, O = Props> {
  /** The resource's name in the package (`Agent`). */
  name: string;
  /** Its type token on the native plugin (`agent-hosting:index:Agent`). */
  nativeType: string;
  /** Its type on the dynamic provider, when it has one. */
  dynamicType?: string;
  fields: readonly FieldSpec[];
  outputs: readonly OutputFieldSpec[];
  /** Its part of the package schema: the resource's spec; object types it names go into `types`. */
  schema(types: Json): Json;
  /** Its example programs (under schema-docs/examples/), which its schema description carries. */
  examples?: readonly SchemaExample[];
  /** The checked inputs in their typed form. */
  decodeInputs(props: Props): I;
  /** A preview of a create: the outputs the engine shows before the resource exists. */
  previewCreate?(inputs: Props): Props;
  verbs: ResourceVerbs<I, O>;
}

/**
 * A resource as the hosts see it: requests carry inputs and previous
 * outputs as the engine sent them (checked; without the marks), and what
 * its verbs store are the engine's properties.
 */
export type ResourceEntry = Omit<ResourceSpec<Props>, "decodeInputs">;

const PLAIN_OUTPUTS: OutputsCodec<Props> = { decodeOutputs: (props) => props, encodeOutputs: (outputs) => outputs };

/**
 * Erases a resource's types: the entry decodes the inputs and the previous
 * outputs once, as the host hands them over, before its verbs see them, and
 * encodes what they store.
 */
export function defineResource<I>(spec: ResourceSpec<I>): ResourceEntry;
export function defineResource<I, O>(spec: ResourceSpec<I, O> & OutputsCodec<O>): ResourceEntry;
export function defineResource<I, O>(spec: ResourceSpec<I> | (ResourceSpec<I, O> & OutputsCodec<O>)): ResourceEntry {
  if (!("decodeOutputs" in spec)) return typedEntry(spec, PLAIN_OUTPUTS);
  const { decodeOutputs, encodeOutputs, ...rest } = spec;
  return typedEntry(rest, { decodeOutputs, encodeOutputs });
}

function typedEntry<I, O>(spec: ResourceSpec<I, O>, codec: OutputsCodec<O>): ResourceEntry {
  const { decodeInputs, verbs, ...rest } = spec;
  const { decodeOutputs, encodeOutputs } = codec;
  const stored = ({ id, outputs, marks }: Stored<O>): Stored => ({ id, outputs: encodeOutputs(outputs, marks), marks });
  return {
    ...rest,
    verbs: {
      check: (request) => verbs.check(request),
      diff: (request) => verbs.diff({ ...request, olds: decodeOutputs(request.olds) }),
      create: async (request) => stored(await verbs.create({ ...request, inputs: decodeInputs(request.inputs) })),
      read: async ({ olds, ...request }) => {
        const read = await verbs.read(olds === undefined ? request : { ...request, olds: decodeOutputs(olds) });
        return read && { ...stored(read), inputs: read.inputs };
      },
      update: async (request) => stored(await verbs.update({ ...request, olds: decodeOutputs(request.olds), inputs: decodeInputs(request.inputs) })),
      delete: ({ olds, ...request }) => verbs.delete(olds === undefined ? request : { ...request, olds: decodeOutputs(olds) }),
    },
  };
}

/** An argument or result member of a function, documented for the schema and the README. */
export type FunctionField = DocumentedField;

/** A function's answer: a result, or failures naming the arguments (nothing was requested). */
export interface InvokeOutcome {
  result?: Props;
  failures: RuleFailure[];
}

export interface FunctionEntry {
  /** Its name in the package (`getSecretSet`). */
  name: string;
  /** Its token on the native plugin (`agent-hosting:index:getSecretSet`). */
  token: string;
  description: string;
  args: readonly FunctionField[];
  /** The request type of src/client/request-types.ts its arguments are, when they are one (written from `args` by scripts/gen-model.mjs). */
  argsType?: string;
  result: readonly FunctionField[];
  /** Its example programs (under schema-docs/examples/), which its schema description carries. */
  examples?: readonly SchemaExample[];
  handler(args: Props, client: AgentHostingClient, context?: FunctionContext): Promise<InvokeOutcome>;
  /**
   * Set for a function that asks image registries only (getImageDigest): the
   * native plugin answers it with this, from its image digests, without the
   * service's settings or client.
   */
  registryHandler?(args: Props, context: FunctionContext): Promise<InvokeOutcome>;
}

/** What a function asks besides the service: the provider's image digests, one registry request per reference for its life. */
export interface FunctionContext {
  imageDigests: Pick<ImageDigestLookup, "resolve">;
  signal?: AbortSignal;
}

/** Everything the package serves: the hosts, the schema and the generators iterate it. */
export interface Registry {
  resources: readonly ResourceEntry[];
  functions: readonly FunctionEntry[];
}
