/**
 * The Pulumi package schema of the native provider, built from the Agent
 * model: the Agent resource's inputs and outputs, the two functions, and the
 * provider's settings. scripts/gen-schema.mjs writes it to schema.json; the
 * SDKs for Python, Go and Java are generated from that file.
 */
import { AGENT_FIELDS, AGENT_OUTPUTS, FUNCTIONS, PROVIDER_CONFIG_FIELDS, type FunctionField } from "../model";
import { PLUGIN_DOWNLOAD_URL, REPOSITORY } from "./plugin-download-url";
import { SCHEMA_EXAMPLES, examplesSection, pythonReadme } from "./schema-docs";
import { TYPED_OUTPUTS, serviceObjectTypes } from "./service-object-types";

/** What the schema reads of a field of the model (an input or an output of Agent). */
interface SchemaField {
  name: string;
  type: "string" | "boolean" | "integer" | "number" | "object";
  description: string;
  required?: boolean;
  default?: string | boolean | number;
  properties?: readonly { name: string; type: "integer" | "string"; description: string }[];
}

export const PACKAGE_NAME = "agent-hosting";
/** The Go module of the generated Go SDK (sdk/go/go.mod) and the import path of its package. */
export const GO_MODULE = `github.com/${REPOSITORY}/sdk/go`;
export const GO_IMPORT_PATH = `${GO_MODULE}/agenthosting`;
export const PYTHON_PACKAGE = "pulumi_agent_hosting";
/**
 * The prefix of the Java SDK's package (its classes are in <prefix>.agenthosting): the reversed home of the
 * repository's GitHub owner, com.github.<owner>, a dash made an underscore as Java names require. It starts
 * with com/ because pulumi-java's plugin discovery (com.pulumi.bootstrap.internal.PulumiPlugins) reads an
 * SDK's plugin.json only under com/; the Maven group is io.github.<owner> (scripts/lib/java-sdk.mjs), the
 * namespace Maven Central verifies for a GitHub owner.
 */
export const JAVA_BASE_PACKAGE = `com.github.${REPOSITORY.split("/")[0]!.replaceAll("-", "_")}`;

type Json = Record<string, unknown>;

const token = (name: string) => `${PACKAGE_NAME}:index:${name}`;
const ref = (name: string) => ({ $ref: `#/types/${token(name)}` });
const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** An object with no declared members: a map of any values. */
const OPEN_OBJECT = { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } };

/** Builds a schema property; nested object members become a named type in `types`. */
function property(field: SchemaField, typeName: string, types: Json): Json {
  const defaultText = field.default === undefined ? "" : ` Defaults to \`${JSON.stringify(field.default)}\`.`;
  const spec: Json = { description: `${field.description}${defaultText}` };
  const named = TYPED_OUTPUTS[field.name];
  if (field.type === "object" && named) {
    Object.assign(spec, ref(named));
  } else if (field.type === "object" && field.properties) {
    types[token(typeName)] = {
      type: "object",
      description: field.description,
      properties: Object.fromEntries(field.properties.map((p) => [p.name, { type: p.type, description: p.description }])),
      required: field.properties.map((p) => p.name),
    };
    Object.assign(spec, ref(typeName));
  } else if (field.type === "object") {
    Object.assign(spec, OPEN_OBJECT);
  } else {
    spec["type"] = field.type;
  }
  if (field.default !== undefined) spec["default"] = field.default;
  return spec;
}

function functionProperty(field: FunctionField, types: Json): Json {
  const spec: Json = { description: field.description };
  const objectType = (t: { typeName: string; properties: readonly FunctionField[] }) => {
    types[token(t.typeName)] = {
      type: "object",
      description: field.description,
      properties: Object.fromEntries(t.properties.map((p) => [p.name, functionProperty(p, types)])),
      required: t.properties.filter((p) => p.required).map((p) => p.name),
    };
    return ref(t.typeName);
  };
  if (field.type === "array") {
    spec["type"] = "array";
    spec["items"] = field.items === "string" || field.items === undefined ? { type: "string" } : objectType(field.items);
  } else if (field.type === "object" && field.object) {
    Object.assign(spec, objectType(field.object));
  } else {
    spec["type"] = field.type;
  }
  return spec;
}

function agentResource(types: Json): Json {
  const inputProperties: Json = {};
  const inputs: readonly SchemaField[] = AGENT_FIELDS;
  const outputs: readonly (SchemaField & { reliedOn: boolean })[] = AGENT_OUTPUTS;
  for (const field of inputs) inputProperties[field.name] = property(field, `Agent${capitalized(field.name)}`, types);
  const properties: Json = {};
  for (const field of inputs) properties[field.name] = property(field, `Agent${capitalized(field.name)}`, types);
  // An output of the same name as an input (autoScaling) is the service's report of it, with its own shape.
  for (const field of outputs) properties[field.name] = property(field, `Agent${capitalized(field.name)}Status`, types);
  for (const spec of Object.values(properties) as Json[]) delete spec["default"];
  const alwaysSet = [
    ...inputs.filter((f) => f.required || f.default !== undefined).map((f) => f.name),
    ...outputs.filter((f) => f.reliedOn).map((f) => f.name),
  ];
  return {
    description: [
      "An agent of the Agent Hosting Service: a container image run on the service's nodes, scaled between limits. " +
        "A create waits until the agent and its deployment are ready (`waitForReady`, `readyTimeoutSeconds`).",
      examplesSection(SCHEMA_EXAMPLES.Agent),
      IMPORT_SECTION,
    ].join("\n\n"),
    inputProperties,
    requiredInputs: inputs.filter((f) => f.required).map((f) => f.name),
    properties,
    required: [...new Set(alwaysSet)],
  };
}

/** How an agent that exists at the service is adopted: the plugin reads it by its service name, the ID. */
const IMPORT_SECTION = [
  "## Import",
  "",
  "An agent that exists at the service is adopted by its service name, which is the resource's ID; " +
    "the inputs are read back from what the service reports:",
  "",
  "```sh",
  "$ pulumi import agent-hosting:index:Agent <name> <serviceName>",
  "```",
  "",
  "For example, `pulumi import agent-hosting:index:Agent bot voice-bot`. " +
    "The `import` resource option does the same from a program.",
].join("\n");

function providerSettings(): Json {
  return Object.fromEntries(
    PROVIDER_CONFIG_FIELDS.map((f) => [f.name, { type: f.type, description: f.description, ...(f.secret ? { secret: true } : {}) }]),
  );
}

export function buildSchema(version: string): Json {
  const types: Json = serviceObjectTypes(token);
  const resources = { [token("Agent")]: agentResource(types) };
  const functions: Json = {};
  for (const fn of FUNCTIONS) {
    functions[token(fn.name)] = {
      description: `${fn.description}\n\n${examplesSection(SCHEMA_EXAMPLES[fn.name])}`,
      inputs: {
        properties: Object.fromEntries(fn.args.map((a) => [a.name, functionProperty(a, types)])),
        required: fn.args.filter((a) => a.required).map((a) => a.name),
      },
      outputs: {
        properties: Object.fromEntries(fn.result.map((r) => [r.name, functionProperty(r, types)])),
        required: fn.result.filter((r) => r.required).map((r) => r.name),
      },
    };
  }
  return {
    name: PACKAGE_NAME,
    displayName: "Agent Hosting",
    version,
    description: "Agents, secret sets and logs of the Agent Hosting Service.",
    keywords: ["pulumi", "agent-hosting", "category/cloud"],
    license: "Apache-2.0",
    publisher: "agent-hosting",
    repository: `https://github.com/${REPOSITORY}`,
    homepage: `https://github.com/${REPOSITORY}`,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables: providerSettings() },
    provider: {
      description:
        `The agent-hosting provider. Without an explicit provider, the stack config ${PROVIDER_CONFIG_FIELDS.map((f) => f.configKey).join(" and ")} ` +
        `(or the environment variables ${PROVIDER_CONFIG_FIELDS.map((f) => f.env).join(" and ")}) configure the default one.`,
      inputProperties: providerSettings(),
      properties: providerSettings(),
    },
    resources,
    functions,
    types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b))),
    language: {
      go: { importBasePath: GO_IMPORT_PATH, respectSchemaVersion: true },
      // No Gradle files: sdk/java builds with the pom.xml scripts/gen-sdk.mjs writes beside the sources.
      java: { basePackage: JAVA_BASE_PACKAGE, buildFiles: "none" },
      python: {
        packageName: PYTHON_PACKAGE,
        readme: pythonReadme(),
        requires: { pulumi: ">=3.0.0,<4.0.0" },
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
    },
  };
}

/** The text of schema.json: two-space JSON and a final newline. */
export function schemaJson(version: string): string {
  return `${JSON.stringify(buildSchema(version), null, 2)}\n`;
}
