/**
 * How the emulator answers where the service's API leaves room. The
 * "emulator" reading is the default; the "other" reading answers the way
 * another service honouring the same API could, so that a client can be
 * tested against both. Each switch can also be set on its own, over either.
 */

/** The two ready flags turn true at different polls: `first` at the deployment's ready time, the other `polls` GETs later. */
export interface ReadyFlagsApart {
  first: "ready" | "activeDeploymentReady";
  /** GETs of the agent that show only the first flag true (≥ 1). */
  polls: number;
}

/**
 * After an agent's create, GET /v1/agents/{name} answers 503 for this many
 * requests, or for this many milliseconds. Requests count once they reach the
 * API: those refused by an injected fault, the rate limit or the key do not.
 */
export type GetOutage = { requests: number } | { ms: number };

export interface ReadingSwitches {
  /** Status of a successful create: 200, or 201 (Created). */
  createStatus: 200 | 201;
  /** Status of a successful delete: 200 with `{ "status": "OK" }`, or 204 with no body. */
  deleteStatus: 200 | 204;
  /** The create answer carries `deployment: null`; GETs show the deployment. */
  deploymentNullOnCreate: boolean;
  /** Fields the API never names, in the agent, the deployment and the manifest (see EXTRA_FIELDS). */
  extraFields: boolean;
  /** Fields the API lists but does not promise are left out (see OMITTED_FIELDS). */
  omitOptionalFields: boolean;
  /** null: both flags turn true together. */
  readyFlagsApart: ReadyFlagsApart | null;
  /** null: no outage. */
  getOutageAfterCreate: GetOutage | null;
  /** An update keeps the value of every field its body leaves out (null clears); otherwise the body replaces the spec. */
  updateMerges: boolean;
}

export type ReadingName = "emulator" | "other";

export const READINGS: Readonly<Record<ReadingName, Readonly<ReadingSwitches>>> = {
  emulator: {
    createStatus: 200,
    deleteStatus: 200,
    deploymentNullOnCreate: false,
    extraFields: false,
    omitOptionalFields: false,
    readyFlagsApart: null,
    getOutageAfterCreate: null,
    updateMerges: false,
  },
  other: {
    createStatus: 201,
    deleteStatus: 204,
    deploymentNullOnCreate: true,
    extraFields: true,
    omitOptionalFields: true,
    readyFlagsApart: { first: "ready", polls: 2 },
    // One more than a client's default retries (3): one GET call fails as a whole.
    getOutageAfterCreate: { requests: 4 },
    updateMerges: true,
  },
};

/**
 * Fields left out under `omitOptionalFields`, as paths in the agent's JSON.
 * The agent's name, activeDeploymentId, ready flags, autoScaling, createdAt
 * and the deployment's id and manifest stay: a client needs them.
 */
export const OMITTED_FIELDS = [
  "updatedAt",
  "activeSessionCount",
  "deployment.serviceId",
  "deployment.createdAt",
  "deployment.updatedAt",
  "deployment.manifest.metadata.namespace",
  "deployment.manifest.spec.clusterLocal",
] as const;

/** Fields added under `extraFields`, as paths in the agent's JSON. */
export const EXTRA_FIELDS = [
  "region",
  "plan",
  "deployment.revision",
  "deployment.phase",
  "deployment.manifest.status",
  "deployment.manifest.metadata.labels",
  "deployment.manifest.spec.resources",
] as const;

/** The reading's switches with the given ones set over it. */
export function resolveReading(name: ReadingName, overrides: Partial<ReadingSwitches>): ReadingSwitches {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return { ...READINGS[name], ...given };
}

/** Why a set of switches cannot be used, or undefined. */
export function readingProblem(s: ReadingSwitches): string | undefined {
  if (s.createStatus !== 200 && s.createStatus !== 201) return "createStatus must be 200 or 201";
  if (s.deleteStatus !== 200 && s.deleteStatus !== 204) return "deleteStatus must be 200 or 204";
  const apart = s.readyFlagsApart;
  if (apart !== null && (!["ready", "activeDeploymentReady"].includes(apart.first) || !Number.isInteger(apart.polls) || apart.polls < 1)) {
    return 'readyFlagsApart must be { first: "ready" | "activeDeploymentReady", polls: integer ≥ 1 }';
  }
  const outage = s.getOutageAfterCreate;
  if (outage !== null) {
    const amount = "requests" in outage ? outage.requests : outage.ms;
    if (!Number.isInteger(amount) || amount < 1) return "getOutageAfterCreate must be { requests: integer ≥ 1 } or { ms: integer ≥ 1 }";
  }
  return undefined;
}
