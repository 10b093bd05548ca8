/** Whether an agent read back after an unanswered create is the one that create asked for. */
import type { Agent, CreateAgentBody } from "./schemas";

export function createMatches(agent: Agent, body: CreateAgentBody): boolean {
  const spec = agent.deployment?.manifest.spec;
  if (!spec) return false;
  if (spec.image !== body.image) return false;
  if (spec.platformNodeType !== (body.nodeType ?? "arm")) return false;
  if (spec.noiseModels.enabled !== (body.enableNoise ?? false)) return false;
  const sets = body.secretSet === undefined ? [] : [body.secretSet];
  if (JSON.stringify(spec.envFromSecretNames) !== JSON.stringify(sets)) return false;
  if (body.autoScaling) {
    const { minReplicas, maxReplicas } = agent.autoScaling;
    if (minReplicas !== body.autoScaling.minAgents || maxReplicas !== body.autoScaling.maxAgents) return false;
  }
  return true;
}
