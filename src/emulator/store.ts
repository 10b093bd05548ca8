/**
 * The emulator's data: agents with their deployments, secret sets, logs.
 * Readiness is computed from each deployment's `readyAt`, so it is exact
 * without timers; the "ready" log line is written when first observed.
 *
 * Choices where the service document is silent: autoScaling omitted → 1..1
 * replicas; namespace "emulator-default"; apiVersion "agents.emulator.local/v1";
 * an image whose tag is `fail` never becomes ready.
 */
import { randomBytes } from "node:crypto";
import type { ServiceAgent as Agent } from "../model";

/** POST /agents as the emulator reads it. */
export type CreateAgentBody = {
  serviceName: string;
  image: string;
  nodeType?: string;
  imagePullSecretSet?: string;
  secretSet?: string;
  autoScaling?: { minAgents: number; maxAgents: number };
  enableNoise?: boolean;
};
/** POST /agents/{name}: the create body without serviceName. */
export type UpdateAgentBody = Omit<CreateAgentBody, "serviceName">;
import { LogStore } from "./log-store";
import { isoNs, msToNs, nowNs } from "./time";

export interface DeploymentSpec {
  image: string;
  nodeType: string;
  secretSet?: string;
  imagePullSecretSet?: string;
  enableNoise: boolean;
  minReplicas: number;
  maxReplicas: number;
}

export interface StoredDeployment {
  id: string;
  spec: DeploymentSpec;
  createdAt: string;
  updatedAt: string;
  createdMs: number;
  /** Epoch ms at which it is ready; null for an image that never becomes ready. */
  readyAt: number | null;
  readyLogged: boolean;
}

export interface StoredAgent {
  name: string;
  serviceId: string;
  createdAt: string;
  updatedAt: string;
  activeDeploymentId: string;
  deployments: StoredDeployment[];
}

export const DEFAULT_SCALING = { minReplicas: 1, maxReplicas: 1 };
export const API_VERSION = "agents.emulator.local/v1";
export const NAMESPACE = "emulator-default";

const id = (prefix: string) => `${prefix}-${randomBytes(6).toString("hex")}`;

export function neverReady(image: string): boolean {
  const lastSegment = image.slice(image.lastIndexOf("/") + 1);
  return lastSegment.endsWith(":fail");
}

function specOf(body: UpdateAgentBody): DeploymentSpec {
  const spec: DeploymentSpec = {
    image: body.image,
    nodeType: body.nodeType ?? "arm",
    enableNoise: body.enableNoise ?? false,
    minReplicas: body.autoScaling?.minAgents ?? DEFAULT_SCALING.minReplicas,
    maxReplicas: body.autoScaling?.maxAgents ?? DEFAULT_SCALING.maxReplicas,
  };
  if (body.secretSet !== undefined) spec.secretSet = body.secretSet;
  if (body.imagePullSecretSet !== undefined) spec.imagePullSecretSet = body.imagePullSecretSet;
  return spec;
}

function sameExceptScaling(a: DeploymentSpec, b: DeploymentSpec): boolean {
  return (
    a.image === b.image &&
    a.nodeType === b.nodeType &&
    a.secretSet === b.secretSet &&
    a.imagePullSecretSet === b.imagePullSecretSet &&
    a.enableNoise === b.enableNoise
  );
}

export class Store {
  agents = new Map<string, StoredAgent>();
  secretSets = new Map<string, string[]>();
  readonly logs = new LogStore();

  constructor(private readonly readyAfterMs: number) {}

  private newDeployment(agent: string, spec: DeploymentSpec): StoredDeployment {
    const ns = nowNs();
    const createdMs = Number(ns / 1_000_000n);
    const deployment: StoredDeployment = {
      id: id("dep"),
      spec,
      createdAt: isoNs(ns),
      updatedAt: isoNs(ns),
      createdMs,
      readyAt: neverReady(spec.image) ? null : createdMs + this.readyAfterMs,
      readyLogged: false,
    };
    const write = (offsetNs: bigint, log: string) => this.logs.add(agent, { deploymentId: deployment.id, ns: ns + offsetNs, log });
    write(0n, `Scheduling deployment ${deployment.id} on node type ${spec.nodeType}`);
    write(1_000n, `Pulling image "${spec.image}"`);
    write(2_000n, `Successfully pulled image "${spec.image}"`);
    write(3_000n, `Starting container agent (replicas ${spec.minReplicas}..${spec.maxReplicas})`);
    if (deployment.readyAt === null) {
      write(4_000n, `Error: container agent exited with code 1: failed to start voice pipeline`);
      write(5_000n, `Back-off restarting failed container agent in deployment ${deployment.id}`);
    }
    return deployment;
  }

  /** Writes the "ready" line of deployments whose time has come. */
  observe(agent: StoredAgent, now = Date.now()): void {
    for (const d of agent.deployments) {
      if (!d.readyLogged && d.readyAt !== null && d.readyAt <= now) {
        d.readyLogged = true;
        this.logs.add(agent.name, {
          deploymentId: d.id,
          ns: msToNs(d.readyAt),
          log: `Agent ready: deployment ${d.id} is accepting sessions`,
        });
      }
    }
  }

  active(agent: StoredAgent): StoredDeployment {
    return agent.deployments.find((d) => d.id === agent.activeDeploymentId) as StoredDeployment;
  }

  create(body: CreateAgentBody): StoredAgent {
    const deployment = this.newDeployment(body.serviceName, specOf(body));
    const agent: StoredAgent = {
      name: body.serviceName,
      serviceId: id("svc"),
      createdAt: deployment.createdAt,
      updatedAt: deployment.createdAt,
      activeDeploymentId: deployment.id,
      deployments: [deployment],
    };
    this.agents.set(agent.name, agent);
    return agent;
  }

  /** A scaling-only change keeps the deployment; any other update, the same spec included, makes a new one. */
  update(agent: StoredAgent, body: UpdateAgentBody): StoredAgent {
    const spec = specOf(body);
    const current = this.active(agent);
    const stamp = isoNs(nowNs());
    const scalingChanged = current.spec.minReplicas !== spec.minReplicas || current.spec.maxReplicas !== spec.maxReplicas;
    // A scaling-only change keeps the deployment; the same spec posted again is a redeploy.
    if (sameExceptScaling(current.spec, spec) && scalingChanged) {
      this.logs.add(agent.name, {
        deploymentId: current.id,
        ns: nowNs(),
        log: `Scaling deployment ${current.id} to ${spec.minReplicas}..${spec.maxReplicas} replicas`,
      });
      current.spec = spec;
      current.updatedAt = stamp;
    } else {
      const deployment = this.newDeployment(agent.name, spec);
      agent.deployments.push(deployment);
      agent.activeDeploymentId = deployment.id;
    }
    agent.updatedAt = stamp;
    return agent;
  }

  delete(name: string): void {
    this.agents.delete(name);
    this.logs.remove(name);
  }

  toJson(agent: StoredAgent, now = Date.now()): Agent {
    this.observe(agent, now);
    const d = this.active(agent);
    const ready = d.readyAt !== null && d.readyAt <= now;
    const scaling = { minReplicas: d.spec.minReplicas, maxReplicas: d.spec.maxReplicas };
    return {
      name: agent.name,
      ready,
      createdAt: agent.createdAt,
      updatedAt: agent.updatedAt,
      activeDeploymentId: d.id,
      activeDeploymentReady: ready,
      autoScaling: scaling,
      activeSessionCount: 0,
      deployment: {
        id: d.id,
        serviceId: agent.serviceId,
        createdAt: d.createdAt,
        updatedAt: d.updatedAt,
        manifest: {
          apiVersion: API_VERSION,
          kind: "Agent",
          metadata: { name: agent.name, namespace: NAMESPACE },
          spec: {
            platformNodeType: d.spec.nodeType,
            clusterLocal: false,
            image: d.spec.image,
            autoScaling: scaling,
            envFromSecretNames: d.spec.secretSet === undefined ? [] : [d.spec.secretSet],
            noiseModels: { enabled: d.spec.enableNoise },
            imagePullSecretNames: d.spec.imagePullSecretSet === undefined ? [] : [d.spec.imagePullSecretSet],
          },
        },
      },
    };
  }
}
