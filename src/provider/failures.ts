/**
 * Errors the provider raises. A resource that exists at the service but did
 * not become ready is a partial create/update: the error carries `id` and
 * `properties`, which the dynamic provider host turns into the engine's
 * "initialization failed" answer, so the agent stays in state.
 */
import type { AgentHostingClient } from "../client/client";
import type { Agent } from "../client/schemas";
import { PROVIDER_KEY } from "./types";

export class AgentNotReadyError extends Error {
  override readonly name = "AgentNotReadyError";
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];

  constructor(message: string, id: string, properties: Record<string, unknown>, reasons: string[]) {
    super(message);
    this.id = id;
    this.properties = properties;
    this.reasons = reasons;
  }
}

/** The newest log lines of the agent's deployment, newest last, or a note why there are none. */
export async function newestLogLines(client: AgentHostingClient, agent: Agent, count = 10): Promise<string[]> {
  try {
    const result = await client.getAgentLogs({
      agentName: agent.name,
      deploymentId: agent.activeDeploymentId,
      limit: count,
      order: "desc",
    });
    return result.logs.map((e) => `${e.timestamp} ${e.log}`).reverse();
  } catch (error) {
    return [`(could not read the logs: ${error instanceof Error ? error.message : String(error)})`];
  }
}

export async function notReadyError(
  client: AgentHostingClient,
  agent: Agent,
  waitedMs: number,
  verb: "create" | "update",
  outputs: Record<string, unknown>,
  providerValue: unknown,
): Promise<AgentNotReadyError> {
  const lines = await newestLogLines(client, agent);
  const state = `ready=${agent.ready}, activeDeploymentReady=${agent.activeDeploymentReady}, activeDeploymentId=${agent.activeDeploymentId}`;
  const reason = `agent "${agent.name}" did not become ready within ${Math.round(waitedMs / 1000)} s after ${verb} (last seen: ${state})`;
  const message = [
    reason,
    "newest log lines:",
    ...lines.map((l) => `  ${l}`),
    `The agent exists and is kept in the stack's state; the next \`pulumi up\` waits for it again. Raise readyTimeoutSeconds or fix the image.`,
  ].join("\n");
  return new AgentNotReadyError(message, agent.name, { ...outputs, [PROVIDER_KEY]: providerValue }, [message]);
}
