/** The Agent resource (design section 2): a named agent running a container image. */
import * as pulumi from "@pulumi/pulumi";
import type { AutoScaling, Deployment, Manifest } from "../client/schemas";
import { CREATE_FIELDS } from "../client/rules";
import { warnIfKeyInPlainText } from "../plain-key-warning";
import { agentProvider } from "../provider/shim";
import { PROVIDER_SETTINGS } from "../provider/types";

export interface AgentAutoScalingArgs {
  /** Fewest agents kept running, ≥ 0. */
  minAgents: pulumi.Input<number>;
  /** Most agents, ≥ 1 and ≥ minAgents. */
  maxAgents: pulumi.Input<number>;
}

/** The POST body of the service, field for field, plus two provider settings. */
export interface AgentArgs {
  /** Name of the agent: `^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`, 1 to 54 characters. Changing it replaces the agent. */
  serviceName: pulumi.Input<string>;
  /** Container image with a tag (`name:tag`) or digest (`name@sha256:...`). */
  image: pulumi.Input<string>;
  /** Node type; only `"arm"` (the default). */
  nodeType?: pulumi.Input<"arm">;
  /** Secret set holding the image pull credentials (3 to 63 characters, lowercase DNS subdomain). */
  imagePullSecretSet?: pulumi.Input<string>;
  /** Secret set loaded as environment variables (3 to 63 characters, lowercase DNS subdomain). */
  secretSet?: pulumi.Input<string>;
  /** Scaling limits: integers, 0 ≤ minAgents ≤ maxAgents, maxAgents ≥ 1. */
  autoScaling?: pulumi.Input<AgentAutoScalingArgs>;
  /** Noise cancellation; default false. */
  enableNoise?: pulumi.Input<boolean>;
  /** Provider setting, never sent: wait until the agent is ready (default true). */
  waitForReady?: pulumi.Input<boolean>;
  /** Provider setting, never sent: how long to wait for readiness, 1 to 3600 seconds (default 600). */
  readyTimeoutSeconds?: pulumi.Input<number>;
}

const OUTPUT_NAMES = [
  "name",
  "ready",
  "createdAt",
  "updatedAt",
  "activeDeploymentId",
  "activeDeploymentReady",
  "activeSessionCount",
  "deployment",
  "manifest",
] as const;

const INPUT_NAMES = [...CREATE_FIELDS, ...PROVIDER_SETTINGS];

export class Agent extends pulumi.dynamic.Resource {
  declare public readonly serviceName: pulumi.Output<string>;
  declare public readonly image: pulumi.Output<string>;
  declare public readonly nodeType: pulumi.Output<"arm">;
  declare public readonly imagePullSecretSet: pulumi.Output<string | undefined>;
  declare public readonly secretSet: pulumi.Output<string | undefined>;
  declare public readonly enableNoise: pulumi.Output<boolean>;
  declare public readonly waitForReady: pulumi.Output<boolean>;
  declare public readonly readyTimeoutSeconds: pulumi.Output<number>;
  /** The agent's name at the service. */
  declare public readonly name: pulumi.Output<string>;
  declare public readonly ready: pulumi.Output<boolean>;
  declare public readonly createdAt: pulumi.Output<string>;
  declare public readonly updatedAt: pulumi.Output<string>;
  declare public readonly activeDeploymentId: pulumi.Output<string>;
  declare public readonly activeDeploymentReady: pulumi.Output<boolean>;
  /** Scaling as the service reports it. */
  declare public readonly autoScaling: pulumi.Output<AutoScaling>;
  declare public readonly activeSessionCount: pulumi.Output<number>;
  declare public readonly deployment: pulumi.Output<Deployment | null>;
  /** `deployment.manifest`, or null. */
  declare public readonly manifest: pulumi.Output<Manifest | null>;

  constructor(name: string, args: AgentArgs, opts?: pulumi.CustomResourceOptions) {
    const props: Record<string, unknown> = {};
    for (const key of INPUT_NAMES) props[key] = opts?.id === undefined ? args?.[key] : undefined;
    // Any other key (a typo from JavaScript, say) goes to check, which names it, rather than being dropped.
    if (opts?.id === undefined) {
      for (const [key, value] of Object.entries(args ?? {})) if (!(key in props)) props[key] = value;
    }
    for (const key of OUTPUT_NAMES) props[key] = undefined;
    warnIfKeyInPlainText();
    super(agentProvider, name, props, opts, "agent-hosting", "Agent");
  }

  /**
   * Adopts an existing agent by its service name (`pulumi import` does not
   * work for dynamic resources). Fails clearly when it does not exist.
   */
  static get(name: string, serviceName: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Agent {
    return new Agent(name, {} as AgentArgs, { ...opts, id: serviceName });
  }
}
