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
import { plainInputs } from "./plain-inputs";
import { MockRefusalError } from "./refusal";

const SILENT: ResourceLog = { info: async () => undefined, warning: async () => undefined, retry: () => undefined };

/** The keys the dynamic host keeps in a resource's outputs as it got them in the inputs (the serialized provider, the URN). */
const HOST_KEYS = ["__provider", "__urn"];

export interface MockRegistration {
  type: string;
  name: string;
  inputs: Props;
}

/** The outputs (the engine's properties, the provider's marks included) and id of a create of `entry` from `inputs`. */
export async function mockCreate(entry: ResourceEntry, service: MockService, registration: MockRegistration): Promise<{ id: string; state: Props }> {
  const { type, name } = registration;
  const { plain: inputs, secret } = plainInputs(registration.inputs);
  const given = inputs["__urn"];
  const urn = typeof given === "string" ? given : `urn:pulumi:test::test::${type}::${name}`;
  // The dynamic Agent lists its secret inputs itself (__secretInputs); a native one's are the engine's secrets,
  // in the field table's order, as every language's mocks list them.
  const listed = marksOf(inputs).secretInputs;
  const secretInputs = listed.length > 0 ? listed : entry.fields.map((f) => f.name).filter((name) => secret.includes(name));
  const checked = await entry.verbs.check({
    urn,
    olds: {},
    news: withoutReserved(inputs),
    secretInputs,
    imageDigests: service.imageDigests,
    ...(service.secretSets && { secretSets: service.secretSets }),
  });
  if (checked.failures.length > 0) throw new MockRefusalError(`${entry.name} "${name}"`, checked.failures);
  // The mocked service answers a create with the agent as the provider's wait leaves it (ready, unless the
  // program does not wait): the wait itself (and the health check after it) is left out, its settings echoed as given.
  const serviceName = String(checked.inputs["serviceName"]);
  if (checked.inputs["waitForReady"] === false) service.answeredUnready.add(serviceName);
  else service.answeredUnready.delete(serviceName);
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
