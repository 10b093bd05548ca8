/**
 * The Pulumi package schema of the native provider, built from the registry:
 * each resource's and function's part, and the provider's settings.
 * scripts/gen-schema.mjs writes it to schema.json; the SDKs for Python, Go
 * and Java are generated from that file.
 */
import type { Json, Registry } from "../../core/resource-entry";
import { PLUGIN_DOWNLOAD_URL, REPOSITORY } from "../../core/plugin-download-url";
import { examplesSection, pythonReadme } from "../../core/schema-docs";
import { PACKAGE_NAME, functionProperty } from "../../core/schema-parts";
import { PROVIDER_SETTINGS } from "../../core/settings";
import { REGISTRY } from "../../registry";

export { PACKAGE_NAME };
/** The Go module of the generated Go SDK (sdk/go/go.mod) and the import path of its package. */
export const GO_MODULE = `github.com/${REPOSITORY}/sdk/go`;
export const GO_IMPORT_PATH = `${GO_MODULE}/agenthosting`;
export const PYTHON_PACKAGE = "pulumi_agent_hosting";

const andList = (items: readonly string[]): string => `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

function providerSettings(): Json {
  return Object.fromEntries(
    PROVIDER_SETTINGS.map((f) => [f.name, { type: f.type, description: f.description, ...(f.secret ? { secret: true } : {}) }]),
  );
}

export function buildSchema(version: string, registry: Registry = REGISTRY): Json {
  const types: Json = {};
  const resources: Json = {};
  for (const resource of registry.resources) resources[resource.nativeType] = resource.schema(types);
  const functions: Json = {};
  for (const fn of registry.functions) {
    functions[fn.token] = {
      description: fn.examples ? `${fn.description}\n\n${examplesSection(fn.examples)}` : fn.description,
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
        `The agent-hosting provider. Without an explicit provider, the stack config ${andList(PROVIDER_SETTINGS.map((f) => f.configKey))} ` +
        `(or the environment variables ${andList(PROVIDER_SETTINGS.map((f) => f.env))}) configure the default one.`,
      inputProperties: providerSettings(),
      properties: providerSettings(),
    },
    resources,
    functions,
    types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b))),
    language: {
      go: { importBasePath: GO_IMPORT_PATH, respectSchemaVersion: true },
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
export function schemaJson(version: string, registry: Registry = REGISTRY): string {
  return `${JSON.stringify(buildSchema(version, registry), null, 2)}\n`;
}
