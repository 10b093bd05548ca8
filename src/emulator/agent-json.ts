/**
 * The agent as the emulator answers it, shaped by the reading's switches:
 * ready flags (together, or apart by some polls), `deployment: null` in the
 * create answer, fields added or left out.
 */
import type { ReadingSwitches } from "./reading";
import { DEFAULT_NAMESPACE, EMULATOR_API_VERSION, type DeploymentSpec, type Store, type StoredAgent, type StoredDeployment } from "./store";
import type { AgentJson, DeploymentJson, ManifestJson } from "./wire";

/** Which answer the agent is rendered for: only GETs count as polls. */
export type Answer = "create" | "update" | "get";

function readyFlags(d: StoredDeployment, switches: ReadingSwitches, answer: Answer, now: number): { ready: boolean; activeDeploymentReady: boolean } {
  const due = d.readyAt !== null && d.readyAt <= now;
  const apart = switches.readyFlagsApart;
  if (!due || apart === null) return { ready: due, activeDeploymentReady: due };
  if (answer === "get") d.readyPolls = (d.readyPolls ?? 0) + 1;
  const second = (d.readyPolls ?? 0) > apart.polls;
  return apart.first === "ready" ? { ready: true, activeDeploymentReady: second } : { ready: second, activeDeploymentReady: true };
}

/**
 * The manifest `spec` members a deployment's request determines, where the
 * service's API reports them: the emulator's own rendering, so that a wrong
 * mapping in the provider's model does not pass on both sides.
 */
function requestedSpec(spec: DeploymentSpec): ManifestJson["spec"] {
  return {
    image: spec.image,
    platformNodeType: spec.nodeType,
    imagePullSecretNames: spec.imagePullSecretSet === undefined ? [] : [spec.imagePullSecretSet],
    envFromSecretNames: spec.secretSet === undefined ? [] : [spec.secretSet],
    autoScaling: { minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas },
    noiseModels: { enabled: spec.enableNoise },
  };
}

function manifestOf(agent: StoredAgent, d: StoredDeployment, switches: ReadingSwitches): ManifestJson {
  const full = !switches.omitOptionalFields;
  const extra = switches.extraFields;
  const metadata: ManifestJson["metadata"] = {
    name: agent.name,
    ...(full && { namespace: DEFAULT_NAMESPACE }),
    ...(extra && { labels: { "agents.emulator.local/agent": agent.name } }),
  };
  const spec: ManifestJson["spec"] = {
    ...requestedSpec(d.spec),
    ...(full && { clusterLocal: false }),
    ...(extra && { resources: { cpu: "500m", memory: "1Gi" } }),
  };
  return {
    apiVersion: EMULATOR_API_VERSION,
    kind: "Agent",
    metadata,
    spec,
    ...(extra && { status: { observedGeneration: agent.deployments.indexOf(d) + 1 } }),
  };
}

function deploymentOf(agent: StoredAgent, d: StoredDeployment, switches: ReadingSwitches, activeReady: boolean): DeploymentJson {
  const full = !switches.omitOptionalFields;
  return {
    id: d.id,
    ...(full && { serviceId: agent.serviceId, createdAt: d.createdAt, updatedAt: d.updatedAt }),
    manifest: manifestOf(agent, d, switches),
    ...(switches.extraFields && {
      revision: agent.deployments.indexOf(d) + 1,
      phase: d.readyAt === null ? "Failed" : activeReady ? "Running" : "Pending",
    }),
  };
}

/** The agent's JSON; a GET also counts as a poll of the ready flags. */
export function renderAgent(store: Store, agent: StoredAgent, switches: ReadingSwitches, answer: Answer, now = Date.now()): AgentJson {
  store.observe(agent, now);
  const d = store.active(agent);
  const flags = readyFlags(d, switches, answer, now);
  const full = !switches.omitOptionalFields;
  const withDeployment = !(answer === "create" && switches.deploymentNullOnCreate);
  return {
    name: agent.name,
    ready: flags.ready,
    createdAt: agent.createdAt,
    ...(full && { updatedAt: agent.updatedAt }),
    activeDeploymentId: d.id,
    activeDeploymentReady: flags.activeDeploymentReady,
    autoScaling: { minReplicas: d.spec.minReplicas, maxReplicas: d.spec.maxReplicas },
    ...(full && { activeSessionCount: 0 }),
    ...(switches.extraFields && { region: "emulator-local-1", plan: { tier: "standard", maxSessions: 100 } }),
    deployment: withDeployment ? deploymentOf(agent, d, switches, flags.activeDeploymentReady) : null,
  };
}
