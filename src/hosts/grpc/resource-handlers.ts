/**
 * The registry's resources over gRPC: each handler finds the resource by
 * its type, turns the engine's request into the verb's typed request, calls
 * it, and turns its answer back. No rule or service call lives here.
 */
import { CheckFailure, CheckResponse, CreateResponse, ReadResponse, UpdateResponse } from "@pulumi/pulumi/proto/provider_pb";
import type { CheckRequest, CreateRequest, DeleteRequest, DiffRequest, DiffResponse, ReadRequest, UpdateRequest } from "@pulumi/pulumi/proto/provider_pb";
import type { ProviderCore } from "../../core/provider-core";
import type { Call, Marks, ResourceEntry } from "../../core/resource-entry";
import { isReservedKey, marksOf, withMarks, withoutReserved, withRecordedImageDigest } from "../../core/state-marks";
import { diffResponse } from "./detailed-diff";
import { RpcFailure, rpcError } from "./rpc-errors";
import { fromStruct, toStruct } from "./struct-values";
import type { Unwrapped } from "./struct-values";

/** The resource a request is about: its type, or the type in its URN. */
function resourceOf(core: ProviderCore, request: { getUrn(): string; getType?(): string }): ResourceEntry {
  return core.resource(request.getType?.() || request.getUrn().split("::")[2] || "");
}

/** The names of the inputs that are secret, so the outputs that reflect them stay secret. */
const secretInputsOf = (inputs: Unwrapped): string[] => [...inputs.secrets].filter((name) => !isReservedKey(name));

/** The engine's limit for the operation (`customTimeouts`), in ms; 0 means none. */
const timeoutOf = (seconds: number): { timeoutMs?: number } => (seconds > 0 ? { timeoutMs: seconds * 1000 } : {});

/** Failures naming a property and its rule, as Check, CheckConfig and Invoke answer them. */
export function checkFailures(failures: readonly { property: string; reason: string }[]): CheckFailure[] {
  return failures.map((f) => {
    const failure = new CheckFailure();
    failure.setProperty(f.property);
    failure.setReason(f.reason);
    return failure;
  });
}

export async function check(core: ProviderCore, request: CheckRequest): Promise<CheckResponse> {
  const resource = resourceOf(core, request);
  const news = fromStruct(request.getNews());
  const olds = fromStruct(request.getOlds()).props;
  const { secretSets, imageDigests } = core;
  const outcome = await resource.verbs.check({
    urn: request.getUrn(),
    olds,
    news: news.props,
    secretInputs: secretInputsOf(news),
    secretSets,
    ...(imageDigests ? { imageDigests } : {}),
  });
  const response = new CheckResponse();
  // A digest derives from its image: secret with it.
  const secrets = news.secrets.has("image") ? new Set([...news.secrets, "imageDigest"]) : news.secrets;
  response.setInputs(toStruct(withRecordedImageDigest(outcome.inputs, olds), secrets));
  response.setFailuresList(checkFailures(outcome.failures));
  return response;
}

export async function diff(core: ProviderCore, request: DiffRequest): Promise<DiffResponse> {
  const resource = resourceOf(core, request);
  const olds = fromStruct(request.getOlds()).props;
  const news = fromStruct(request.getNews());
  const urn = request.getUrn();
  const { recordedImageDigest } = marksOf(news.props);
  const newMarks: Marks = { secretInputs: secretInputsOf(news), ...(recordedImageDigest === undefined ? {} : { recordedImageDigest }) };
  const outcome = await resource.verbs.diff({ urn, id: request.getId(), olds: withoutReserved(olds), news: withoutReserved(news.props), oldMarks: marksOf(olds), newMarks, log: core.rowLog(urn) });
  // The kind of a moved tag's entry: an update of the digest the state recorded, in its outputs or, after a step without changes, its inputs.
  const recorded = olds["imageDigest"] === undefined && recordedImageDigest !== undefined ? { ...olds, imageDigest: recordedImageDigest } : olds;
  return diffResponse(outcome, recorded, news.props);
}

/** Runs a create or update; a failure keeps the inputs' secrets secret in the partial outputs it carries. */
async function changing<T>(core: ProviderCore, request: CreateRequest | UpdateRequest, secrets: ReadonlySet<string>, run: (call: Call) => Promise<T>): Promise<T> {
  try {
    return await core.talking(request.getUrn(), { waiting: true, ...timeoutOf(request.getTimeout()) }, run);
  } catch (error) {
    throw new RpcFailure(rpcError(error, secrets));
  }
}

export async function create(core: ProviderCore, request: CreateRequest): Promise<CreateResponse> {
  const resource = resourceOf(core, request);
  const inputs = fromStruct(request.getProperties());
  const response = new CreateResponse();
  if (request.getPreview()) {
    response.setProperties(toStruct(resource.previewCreate?.(inputs.props) ?? inputs.props, inputs.secrets));
    return response;
  }
  const marks: Marks = { secretInputs: secretInputsOf(inputs) };
  const stored = await changing(core, request, inputs.secrets, (call) => resource.verbs.create({ ...call, inputs: withoutReserved(inputs.props), marks }));
  response.setId(stored.id);
  response.setProperties(toStruct(withMarks(stored.outputs, stored.marks), inputs.secrets));
  return response;
}

export async function read(core: ProviderCore, request: ReadRequest): Promise<ReadResponse> {
  const resource = resourceOf(core, request);
  const state = fromStruct(request.getProperties());
  const inputs = fromStruct(request.getInputs());
  const secrets = new Set([...state.secrets, ...inputs.secrets]);
  // An import (`pulumi import` or the `import:` option) sends only the id.
  const importing = Object.keys(state.props).length === 0;
  const olds = importing ? {} : { olds: withoutReserved(state.props) };
  const result = await core.talking(request.getUrn(), {}, (call) => resource.verbs.read({ ...call, id: request.getId(), ...olds, marks: marksOf(state.props) }));
  const response = new ReadResponse();
  if (result === undefined) return response.setId(""); // gone at the service: the engine drops it from the state
  response.setId(result.id);
  response.setProperties(toStruct(withMarks(result.outputs, result.marks), secrets));
  response.setInputs(toStruct(result.inputs, secrets));
  return response;
}

export async function update(core: ProviderCore, request: UpdateRequest): Promise<UpdateResponse> {
  const resource = resourceOf(core, request);
  const olds = fromStruct(request.getOlds()).props;
  const inputs = fromStruct(request.getNews());
  const response = new UpdateResponse();
  if (request.getPreview()) return response.setProperties(toStruct(inputs.props, inputs.secrets));
  // The digest the previous inputs recorded goes with them: the update's diff decides what it sends.
  const { recordedImageDigest } = marksOf(inputs.props);
  const marks: Marks = { secretInputs: secretInputsOf(inputs), ...(recordedImageDigest === undefined ? {} : { recordedImageDigest }) };
  const stored = await changing(core, request, inputs.secrets, (call) =>
    resource.verbs.update({ ...call, id: request.getId(), olds: withoutReserved(olds), oldMarks: marksOf(olds), inputs: withoutReserved(inputs.props), marks }),
  );
  return response.setProperties(toStruct(withMarks(stored.outputs, stored.marks), inputs.secrets));
}

export async function remove(core: ProviderCore, request: DeleteRequest): Promise<void> {
  const resource = resourceOf(core, request);
  const olds = withoutReserved(fromStruct(request.getProperties()).props);
  await core.talking(request.getUrn(), { waiting: true, ...timeoutOf(request.getTimeout()) }, (call) =>
    resource.verbs.delete({ ...call, id: request.getId(), ...(Object.keys(olds).length === 0 ? {} : { olds }) }),
  );
}
