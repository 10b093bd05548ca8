/** schema.json is the schema built from the Agent model, and every property in it is described. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSchema, schemaJson } from "../../src/hosts/grpc/package-schema";

const root = join(__dirname, "..", "..");
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
type Json = Record<string, unknown>;

/** Every property map in the schema, with where it is. */
function propertyMaps(schema: Json): [string, Json][] {
  const maps: [string, Json][] = [];
  const config = schema["config"] as Json;
  maps.push(["config.variables", config["variables"] as Json]);
  const provider = schema["provider"] as Json;
  maps.push(["provider.inputProperties", provider["inputProperties"] as Json], ["provider.properties", provider["properties"] as Json]);
  for (const [token, r] of Object.entries(schema["resources"] as Json)) {
    maps.push([`${token}.inputProperties`, (r as Json)["inputProperties"] as Json], [`${token}.properties`, (r as Json)["properties"] as Json]);
  }
  for (const [token, f] of Object.entries(schema["functions"] as Json)) {
    for (const side of ["inputs", "outputs"]) maps.push([`${token}.${side}`, ((f as Json)[side] as Json)["properties"] as Json]);
  }
  for (const [token, t] of Object.entries(schema["types"] as Json)) maps.push([token, (t as Json)["properties"] as Json]);
  return maps;
}

describe("the package schema", () => {
  it("schema.json is what the model builds (run `npm run gen` after changing the model)", () => {
    expect(readFileSync(join(root, "schema.json"), "utf8")).toBe(schemaJson(version));
  });

  it("describes every property of the resource, the functions, the provider and the types", () => {
    const maps = propertyMaps(buildSchema(version));
    expect(maps.length).toBeGreaterThan(8);
    for (const [where, properties] of maps) {
      for (const [name, spec] of Object.entries(properties)) {
        expect(typeof (spec as Json)["description"], `${where}.${name}`).toBe("string");
        expect(((spec as Json)["description"] as string).trim(), `${where}.${name}`).not.toBe("");
      }
    }
  });

  it("has the Agent, its three functions and a provider whose apiKey and registryAuth are secret", () => {
    const schema = buildSchema(version);
    const agent = (schema["resources"] as Json)["agent-hosting:index:Agent"] as Json;
    expect(agent["requiredInputs"]).toEqual(["serviceName", "image"]);
    expect(Object.keys(agent["properties"] as Json)).toEqual(expect.arrayContaining(["activeDeploymentId", "manifest", "serviceName", "imageDigest"]));
    expect((agent["inputProperties"] as Json)["pinImageDigest"]).toMatchObject({ type: "boolean" });
    expect(agent["inputProperties"] as Json).not.toHaveProperty("imageDigest");
    expect(Object.keys(schema["functions"] as Json).sort()).toEqual([
      "agent-hosting:index:getAgentLogs",
      "agent-hosting:index:getImageDigest",
      "agent-hosting:index:getSecretSet",
    ]);
    const provider = schema["provider"] as Json;
    const variables = (schema["config"] as Json)["variables"] as Json;
    for (const secret of ["apiKey", "registryAuth"]) {
      expect((provider["inputProperties"] as Json)[secret]).toMatchObject({ type: "string", secret: true });
      expect(variables[secret]).toMatchObject({ secret: true });
    }
    expect((provider["inputProperties"] as Json)["pinImageDigests"]).toMatchObject({ type: "boolean" });
    expect(variables["pinImageDigests"]).not.toHaveProperty("secret");
  });

  it("the Agent and both functions carry an example in TypeScript, Python, Go, Java and YAML; the Agent an Import section", () => {
    const schema = buildSchema(version);
    const described = [
      ((schema["resources"] as Json)["agent-hosting:index:Agent"] as Json)["description"],
      ...Object.values(schema["functions"] as Json).map((f) => (f as Json)["description"]),
    ] as string[];
    for (const text of described) {
      expect(text).toMatch(/\{\{% examples %\}\}\n## Example Usage\n\{\{% example %\}\}\n### .+\n\n/);
      const fences = [...text.matchAll(/^```(\w+)$/gm)].map((m) => m[1]);
      expect(fences.filter((lang) => lang !== "sh")).toEqual(["typescript", "python", "go", "java", "yaml"]);
      expect(text).toContain("{{% /example %}}\n{{% /examples %}}");
    }
    expect(described[0]).toContain("## Import\n");
    expect(described[0]).toContain("$ pulumi import agent-hosting:index:Agent <name> <serviceName>");
  });

  it("types manifest and deployment as named object types whose members are all optional, and states the defaults", () => {
    const schema = buildSchema(version);
    const agent = (schema["resources"] as Json)["agent-hosting:index:Agent"] as Json;
    const properties = agent["properties"] as Json;
    expect(properties["manifest"]).toMatchObject({ $ref: "#/types/agent-hosting:index:Manifest" });
    expect(properties["deployment"]).toMatchObject({ $ref: "#/types/agent-hosting:index:Deployment" });
    const types = schema["types"] as Json;
    for (const name of ["Manifest", "ManifestMetadata", "ManifestSpec", "ManifestNoiseModels", "Deployment"]) {
      const type = types[`agent-hosting:index:${name}`] as Json;
      expect(type, name).toMatchObject({ type: "object" });
      expect(type["required"], name).toBeUndefined();
    }
    const inputs = agent["inputProperties"] as Json;
    expect(inputs["nodeType"]).toMatchObject({ default: "arm", description: expect.stringContaining("Defaults to `\"arm\"`.") });
    expect(inputs["readyTimeoutSeconds"]).toMatchObject({ default: 600, description: expect.stringContaining("Defaults to `600`.") });
    expect(schema).toMatchObject({
      publisher: "agent-hosting",
      repository: "https://github.com/agent-hosting/pulumi-agent-hosting",
      homepage: "https://github.com/agent-hosting/pulumi-agent-hosting",
    });
  });
});
