/**
 * `agent-hosting:index:Agent` served by the native provider plugin, for
 * TypeScript programs that want what only a native provider gives: `import`
 * of an existing agent and the same state as the Python and Go SDKs. The
 * arguments and outputs are the dynamic Agent's (from the model); the plugin
 * runs the same implementation.
 */
import * as pulumi from "@pulumi/pulumi";
import { withPluginOptions } from "../plugin-options";
import { pausePromiseStackTraces, resumePromiseStackTraces } from "../promise-stack-traces";
import type { AgentArgs, AgentOutputProperties } from "./resource-args";
import { AGENT_FIELDS, AGENT_OUTPUTS } from "./fields";
import { NATIVE_AGENT_TYPE } from "./type-tokens";

export type { AgentArgs };

const PROPERTY_NAMES: readonly string[] = [...AGENT_FIELDS.map((f) => f.name), ...AGENT_OUTPUTS.map((o) => o.name)];

/** The outputs, typed and documented from the model (declaration merging with the class below). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Agent extends AgentOutputProperties {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Agent extends pulumi.CustomResource {
  static readonly __pulumiType = NATIVE_AGENT_TYPE;

  /** Reads an existing agent into the program (it is not managed: destroy leaves it alone). */
  static get(name: string, serviceName: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Agent {
    return new Agent(name, undefined, { ...opts, id: serviceName });
  }

  constructor(name: string, args: AgentArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    // Every declared key goes to the plugin's check, which names any it does not know.
    const props: Record<string, unknown> = opts?.id === undefined ? { ...(args ?? {}) } : {};
    for (const key of PROPERTY_NAMES) if (!(key in props)) props[key] = undefined;
    const limit = pausePromiseStackTraces();
    try {
      super(Agent.__pulumiType, name, props, withPluginOptions(opts));
    } finally {
      resumePromiseStackTraces(limit);
    }
  }
}
