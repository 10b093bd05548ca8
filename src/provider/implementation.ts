/**
 * The dynamic provider's implementation (design section 4). The serialized
 * shim (shim.ts) loads this module from the package at call time, so none of
 * this code, no client and no key is captured into the state.
 */
import { ConflictError, NotFoundError } from "../client/errors";
import { createMatches } from "../client/create-match";
import type { Agent as ServiceAgent, CreateAgentBody } from "../client/schemas";
import type { ConfigSource } from "../config";
import { checkAgentInputs, type CheckOutcome } from "./check";
import type * as Connection from "./connection";
import { diffAgent, type DiffOutcome } from "./diff";
import type * as Failures from "./failures";
import { asInputs, inputsFromAgent, toCreateBody, toOutputs, toUpdateBody } from "./outputs";
import { PROVIDER_KEY, type AgentOutputs } from "./types";
import type * as Wait from "./wait";

type Props = Record<string, unknown>;

/*
 * check and diff (all a preview needs) load only the rules; the HTTP client,
 * undici and the readiness wait are loaded by the first call that talks to
 * the service, which keeps a no-op preview as cheap as a trivial provider's.
 */
const connection = (): Promise<typeof Connection> => import("./connection");
const failures = (): Promise<typeof Failures> => import("./failures");
const wait = (): Promise<typeof Wait> => import("./wait");
let pendingConfig: ConfigSource | undefined;
async function providerClient() {
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

export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  return diffAgent(olds, news);
}

export async function create(props: Props): Promise<{ id: string; outs: AgentOutputs }> {
  const inputs = asInputs(props);
  const client = await providerClient();
  const created = await createOrAdoptSame(client, toCreateBody(inputs));
  if (!inputs.waitForReady) return { id: created.name, outs: toOutputs(inputs, created) };
  const waited = await (await wait()).waitForAgentReady(client, created, { timeoutSeconds: inputs.readyTimeoutSeconds });
  const outs = toOutputs(inputs, waited.agent);
  if (!waited.ready) {
    throw await (await failures()).notReadyError(client, waited.agent, waited.waitedMs, "create", { ...outs }, props[PROVIDER_KEY]);
  }
  return { id: created.name, outs };
}

/**
 * POST /agents; on 409, an agent of that name with exactly the requested spec
 * is taken as this resource (an earlier create whose answer never reached the
 * state, e.g. an interrupted `pulumi up`), so a re-run converges instead of
 * failing or creating twice. A different spec stays a ConflictError.
 */
async function createOrAdoptSame(client: Awaited<ReturnType<typeof providerClient>>, body: CreateAgentBody): Promise<ServiceAgent> {
  try {
    return await client.createAgent(body);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const existing = await client.getAgent(body.serviceName);
    if (!createMatches(existing, body)) {
      throw new ConflictError({
        status: error.status,
        code: error.code,
        message: `agent "${body.serviceName}" already exists with a different spec; choose another serviceName, or read it with Agent.get`,
        method: error.method,
        path: error.path,
      });
    }
    (await connection()).reportNote(
      `agent-hosting: agent "${body.serviceName}" already existed with the requested spec (an interrupted earlier create?); taking it over`,
    );
    return existing;
  }
}

export async function read(
  id: string,
  props: Props | undefined,
): Promise<{ id: string; props: Props; inputs?: Props }> {
  const client = await providerClient();
  const adopting = props?.["serviceName"] === undefined;
  try {
    const agent = await client.getAgent(id);
    const previous = adopting ? {} : asInputs(props ?? {});
    const inputs = inputsFromAgent(agent, previous);
    return { id: agent.name, props: { ...toOutputs(inputs, agent) }, inputs: { ...inputs } };
  } catch (error) {
    if (error instanceof NotFoundError) {
      if (adopting) {
        throw new Error(
          `Agent.get: agent "${id}" does not exist at the service (GET ${error.path} answered 404); check the name and the stack's agent-hosting:baseUrl`,
        );
      }
      return { id: "", props: {} }; // deleted outside Pulumi: gone from state
    }
    throw error;
  }
}

export async function update(id: string, olds: Props, news: Props): Promise<{ outs: AgentOutputs }> {
  const inputs = asInputs(news);
  const client = await providerClient();
  const before = diffAgent(olds, news).changed;
  const settingsOnly = before.every((f) => f === "waitForReady" || f === "readyTimeoutSeconds");
  const agent = settingsOnly && before.length > 0 ? await client.getAgent(id) : await client.updateAgent(id, toUpdateBody(inputs));
  if (!inputs.waitForReady) return { outs: toOutputs(inputs, agent) };
  const waited = await (await wait()).waitForAgentReady(client, agent, {
    timeoutSeconds: inputs.readyTimeoutSeconds,
    deploymentId: agent.activeDeploymentId,
  });
  const outs = toOutputs(inputs, waited.agent);
  if (!waited.ready) {
    throw await (await failures()).notReadyError(client, waited.agent, waited.waitedMs, "update", { ...outs }, news[PROVIDER_KEY]);
  }
  return { outs };
}

export async function remove(id: string): Promise<void> {
  try {
    await (await providerClient()).deleteAgent(id);
  } catch (error) {
    if (error instanceof NotFoundError) return; // already gone
    throw error;
  }
}
