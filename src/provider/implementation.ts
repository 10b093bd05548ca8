/**
 * The dynamic provider's implementation (design section 4). The serialized
 * shim (shim.ts) loads this module from the package at call time, so none of
 * this code, no client and no key is captured into the state.
 */
import { NotFoundError } from "../client/errors";
import type { ConfigSource } from "../config";
import { checkAgentInputs, type CheckOutcome } from "./check";
import { setProviderConfig, providerClient } from "./connection";
import { diffAgent, type DiffOutcome } from "./diff";
import { notReadyError } from "./failures";
import { asInputs, inputsFromAgent, toCreateBody, toOutputs, toUpdateBody } from "./outputs";
import { PROVIDER_KEY, type AgentOutputs } from "./types";
import { waitForAgentReady } from "./wait";

type Props = Record<string, unknown>;

export async function configure(config: ConfigSource | undefined): Promise<void> {
  setProviderConfig(config);
}

export async function check(olds: Props, news: Props): Promise<CheckOutcome> {
  return checkAgentInputs(olds, news);
}

export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  return diffAgent(olds, news);
}

export async function create(props: Props): Promise<{ id: string; outs: AgentOutputs }> {
  const inputs = asInputs(props);
  const client = providerClient();
  const created = await client.createAgent(toCreateBody(inputs));
  if (!inputs.waitForReady) return { id: created.name, outs: toOutputs(inputs, created) };
  const waited = await waitForAgentReady(client, created, { timeoutSeconds: inputs.readyTimeoutSeconds });
  const outs = toOutputs(inputs, waited.agent);
  if (!waited.ready) {
    throw await notReadyError(client, waited.agent, waited.waitedMs, "create", { ...outs }, props[PROVIDER_KEY]);
  }
  return { id: created.name, outs };
}

export async function read(
  id: string,
  props: Props | undefined,
): Promise<{ id: string; props: Props; inputs?: Props }> {
  const client = providerClient();
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
  const client = providerClient();
  const before = diffAgent(olds, news).changed;
  const settingsOnly = before.every((f) => f === "waitForReady" || f === "readyTimeoutSeconds");
  const agent = settingsOnly && before.length > 0 ? await client.getAgent(id) : await client.updateAgent(id, toUpdateBody(inputs));
  if (!inputs.waitForReady) return { outs: toOutputs(inputs, agent) };
  const waited = await waitForAgentReady(client, agent, {
    timeoutSeconds: inputs.readyTimeoutSeconds,
    deploymentId: agent.activeDeploymentId,
  });
  const outs = toOutputs(inputs, waited.agent);
  if (!waited.ready) {
    throw await notReadyError(client, waited.agent, waited.waitedMs, "update", { ...outs }, news[PROVIDER_KEY]);
  }
  return { outs };
}

export async function remove(id: string): Promise<void> {
  try {
    await providerClient().deleteAgent(id);
  } catch (error) {
    if (error instanceof NotFoundError) return; // already gone
    throw error;
  }
}
