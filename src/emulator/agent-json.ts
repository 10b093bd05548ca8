/**
 * The agent as the emulator answers it, shaped by the rollout and the
 * reading's switches: ready flags (together, or apart by some polls),
 * `deployment: null` in the create answer, fields added or left out.
 *
 * Rolling, the answer describes the desired (latest) deployment where the
 * document lets it: `deployment`, `autoScaling` and `ready` (the latest
 * deployment passed validation) are the desired one's; `activeDeploymentId`,
 * `activeDeploymentReady` and `available` the serving one's. Immediate, the two
 * are the same deployment, and `desiredDeploymentId` and `available` are not sent.
 */
import type { ReadingSwitches } from "./reading";
import { activeSessionCount } from "./sessions";
import { DEFAULT_NAMESPACE, EMULATOR_API_VERSION, isReadyAt } from "./store";
import type { DeploymentSpec, Store, StoredAgent, StoredDeployment } from "./store";
import type { AgentJson, DeploymentJson, ManifestJson } from "./wire";

/** Which answer the agent is rendered for: only GETs count as polls. */
export type Answer = "create" | "update" | "get";

interface ReadyFlags {
  ready: boolean;
  activeDeploymentReady: boolean;
}

/** The flags of one deployment that is both the latest and the active one. */
function flagsOf(d: StoredDeployment, switches: ReadingSwitches, answer: Answer, now: number): ReadyFlags {
  const due = isReadyAt(d, now);
  const apart = switches.readyFlagsApart;
  if (!due || apart === null) return { ready: due, activeDeploymentReady: due };
  if (answer === "get") d.readyPolls = (d.readyPolls ?? 0) + 1;
  const second = (d.readyPolls ?? 0) > apart.polls;
  return apart.first === "ready" ? { ready: true, activeDeploymentReady: second } : { ready: second, activeDeploymentReady: true };
}

/**
 * `ready`: the latest deployment passed validation; `activeDeploymentReady`:
 * the serving one is ready. While a desired deployment waits, it has not
 * validated (it would be active otherwise), so `ready` is false, and the
 * serving one's flag is its own (polls count on the serving one).
 */
function readyFlags(active: StoredDeployment, desired: StoredDeployment, switches: ReadingSwitches, answer: Answer, now: number): ReadyFlags {
  const flags = flagsOf(active, switches, answer, now);
  return desired === active ? flags : { ready: false, activeDeploymentReady: flags.activeDeploymentReady };
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
  const active = store.active(agent);
  const desired = store.desired(agent);
  const flags = readyFlags(active, desired, switches, answer, now);
  const full = !switches.omitOptionalFields;
  const rolling = store.rollout === "rolling";
  const withDeployment = !(answer === "create" && switches.deploymentNullOnCreate);
  // desiredDeploymentId and available are sent even under omitOptionalFields: that switch leaves out
  // fields the document lists but does not promise, and these two are no field of the document but
  // what the rolling reading consists of (which deployment the update made, whether the agent
  // serves meanwhile). Without them a rolling answer would be one no service gives: the update
  // names the old deployment active and nothing says the new one is pending. The rollout alone
  // decides them (immediate: absent), so each switch stays one reading of its own.
  return {
    name: agent.name,
    ready: flags.ready,
    createdAt: agent.createdAt,
    ...(full && { updatedAt: agent.updatedAt }),
    activeDeploymentId: active.id,
    ...(rolling && { desiredDeploymentId: desired.id }),
    activeDeploymentReady: flags.activeDeploymentReady,
    // Whether the agent serves sessions: the serving deployment's ready time has passed (readyFlagsApart
    // delays the documented flags only, so a rolling switch never shows a gap).
    ...(rolling && { available: isReadyAt(active, now) }),
    autoScaling: { minReplicas: desired.spec.minReplicas, maxReplicas: desired.spec.maxReplicas },
    ...(full && { activeSessionCount: activeSessionCount(agent.sessions, now) }),
    ...(switches.extraFields && { region: "emulator-local-1", plan: { tier: "standard", maxSessions: 100 } }),
    deployment: withDeployment ? deploymentOf(agent, desired, switches, desired === active && flags.activeDeploymentReady) : null,
  };
}
