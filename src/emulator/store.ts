/**
 * The emulator's data: agents with their deployments, secret sets, logs.
 * Readiness is computed from each deployment's `readyAt`, so it is exact
 * without timers; the "ready" log line is written when first observed.
 *
 * Choices where the API leaves it open: autoScaling omitted → 1..1
 * replicas; namespace "emulator-default"; apiVersion "agents.emulator.local/v1";
 * an image whose tag is `fail` never becomes ready; an image whose tag is
 * `unhealthy` becomes ready, then writes one `panic:` line to its deployment's
 * logs UNHEALTHY_AFTER_READY_MS later (what a health check on the logs finds).
 *
 * Rollouts (rollout-modes.ts): the agent's `desiredDeploymentId` is its latest
 * deployment, the one the last create or update asked for;
 * `activeDeploymentId` the one that serves. Rolling, the desired one becomes
 * active once its ready time passes (settled when the agent is observed, from
 * the time alone); immediate, at once.
 */
import { randomBytes } from "node:crypto";
import type { CreateBody, UpdateBody } from "./wire";
import { LogStore } from "./log-store";
import type { Rollout } from "./rollout-modes";
import type { StoredSessions } from "./sessions";
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
  /** GETs of the agent answered since `readyAt` while this deployment was active (for readyFlagsApart). */
  readyPolls?: number;
  /** Epoch ms of the `panic:` line of an `unhealthy` image, and whether it is written. */
  panicAt?: number;
  panicLogged?: boolean;
}

export interface StoredAgent {
  name: string;
  serviceId: string;
  createdAt: string;
  updatedAt: string;
  /** The deployment that serves. */
  activeDeploymentId: string;
  /** The latest deployment; absent in state files written before rollouts, which means the active one. */
  desiredDeploymentId?: string;
  /** Live sessions set through the control endpoint; absent: none. */
  sessions?: StoredSessions;
  deployments: StoredDeployment[];
}

export const DEFAULT_SCALING = { minReplicas: 1, maxReplicas: 1 };
export const EMULATOR_API_VERSION = "agents.emulator.local/v1";
export const DEFAULT_NAMESPACE = "emulator-default";

const id = (prefix: string) => `${prefix}-${randomBytes(6).toString("hex")}`;

/** Milliseconds from an `unhealthy` image's readiness to its `panic:` line. */
export const UNHEALTHY_AFTER_READY_MS = 1000;

const hasTag = (image: string, tag: string) => image.slice(image.lastIndexOf("/") + 1).endsWith(`:${tag}`);

/** Whether the deployment is ready (validated) at `now`. */
export function isReadyAt(d: StoredDeployment, now: number): boolean {
  return d.readyAt !== null && d.readyAt <= now;
}

export function neverReady(image: string): boolean {
  return hasTag(image, "fail");
}

/** The line an `unhealthy` image writes after it is ready. */
export function panicLine(deploymentId: string): string {
  return `panic: voice pipeline lost its model connection in deployment ${deploymentId}`;
}

/** The spec a create body, or an update body that replaces the spec, describes. */
export function specOf(body: CreateBody | (UpdateBody & { image: string })): DeploymentSpec {
  const spec: DeploymentSpec = {
    image: body.image,
    nodeType: body.nodeType ?? "arm",
    enableNoise: body.enableNoise ?? false,
    minReplicas: body.autoScaling?.minAgents ?? DEFAULT_SCALING.minReplicas,
    maxReplicas: body.autoScaling?.maxAgents ?? DEFAULT_SCALING.maxReplicas,
  };
  if (typeof body.secretSet === "string") spec.secretSet = body.secretSet;
  if (typeof body.imagePullSecretSet === "string") spec.imagePullSecretSet = body.imagePullSecretSet;
  return spec;
}

/** The spec after an update that merges: a field the body leaves out keeps its value, null clears it. */
export function mergedSpec(current: DeploymentSpec, body: UpdateBody): DeploymentSpec {
  const merged: UpdateBody & { image: string } = {
    image: body.image ?? current.image,
    nodeType: body.nodeType === undefined ? current.nodeType : body.nodeType,
    enableNoise: body.enableNoise === undefined ? current.enableNoise : body.enableNoise,
    autoScaling:
      body.autoScaling === undefined ? { minAgents: current.minReplicas, maxAgents: current.maxReplicas } : body.autoScaling,
  };
  const secretSet = body.secretSet === undefined ? current.secretSet : body.secretSet;
  const imagePullSecretSet = body.imagePullSecretSet === undefined ? current.imagePullSecretSet : body.imagePullSecretSet;
  if (secretSet !== undefined) merged.secretSet = secretSet;
  if (imagePullSecretSet !== undefined) merged.imagePullSecretSet = imagePullSecretSet;
  return specOf(merged);
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

  constructor(
    private readonly readyAfterMs: number,
    readonly rollout: Rollout,
  ) {}

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
    if (deployment.readyAt !== null && hasTag(spec.image, "unhealthy")) {
      deployment.panicAt = deployment.readyAt + UNHEALTHY_AFTER_READY_MS;
      deployment.panicLogged = false;
    }
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

  /** Writes the "ready" line (and an `unhealthy` image's `panic:` line) of deployments whose time has come. */
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
      if (d.panicLogged === false && d.panicAt !== undefined && d.panicAt <= now) {
        d.panicLogged = true;
        this.logs.add(agent.name, { deploymentId: d.id, ns: msToNs(d.panicAt), log: panicLine(d.id) });
      }
    }
    this.settle(agent, now);
  }

  /** Makes the desired deployment the active one when the rollout says it takes over: at once, or once it is ready. */
  private settle(agent: StoredAgent, now: number): void {
    const desired = this.desired(agent);
    if (desired.id === agent.activeDeploymentId) return;
    if (this.rollout === "immediate" || isReadyAt(desired, now)) agent.activeDeploymentId = desired.id;
  }

  /** The deployment that serves (as last settled: observe the agent first). */
  active(agent: StoredAgent): StoredDeployment {
    return agent.deployments.find((d) => d.id === agent.activeDeploymentId) as StoredDeployment;
  }

  /** The latest deployment, the one the last create or update asked for. */
  desired(agent: StoredAgent): StoredDeployment {
    const id = agent.desiredDeploymentId ?? agent.activeDeploymentId;
    return agent.deployments.find((d) => d.id === id) as StoredDeployment;
  }

  create(body: CreateBody): StoredAgent {
    const deployment = this.newDeployment(body.serviceName, specOf(body));
    const agent: StoredAgent = {
      name: body.serviceName,
      serviceId: id("svc"),
      createdAt: deployment.createdAt,
      updatedAt: deployment.createdAt,
      activeDeploymentId: deployment.id,
      desiredDeploymentId: deployment.id,
      deployments: [deployment],
    };
    this.agents.set(agent.name, agent);
    return agent;
  }

  /**
   * Applies the new spec to the latest deployment: a scaling-only change
   * keeps it (and, rolling, scales the serving one too, which goes on
   * serving the sessions the new scaling is for); any other update, the same
   * spec included, makes a new deployment, the desired one. Rolling, it
   * supersedes a desired one that has not validated yet.
   */
  update(agent: StoredAgent, spec: DeploymentSpec, now = Date.now()): StoredAgent {
    this.observe(agent, now); // a desired deployment that has validated by now is the active one
    const latest = this.desired(agent);
    const stamp = isoNs(nowNs());
    const scalingChanged = latest.spec.minReplicas !== spec.minReplicas || latest.spec.maxReplicas !== spec.maxReplicas;
    // A scaling-only change keeps the deployment; the same spec posted again is a redeploy.
    if (sameExceptScaling(latest.spec, spec) && scalingChanged) {
      this.scale(agent, latest, spec, stamp);
      const serving = this.active(agent);
      if (serving !== latest) this.scale(agent, serving, { ...serving.spec, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas }, stamp);
    } else {
      const deployment = this.newDeployment(agent.name, spec);
      agent.deployments.push(deployment);
      if (latest.id !== agent.activeDeploymentId) this.supersede(agent, latest, deployment.id);
      agent.desiredDeploymentId = deployment.id;
      if (this.rollout === "immediate") agent.activeDeploymentId = deployment.id;
    }
    agent.updatedAt = stamp;
    return agent;
  }

  private scale(agent: StoredAgent, d: StoredDeployment, spec: DeploymentSpec, stamp: string): void {
    if (d.spec.minReplicas === spec.minReplicas && d.spec.maxReplicas === spec.maxReplicas) return;
    this.logs.add(agent.name, {
      deploymentId: d.id,
      ns: nowNs(),
      log: `Scaling deployment ${d.id} to ${spec.minReplicas}..${spec.maxReplicas} replicas`,
    });
    d.spec = spec;
    d.updatedAt = stamp;
  }

  /** A desired deployment that has not validated gives way to a newer one: it never becomes ready, so it never serves. */
  private supersede(agent: StoredAgent, d: StoredDeployment, by: string): void {
    d.readyAt = null;
    delete d.panicAt;
    delete d.panicLogged;
    this.logs.add(agent.name, { deploymentId: d.id, ns: nowNs(), log: `Deployment ${d.id} superseded by deployment ${by}: it will not serve` });
  }

  delete(name: string): void {
    this.agents.delete(name);
    this.logs.remove(name);
  }
}
