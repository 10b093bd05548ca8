/**
 * The `agent-hosting:index:Agent` resource over gRPC: each handler turns the
 * engine's request into the plain objects the provider object takes, calls
 * it, and turns its answer back. No rule or service call lives here; all of
 * it is the provider object's, the same the dynamic provider uses.
 */
import {
  CheckFailure,
  CheckResponse,
  CreateResponse,
  ReadResponse,
  UpdateResponse,
  type CheckRequest,
  type CreateRequest,
  type DeleteRequest,
  type DiffRequest,
  type DiffResponse,
  type ReadRequest,
  type UpdateRequest,
} from "@pulumi/pulumi/proto/provider_pb";
import type { AgentProvider } from "../provider/agent-provider";
import { diffResponse } from "./detailed-diff";
import { UNKNOWN_VALUE } from "../engine-sentinels";
import { SECRET_INPUTS_KEY, URN_KEY } from "../provider/types";
import { NATIVE_AGENT_TYPE } from "../model";
import { fromStruct, toStruct, type Props } from "./values";

/**
 * What the implementation reads beside the inputs (as the dynamic Agent
 * passes them): the names of the inputs that are secret, so the outputs that
 * reflect them stay secret, and the URN, for status lines on the resource's row.
 */
function withMarks(props: Props, secrets: ReadonlySet<string>, urn: string): Props {
  return { ...props, [SECRET_INPUTS_KEY]: [...secrets].filter((name) => !name.startsWith("__")), [URN_KEY]: urn };
}

function requireAgentType(type: string, urn: string): void {
  const actual = type || urn.split("::")[2] || "";
  if (actual !== NATIVE_AGENT_TYPE) throw new Error(`unknown resource type "${actual}"; this provider manages ${NATIVE_AGENT_TYPE}`);
}

/** Failures naming a property and its rule, as Check, CheckConfig and Invoke answer them. */
export function checkFailures(failures: readonly { property: string; reason: string }[]): CheckFailure[] {
  return failures.map((f) => {
    const failure = new CheckFailure();
    failure.setProperty(f.property);
    failure.setReason(f.reason);
    return failure;
  });
}

export async function check(provider: AgentProvider, request: CheckRequest): Promise<CheckResponse> {
  requireAgentType(request.getType(), request.getUrn());
  const olds = fromStruct(request.getOlds());
  const news = fromStruct(request.getNews());
  const outcome = await provider.log.forResource(request.getUrn(), () => provider.check(olds.props, news.props));
  const response = new CheckResponse();
  response.setInputs(toStruct(outcome.inputs, news.secrets));
  response.setFailuresList(checkFailures(outcome.failures));
  return response;
}

export async function diff(provider: AgentProvider, request: DiffRequest): Promise<DiffResponse> {
  const olds = fromStruct(request.getOlds()).props;
  const news = fromStruct(request.getNews()).props;
  const outcome = await provider.log.forResource(request.getUrn(), () => provider.diff(request.getId(), olds, news));
  return diffResponse(outcome, olds, news);
}

type Decoded = ReturnType<typeof fromStruct>;

/**
 * A create or an update: `onSecrets` learns the inputs' secrets first, so a
 * partial create's error keeps them secret in its outputs. A preview answers
 * with the inputs as they are; otherwise `act` gets the inputs marked for the
 * implementation, and its outputs are returned with the inputs' secrets.
 */
interface Apply {
  provider: AgentProvider;
  request: { getPreview(): boolean; getUrn(): string };
  inputs: Decoded;
  onSecrets: (s: ReadonlySet<string>) => void;
}

async function apply(
  { provider, request, inputs, onSecrets }: Apply,
  act: (marked: Props) => Promise<{ id?: string; outs: Props }>,
): Promise<{ id?: string; properties: ReturnType<typeof toStruct> }> {
  onSecrets(inputs.secrets);
  if (request.getPreview()) return { properties: toStruct(inputs.props, inputs.secrets) };
  const urn = request.getUrn();
  const done = await provider.log.forResource(urn, () => act(withMarks(inputs.props, inputs.secrets, urn)), true);
  return { ...(done.id === undefined ? {} : { id: done.id }), properties: toStruct({ ...done.outs }, inputs.secrets) };
}

export async function create(
  provider: AgentProvider,
  request: CreateRequest,
  onSecrets: (s: ReadonlySet<string>) => void,
): Promise<CreateResponse> {
  const inputs = fromStruct(request.getProperties());
  // Previewing a create, the agent does not exist yet: its name is unknown like its ID, so a function
  // that reads it (Pulumi YAML's fn::invoke with ${bot.name}) waits for the update, as output invokes do.
  if (request.getPreview()) inputs.props = { ...inputs.props, name: UNKNOWN_VALUE };
  const result = await apply({ provider, request, inputs, onSecrets }, (marked) => provider.create(marked));
  const response = new CreateResponse();
  if (result.id !== undefined) response.setId(result.id);
  response.setProperties(result.properties);
  return response;
}

export async function read(provider: AgentProvider, request: ReadRequest): Promise<ReadResponse> {
  const state = fromStruct(request.getProperties());
  const inputs = fromStruct(request.getInputs());
  const secrets = new Set([...state.secrets, ...inputs.secrets]);
  // An import (`pulumi import` or the `import:` option) sends only the id.
  const importing = Object.keys(state.props).length === 0;
  const result = await provider.log.forResource(request.getUrn(), () =>
    provider.read(request.getId(), importing ? undefined : state.props),
  );
  const response = new ReadResponse();
  response.setId(result.id);
  if (result.id === "") return response; // gone at the service: the engine drops it from the state
  response.setProperties(toStruct(result.props, secrets));
  if (result.inputs) response.setInputs(toStruct(result.inputs, secrets));
  return response;
}

export async function update(
  provider: AgentProvider,
  request: UpdateRequest,
  onSecrets: (s: ReadonlySet<string>) => void,
): Promise<UpdateResponse> {
  const olds = fromStruct(request.getOlds());
  const inputs = fromStruct(request.getNews());
  const result = await apply({ provider, request, inputs, onSecrets }, (marked) => provider.update(request.getId(), olds.props, marked));
  const response = new UpdateResponse();
  response.setProperties(result.properties);
  return response;
}

export async function remove(provider: AgentProvider, request: DeleteRequest): Promise<void> {
  await provider.log.forResource(request.getUrn(), () => provider.delete(request.getId()));
}
