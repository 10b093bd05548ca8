/**
 * A resource of the registry under the mocks: the provider's own check (its
 * rules, and the secret sets against the mocked ones), then its own create
 * against the mocked service, whose answer is the agent once ready. The
 * outputs are what the provider stores for that answer.
 */
import { PollGate } from "../core/readiness/poll-gate";
import type { ResourceLog } from "../core/engine-log";
import type { Props, ResourceEntry } from "../core/resource-entry";
import { marksOf, withMarks, withoutReserved } from "../core/state-marks";
import type { MockService } from "./mock-service";
import { MockRefusalError } from "./refusal";

const SILENT: ResourceLog = { info: async () => undefined, warning: async () => undefined, retry: () => undefined };

/** The keys a dynamic resource's host keeps in its outputs as it got them (the serialized provider). */
const HOST_KEYS = ["__provider"];

export interface MockRegistration {
  type: string;
  name: string;
  inputs: Props;
}

/** The outputs (the engine's properties, the provider's marks included) and id of a create of `entry` from `inputs`. */
export async function mockCreate(entry: ResourceEntry, service: MockService, { type, name, inputs }: MockRegistration): Promise<{ id: string; state: Props }> {
  const urn = `urn:pulumi:test::test::${type}::${name}`;
  const secretInputs = marksOf(inputs).secretInputs;
  const checked = await entry.verbs.check({ urn, olds: {}, news: withoutReserved(inputs), secretInputs, ...(service.secretSets && { secretSets: service.secretSets }) });
  if (checked.failures.length > 0) throw new MockRefusalError(`${entry.name} "${name}"`, checked.failures);
  // The mocked service answers a create with the agent already ready: the provider's wait is left out and its setting echoed as given.
  const providerSettings = entry.fields.filter((f) => f.sentTo === "provider");
  const stored = await entry.verbs.create({
    host: type === entry.nativeType ? "grpc" : "dynamic",
    urn,
    log: SILENT,
    signal: new AbortController().signal,
    client: service.client,
    gate: new PollGate(),
    ...(service.secretSets && { secretSets: service.secretSets }),
    inputs: { ...checked.inputs, waitForReady: false },
    marks: { secretInputs },
  });
  const outputs: Props = { ...stored.outputs };
  for (const field of providerSettings) if (checked.inputs[field.name] !== undefined) outputs[field.name] = checked.inputs[field.name];
  const state = withMarks(outputs, stored.marks);
  for (const key of HOST_KEYS) if (inputs[key] !== undefined) state[key] = inputs[key];
  return { id: stored.id, state };
}
