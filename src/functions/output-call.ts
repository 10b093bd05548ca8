/**
 * Pulumi's rule for output-form invokes, for the functions that run in the
 * program's own process (the dynamic package's getSecretSetOutput and
 * getAgentLogsOutput): the call waits for its arguments, and in a preview,
 * while a resource they come from (or one named in `dependsOn`) has no known
 * ID because this update creates it, the result is unknown and nothing is
 * requested. The SDK's `pulumi.runtime.invokeOutput` applies the same rule to
 * the native plugin's functions.
 */
import * as pulumi from "@pulumi/pulumi";

export interface OutputCallOptions {
  /** Resources the call waits for besides those its arguments come from. */
  dependsOn?: pulumi.Input<pulumi.Input<pulumi.Resource>[]> | pulumi.Input<pulumi.Resource>;
}

/** The SDK's own bookkeeping on an Output, present on every Output it makes. */
interface OutputInternals {
  isKnown?: Promise<boolean>;
  allResources?: () => Promise<Set<pulumi.Resource>>;
  resources?: () => Set<pulumi.Resource>;
}

/** A component's children, as the SDK records them on the component. */
interface ComponentInternals {
  __childResources?: Set<pulumi.Resource>;
}

const internals = (value: unknown): OutputInternals => value as OutputInternals;

async function resourcesOf(output: pulumi.Output<unknown>): Promise<Set<pulumi.Resource>> {
  const o = internals(output);
  if (o.allResources) return o.allResources();
  return o.resources?.() ?? new Set();
}

/** The custom resources behind `resources`, a component standing for its children. */
function customResources(resources: Iterable<pulumi.Resource>, seen = new Set<pulumi.Resource>()): pulumi.CustomResource[] {
  const found: pulumi.CustomResource[] = [];
  for (const resource of resources) {
    if (seen.has(resource)) continue;
    seen.add(resource);
    if (pulumi.CustomResource.isInstance(resource)) found.push(resource);
    const children = (resource as ComponentInternals).__childResources;
    if (pulumi.ComponentResource.isInstance(resource) && children) found.push(...customResources(children, seen));
  }
  return found;
}

/** Whether every custom resource behind `output` and `dependsOn` has a known ID. */
async function idsKnown(output: pulumi.Output<unknown>, dependsOn: pulumi.Output<unknown>): Promise<boolean> {
  if ((await internals(dependsOn).isKnown) === false) return false;
  const explicit = [await promiseOf(dependsOn)].flat().filter((r): r is pulumi.Resource => pulumi.Resource.isInstance(r));
  const resources = new Set([...(await resourcesOf(output)), ...explicit]);
  for (const resource of customResources(resources)) {
    if ((await internals(resource.id).isKnown) === false) return false;
  }
  return true;
}

/** The value of a known Output (the resolved `dependsOn`). */
function promiseOf(output: pulumi.Output<unknown>): Promise<unknown> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

/**
 * Runs `call` with the arguments' plain values once they are known; in a
 * preview whose arguments come from a resource being created, the result is
 * unknown instead, and `call` does not run.
 */
export function outputCall<A extends object, R>(
  args: A,
  call: (plain: pulumi.Unwrap<A>) => Promise<R>,
  opts: OutputCallOptions = {},
): pulumi.Output<R> {
  const resolved = pulumi.output(args);
  const dependsOn = pulumi.output(opts.dependsOn ?? []);
  return resolved.apply(async (plain): Promise<pulumi.Output<R> | R> => {
    if (pulumi.runtime.isDryRun() && !(await idsKnown(resolved, dependsOn))) return pulumi.output(pulumi.unknown) as pulumi.Output<R>;
    return call(plain);
  }) as pulumi.Output<R>;
}
