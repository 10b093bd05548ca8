/** The Agent resource: a named agent running a container image at the service. */
import * as pulumi from "@pulumi/pulumi";
import { warnIfKeyInPlainText } from "../../core/plain-key-warning";
import { SECRET_INPUTS_PROPERTY } from "../../core/state-marks";
import { pausePromiseStackTraces, resumePromiseStackTraces } from "../promise-stack-traces";
import type { AgentArgs, AgentOutputProperties } from "./resource-args";
import { AGENT_FIELDS, AGENT_OUTPUTS } from "./fields";
import { AGENT_PROVIDER_SOURCE, DYNAMIC_AGENT_TYPE } from "./type-tokens";

export type { AgentArgs, AgentAutoScalingArgs } from "./resource-args";

/** The dynamic provider's own properties: its serialized text, and the URN the dynamic interface does not pass. */
const PROVIDER_KEY = "__provider";
const URN_KEY = "__urn";

const INPUT_NAMES: readonly string[] = AGENT_FIELDS.map((f) => f.name);
const OUTPUT_NAMES: readonly string[] = AGENT_OUTPUTS.map((o) => o.name);

/**
 * The names of the declared inputs that are secrets, so outputs derived from
 * them stay secret; left out when there are none, which keeps every Agent's
 * state that much smaller. Plain values cannot be secrets, so an Agent
 * declared with plain values only costs no Output here.
 */
function secretInputNames(args: AgentArgs): pulumi.Output<string[] | undefined> | undefined {
  const record: Record<string, unknown> = { ...args };
  const names = INPUT_NAMES.filter((name) => record[name] !== undefined);
  if (!names.some((name) => mayBeSecret(record[name]))) return undefined;
  const flags = Promise.all(names.map((name) => pulumi.isSecret(pulumi.output(record[name]))));
  return pulumi.output(flags.then((secret) => names.filter((_, i) => secret[i]))).apply((found) => (found.length > 0 ? found : undefined));
}

/** Whether a value holds an Output or a promise anywhere (only those can carry a secret). */
function mayBeSecret(value: unknown): boolean {
  if (pulumi.Output.isInstance(value) || value instanceof Promise) return true;
  if (Array.isArray(value)) return value.some(mayBeSecret);
  if (typeof value === "object" && value !== null) return Object.values(value).some(mayBeSecret);
  return false;
}

/** The Agent's URN: a plain string for a top-level Agent (the stack is not in the type chain), else from the parent's. */
function urnOf(name: string, parent: pulumi.Resource | undefined): pulumi.Input<string> {
  if (parent === undefined) return `urn:pulumi:${pulumi.getStack()}::${pulumi.getProject()}::${DYNAMIC_AGENT_TYPE}::${name}`;
  return pulumi.createUrn(name, DYNAMIC_AGENT_TYPE, parent);
}

/** Agent's outputs, typed and documented from the model (declaration merging with the class below). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Agent extends AgentOutputProperties {}

/**
 * A dynamic resource: its type is the dynamic provider's, and its
 * `__provider` is the provider's module text (`AGENT_PROVIDER_SOURCE`, type-tokens.ts), which
 * `pulumi.dynamic.Resource` would instead produce with the closure
 * serializer (four times the size, in every Agent's state and call).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Agent extends pulumi.CustomResource {
  constructor(name: string, args: AgentArgs, opts?: pulumi.CustomResourceOptions) {
    const props: Record<string, unknown> = {};
    const adopting = opts?.id !== undefined;
    if (!adopting) {
      // Every key goes to check, so a typo from JavaScript is named there rather than dropped.
      Object.assign(props, args);
      const secretInputs = secretInputNames(args);
      if (secretInputs !== undefined) props[SECRET_INPUTS_PROPERTY] = secretInputs;
    }
    // The provider's lines go on this resource's row, also those of a read (refresh, Agent.get) and a delete.
    props[URN_KEY] = urnOf(name, opts?.parent);
    for (const key of [...INPUT_NAMES, ...OUTPUT_NAMES]) if (!(key in props)) props[key] = undefined;
    props[PROVIDER_KEY] = AGENT_PROVIDER_SOURCE;
    warnIfKeyInPlainText();
    const limit = pausePromiseStackTraces();
    try {
      super(DYNAMIC_AGENT_TYPE, name, props, opts);
    } finally {
      resumePromiseStackTraces(limit);
    }
  }

  /**
   * Reads an existing agent into the program by its service name; Pulumi does
   * not delete it on destroy. Fails with AgentNotFoundError when it does not exist.
   */
  static get(name: string, serviceName: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Agent {
    return new Agent(name, {} as AgentArgs, { ...opts, id: serviceName });
  }
}
