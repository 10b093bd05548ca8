/**
 * The native plugin's `manifest` and `deployment` outputs are what
 * schema.json says they are (the named types Manifest and Deployment, which
 * the Python and Go SDKs decode into typed objects): for an agent as the
 * emulator answers it under each of its readings of the service's document
 * (fields left out, fields added), every member the schema declares is
 * absent, null or of its declared type, after the outputs went through the
 * plugin's conversion to and from the engine's Struct (src/native/values.ts).
 * Members the schema does not declare stay as the service sent them.
 */
import { afterAll, describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import { READINGS } from "../../src/emulator";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { buildSchema } from "../../src/hosts/grpc/package-schema";
import { fromStruct, toStruct } from "../../src/hosts/grpc/struct-values";
import { asInputs, outputProps, toOutputs } from "../../src/resources/agent/state";

type Json = Record<string, unknown>;
const schema = buildSchema("0.0.0");
const types = schema["types"] as Record<string, { properties: Record<string, Json> }>;
const agentProperties = ((schema["resources"] as Json)["agent-hosting:index:Agent"] as { properties: Record<string, Json> }).properties;

/** Where `value` departs from the schema type `spec` (a property's type or $ref): one line per member. */
function mismatches(value: unknown, spec: Json, path: string): string[] {
  if (value === undefined || value === null) return [];
  const ref = spec["$ref"];
  if (typeof ref === "string") {
    const type = types[ref.replace("#/types/", "")];
    if (!type) return [`${path}: no type ${ref}`];
    if (typeof value !== "object" || Array.isArray(value)) return [`${path}: ${JSON.stringify(value)} is not an object`];
    return Object.entries(type.properties).flatMap(([name, member]) => mismatches((value as Json)[name], member, `${path}.${name}`));
  }
  switch (spec["type"]) {
    case "string":
    case "boolean":
      return typeof value === spec["type"] ? [] : [`${path}: ${JSON.stringify(value)} is not a ${String(spec["type"])}`];
    case "integer":
      return Number.isInteger(value) ? [] : [`${path}: ${JSON.stringify(value)} is not an integer`];
    case "array":
      return Array.isArray(value) ? value.flatMap((v, i) => mismatches(v, spec["items"] as Json, `${path}[${i}]`)) : [`${path}: not an array`];
    default:
      return [`${path}: unexpected schema type ${String(spec["type"])}`];
  }
}

const running: Emu[] = [];
afterAll(async () => {
  await Promise.all(running.map((e) => e.close()));
});

describe.each(Object.keys(READINGS))("the manifest and deployment outputs, the emulator reading the document as %s", (reading) => {
  it("match the schema's Manifest and Deployment types, the added members kept as sent", async () => {
    const emulator = await startEmu({ readyAfterMs: 0, reading: reading as keyof typeof READINGS, getOutageAfterCreate: null, secretSets: { "voice-secrets": ["A"] } });
    running.push(emulator);
    const client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
    try {
      const body = { serviceName: "typed-bot", image: "registry.example.com/bot:1", secretSet: "voice-secrets", autoScaling: { minAgents: 1, maxAgents: 2 }, enableNoise: true };
      await client.createAgent(body);
      const agent = await client.getAgent("typed-bot");
      const outputs = fromStruct(toStruct(outputProps(toOutputs(asInputs(body), agent), []))).props;
      const manifest = outputs["manifest"] as Json;
      expect(manifest).toMatchObject({ spec: { image: "registry.example.com/bot:1", envFromSecretNames: ["voice-secrets"] } });
      expect(outputs["deployment"]).toMatchObject({ id: agent.activeDeploymentId });
      for (const name of ["manifest", "deployment"]) {
        expect(mismatches(outputs[name], agentProperties[name] as Json, name), name).toEqual([]);
      }
      if (READINGS[reading as keyof typeof READINGS].extraFields) {
        expect(manifest["status"]).toEqual(agent.deployment?.manifest?.["status"]);
        expect((manifest["spec"] as Json)["resources"]).toBeDefined();
      }
    } finally {
      await client.close();
    }
  });
});

describe("the comparison with the schema's types", () => {
  it("names a member of the wrong type, and passes one the schema does not declare", () => {
    const manifest = { kind: 1, spec: { clusterLocal: "no", autoScaling: { minReplicas: 1.5 }, envFromSecretNames: [2], extra: { any: "thing" } } };
    expect(mismatches(manifest, agentProperties["manifest"] as Json, "manifest")).toEqual([
      "manifest.kind: 1 is not a string",
      'manifest.spec.clusterLocal: "no" is not a boolean',
      "manifest.spec.envFromSecretNames[0]: 2 is not a string",
      "manifest.spec.autoScaling.minReplicas: 1.5 is not an integer",
    ]);
  });
});
