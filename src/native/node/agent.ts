/**
 * `agent-hosting:index:Agent` served by the native provider plugin, for
 * TypeScript programs that want what only a native provider gives: `import`
 * of an existing agent and the same state as the Python and Go SDKs. The
 * arguments and outputs are the dynamic Agent's; the plugin runs the same
 * implementation.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AutoScaling, Deployment, Manifest } from "../../client/schemas";
import type { AgentArgs } from "../../resources/agent";
import { withVersion } from "./version";

export type { AgentArgs };

const OUTPUTS = ["name", "ready", "createdAt", "updatedAt", "activeDeploymentId", "activeDeploymentReady", "activeSessionCount", "deployment", "manifest", "autoScaling"] as const;

export class Agent extends pulumi.CustomResource {
  static readonly __pulumiType = "agent-hosting:index:Agent";

  declare public readonly serviceName: pulumi.Output<string>;
  declare public readonly image: pulumi.Output<string>;
  declare public readonly nodeType: pulumi.Output<"arm">;
  declare public readonly imagePullSecretSet: pulumi.Output<string | undefined>;
  declare public readonly secretSet: pulumi.Output<string | undefined>;
  declare public readonly enableNoise: pulumi.Output<boolean>;
  declare public readonly waitForReady: pulumi.Output<boolean>;
  declare public readonly readyTimeoutSeconds: pulumi.Output<number>;
  declare public readonly name: pulumi.Output<string>;
  declare public readonly ready: pulumi.Output<boolean>;
  declare public readonly createdAt: pulumi.Output<string>;
  declare public readonly updatedAt: pulumi.Output<string>;
  declare public readonly activeDeploymentId: pulumi.Output<string>;
  declare public readonly activeDeploymentReady: pulumi.Output<boolean>;
  declare public readonly autoScaling: pulumi.Output<AutoScaling>;
  declare public readonly activeSessionCount: pulumi.Output<number>;
  declare public readonly deployment: pulumi.Output<Deployment | null>;
  declare public readonly manifest: pulumi.Output<Manifest | null>;

  /** Reads an existing agent into the program (it is not managed: destroy leaves it alone). */
  static get(name: string, serviceName: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Agent {
    return new Agent(name, undefined, { ...opts, id: serviceName });
  }

  constructor(name: string, args: AgentArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    // Every declared key goes to the plugin's check, which names any it does not know.
    const props: Record<string, unknown> = opts?.id === undefined ? { ...(args ?? {}) } : {};
    for (const key of OUTPUTS) if (!(key in props)) props[key] = undefined;
    super(Agent.__pulumiType, name, props, withVersion(opts));
  }
}
