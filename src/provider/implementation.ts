/**
 * The dynamic provider's implementation. The serialized shim (shim.ts) loads
 * this module from the installed package at call time, so none of this code,
 * no client and no key is captured into the state.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AgentHostingClient } from "../client/client";
import {
  AgentNotFoundError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  InputValidationError,
  NotFoundError,
  RateLimitError,
} from "../client/errors";
import {
  AGENT_FIELDS,
  createBody,
  reportedValues,
  updateBody,
  type AgentField,
  type AgentInputs,
  type ServiceAgent,
} from "../model";
import type { ConfigSource } from "../config";
import { checkAgentInputs, type CheckOutcome } from "./check";
import type * as Connection from "./connection";
import { diffAgent, type DiffOutcome } from "./diff";
import type * as Failures from "./failures";
import { asInputs, inputsFromAgent, marksOf, toOutputs, type OutputMarks } from "./outputs";
import { PROVIDER_KEY, URN_KEY } from "./types";
import type * as Wait from "./wait";

type Props = Record<string, unknown>;
type Verb = Failures.Verb;

/*
 * check and diff (all a preview needs) load only the model; the HTTP client,
 * undici and the readiness wait are loaded by the first call that talks to
 * the service, which keeps a no-op preview as cheap as a trivial provider's.
 */
const connection = (): Promise<typeof Connection> => import("./connection");
const failures = (): Promise<typeof Failures> => import("./failures");
const wait = (): Promise<typeof Wait> => import("./wait");
let pendingConfig: ConfigSource | undefined;
async function providerClient(): Promise<AgentHostingClient> {
  const c = await connection();
  c.setProviderConfig(pendingConfig);
  return c.providerClient();
}

export async function configure(config: ConfigSource | undefined): Promise<void> {
  pendingConfig = config;
}

export async function check(olds: Props, news: Props): Promise<CheckOutcome> {
  return checkAgentInputs(olds, news);
}

const urnOf = (props: Props) => (typeof props[URN_KEY] === "string" ? props[URN_KEY] : undefined);

export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  const outcome = diffAgent(olds, news);
  if (outcome.changes && outcome.localOnly && outcome.changed.length > 0) {
    await (await connection()).reportInfo(
      `agent "${String(news["serviceName"])}": only ${outcome.changed.join(", ")} changed, which the provider keeps in the state; nothing is sent to the service`,
      urnOf(news),
    );
  }
  return outcome;
}

/** Whether a failed request may still have been acted on by the service. */
function mayHaveActed(error: unknown): boolean {
  if (error instanceof ConnectionError) return !error.notSent;
  return !(
    error instanceof InputValidationError ||
    error instanceof ConfigurationError ||
    error instanceof BadRequestError ||
    error instanceof AuthenticationError ||
    error instanceof ConflictError ||
    error instanceof NotFoundError ||
    error instanceof RateLimitError
  );
}

export async function create(props: Props): Promise<{ id: string; outs: Props }> {
  const inputs = asInputs(props);
  const marks = marksOf(props);
  const client = await providerClient();
  let created: ServiceAgent;
  try {
    created = await createAgent(client, createBody(inputs as unknown as Props), inputs);
  } catch (error) {
    if (!mayHaveActed(error)) throw error;
    throw (await failures()).incompleteError("create", inputs, undefined, marks, props[PROVIDER_KEY], error);
  }
  const outs = await finish("create", client, inputs, created, marks, props, undefined);
  return { id: created.name, outs };
}

/** Waits for readiness when asked; any failure from here on keeps the agent in state. */
async function finish(
  verb: Verb,
  client: AgentHostingClient,
  inputs: AgentInputs,
  agent: ServiceAgent | undefined,
  marks: OutputMarks,
  props: Props,
  deploymentId: string | undefined,
): Promise<Props> {
  const done = { secretInputs: marks.secretInputs };
  if (!inputs.waitForReady && agent !== undefined) return toOutputs(inputs, agent, done);
  const f = await failures();
  const w = await wait();
  const urn = urnOf(props);
  const c = await connection();
  const onPoll = (await import("./progress")).progressReporter(client, inputs.serviceName, (line) => c.reportInfo(line, urn));
  // Polling stops when the wait ends in any way, an interruption included.
  const polling = new AbortController();
  const options: Wait.WaitOptions = { timeoutSeconds: inputs.readyTimeoutSeconds, onPoll, signal: polling.signal };
  if (deploymentId !== undefined) options.deploymentId = deploymentId;
  let result: Wait.WaitResult;
  const stop = (await import("./interrupt")).whenInterrupted();
  try {
    result = await Promise.race([w.waitForAgentReady(client, inputs.serviceName, agent, options), stop.interrupted]);
  } catch (error) {
    const failure = error instanceof w.WaitFailure ? error : new w.WaitFailure(error, agent);
    throw f.incompleteError(verb, inputs, failure.agent ?? agent, marks, props[PROVIDER_KEY], failure.error);
  } finally {
    stop.dispose();
    polling.abort();
  }
  if (!result.ready) {
    throw await f.notReadyError(client, verb, inputs, result.agent, result.waitedMs, result.lastError, marks, props[PROVIDER_KEY]);
  }
  return toOutputs(inputs, result.agent, done);
}

/**
 * POST /agents. A 409 means the name is taken, possibly by another stack: it
 * is never taken over. The client's read-back after an unanswered POST is the
 * only way a create of this call is recognized at the service.
 */
async function createAgent(client: AgentHostingClient, body: Props, inputs: AgentInputs): Promise<ServiceAgent> {
  try {
    return await client.createAgent(body as unknown as Parameters<AgentHostingClient["createAgent"]>[0]);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    throw error.withMessage(
      `agent "${inputs.serviceName}": the name is taken at the service (by another stack, or outside Pulumi), and this stack never takes it over; ` +
        `choose another serviceName, read the agent with Agent.get("${inputs.serviceName}"), ` +
        `or adopt it into this stack with the native provider's import (pulumi import agent-hosting:index:Agent <resource name> ${inputs.serviceName})`,
    );
  }
}

export async function read(id: string, props: Props | undefined): Promise<{ id: string; props: Props; inputs?: Props }> {
  const client = await providerClient();
  const adopting = props?.["serviceName"] === undefined;
  let agent: ServiceAgent;
  try {
    agent = await (await wait()).patientGetAgent(client, id);
  } catch (error) {
    if (error instanceof NotFoundError) {
      if (adopting) throw new AgentNotFoundError(id, error);
      return { id: "", props: {} }; // deleted outside Pulumi: gone from state
    }
    throw error;
  }
  const inputs = inputsFromAgent(agent, adopting ? {} : (props ?? {}));
  const marks = marksOf(props ?? {});
  return { id: agent.name, props: toOutputs(inputs, agent, marks), inputs: { ...inputs, name: agent.name } };
}

export async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const inputs = asInputs(news);
  const marks = marksOf(news);
  const pending = marksOf(olds).pending;
  const changes = diffAgent(olds, news);
  if (changes.localOnly && pending === undefined) {
    // Only settings kept in the state changed: nothing is sent.
    return { outs: toOutputs(inputs, agentFromOutputs(olds), marks) };
  }
  const client = await providerClient();
  if (changes.localOnly && pending !== undefined) return { outs: await resume(pending, client, inputs, marks, news) };
  const live = inputs.autoScaling === undefined ? await (await wait()).patientGetAgent(client, id) : undefined;
  const body = updateBody(inputs as unknown as Props, live);
  let agent: ServiceAgent;
  try {
    agent = await client.updateAgent(id, body as unknown as Parameters<AgentHostingClient["updateAgent"]>[1]);
  } catch (error) {
    if (!mayHaveActed(error)) throw error;
    throw (await failures()).incompleteError("update", inputs, live, marks, news[PROVIDER_KEY], error);
  }
  agent = await clearKeptFields(client, id, inputs, body, agent);
  if (changes.changed.includes("redeployTrigger") && agent.activeDeploymentId === olds["activeDeploymentId"]) {
    // A service may treat an unchanged spec as no change and keep the deployment; say so when it did.
    await (await connection()).reportNote(
      `agent-hosting: agent "${inputs.serviceName}": redeployTrigger changed, but the service kept deployment ${agent.activeDeploymentId}; it may treat an unchanged spec as no change (pin the image by digest instead)`,
    );
  }
  return { outs: await finish("update", client, inputs, agent, marks, news, agent.activeDeploymentId) };
}

/**
 * A create or update that was sent by an earlier `up` and did not finish: it
 * is not sent again; the agent is read and waited for. A create whose agent
 * never appeared is posted again.
 */
async function resume(pending: Verb, client: AgentHostingClient, inputs: AgentInputs, marks: OutputMarks, news: Props): Promise<Props> {
  let agent: ServiceAgent;
  try {
    agent = await (await wait()).patientGetAgent(client, inputs.serviceName);
  } catch (error) {
    if (!(error instanceof NotFoundError) || pending !== "create") throw error;
    agent = await createAgent(client, createBody(inputs as unknown as Props), inputs);
  }
  return finish(pending, client, inputs, agent, marks, news, undefined);
}

/**
 * A field the program no longer declares is left out of the update, which
 * clears it at a service that replaces the spec. A service that merges
 * updates keeps it instead; then the field is sent once more as null, which
 * such a service reads as "none". Whatever is still kept is reported.
 */
async function clearKeptFields(
  client: AgentHostingClient,
  id: string,
  inputs: AgentInputs,
  body: Props,
  agent: ServiceAgent,
): Promise<ServiceAgent> {
  const keptIn = (answer: ServiceAgent) => {
    const reported = reportedValues(answer);
    return (AGENT_FIELDS as readonly AgentField[]).filter(
      (f) => f.undeclared === "clear" && f.sentTo === "service" && body[f.name] === undefined && reported[f.name] !== undefined,
    );
  };
  const kept = keptIn(agent);
  if (kept.length === 0) return agent;
  const nulls = Object.fromEntries(kept.map((f) => [f.name, null]));
  let answer = agent;
  try {
    answer = await client.updateAgent(id, { ...body, ...nulls } as unknown as Parameters<AgentHostingClient["updateAgent"]>[1]);
  } catch {
    // Reported below, with what the service still holds.
  }
  const still = keptIn(answer);
  if (still.length > 0) {
    await (await connection()).reportNote(
      `agent-hosting: agent "${inputs.serviceName}": the service kept ${still.map((f) => f.name).join(", ")} although the program no longer declares it; the next preview shows it again`,
    );
  }
  return answer;
}

/** The service's agent as the last outputs recorded it. */
function agentFromOutputs(olds: Props): ServiceAgent {
  const manifest = olds["manifest"];
  const deployment = olds["deployment"];
  return {
    ...olds,
    name: String(olds["name"] ?? olds["serviceName"]),
    ready: olds["ready"] === true,
    activeDeploymentId: String(olds["activeDeploymentId"] ?? ""),
    activeDeploymentReady: olds["activeDeploymentReady"] === true,
    autoScaling: (olds["autoScaling"] ?? { minReplicas: 0, maxReplicas: 0 }) as ServiceAgent["autoScaling"],
    deployment:
      deployment && typeof deployment === "object" ? { ...(deployment as Props), ...(manifest ? { manifest: manifest as Props } : {}) } : null,
  } as ServiceAgent;
}

export async function remove(id: string): Promise<void> {
  try {
    await (await providerClient()).deleteAgent(id);
  } catch (error) {
    if (error instanceof NotFoundError) return; // already gone
    throw error;
  }
}

/**
 * The provider the serialized text (provider/shim.ts) hands to Pulumi's
 * dynamic-provider process. The functions above keep their names: the longer
 * text an earlier version stored in a state calls them one by one.
 */
export const provider = {
  configure: (req: { config: ConfigSource | undefined }): Promise<void> => configure(req.config),
  check,
  diff,
  create,
  read,
  update,
  delete: (id: string): Promise<void> => remove(id),
} satisfies pulumi.dynamic.ResourceProvider;
