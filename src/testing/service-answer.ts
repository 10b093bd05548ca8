/**
 * The agent a create answers, built from the create body
 * the provider sends (src/core/field-table.ts's `manifest` mapping of each
 * field, the service's choices for what the body leaves out), as the mocks'
 * stand-in for the service answers it.
 */
import type { FieldSpec } from "../core/field-table";
import { derivedId, MOCK_TIME } from "./mock-clock";
import { CHOSEN_WHEN_LEFT_OUT, MANIFEST_HEAD, SPEC_EXTRAS } from "./service-choices";

type Json = Record<string, unknown>;

function setAt(target: Json, path: readonly string[], value: unknown): void {
  let node = target;
  path.slice(0, -1).forEach((key) => {
    const next = node[key];
    node = typeof next === "object" && next !== null ? (next as Json) : (node[key] = {});
  });
  node[path[path.length - 1] as string] = value;
}

function valueAt(source: Json, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (typeof node === "object" && node !== null ? (node as Json)[key] : undefined), source);
}

/** The manifest value of each field the service reports, from the body (or the service's choice when the body leaves it out). */
function manifestSpec(body: Json, fields: readonly FieldSpec[]): Json {
  const spec: Json = {};
  for (const field of fields) {
    if (field.sentTo !== "service" || !field.manifest) continue;
    const sent = body[field.name];
    let value: unknown;
    if (sent === undefined && field.undeclared === "keep") {
      if (!(field.name in CHOSEN_WHEN_LEFT_OUT)) throw new Error(`agentHostingMocks: no service choice is known for ${field.name} left out of a create`);
      value = CHOSEN_WHEN_LEFT_OUT[field.name];
    } else {
      value = field.manifest.toManifest(sent ?? field.default);
    }
    if (value !== undefined) setAt(spec, field.manifest.path, value);
  }
  return { ...spec, ...SPEC_EXTRAS };
}

/**
 * The service's agent for a create body, with ids derived from the body:
 * `ready`, the agent once its one deployment serves (what a create that
 * waits stores); else the create's own answer, before it is ready.
 */
export function agentFor(body: Json, fields: readonly FieldSpec[], ready: boolean): Json {
  const name = String(body["serviceName"]);
  const spec = manifestSpec(body, fields);
  const deploymentId = derivedId("dep", body);
  const agent: Json = {
    name,
    ready,
    createdAt: MOCK_TIME,
    updatedAt: MOCK_TIME,
    activeDeploymentId: deploymentId,
    desiredDeploymentId: deploymentId,
    activeDeploymentReady: ready,
    available: ready,
    activeSessionCount: 0,
    deployment: {
      id: deploymentId,
      serviceId: derivedId("svc", name),
      createdAt: MOCK_TIME,
      updatedAt: MOCK_TIME,
      manifest: {
        apiVersion: MANIFEST_HEAD.apiVersion,
        kind: MANIFEST_HEAD.kind,
        metadata: { name, namespace: MANIFEST_HEAD.namespace },
        spec,
      },
    },
  };
  // A field the service reports at the top of its answer (field.answer) is there under its own name, in manifest form.
  for (const field of fields) if (field.answer && field.manifest) agent[field.name] = valueAt(spec, field.manifest.path);
  return agent;
}
