/**
 * The stand-in for the service that the provider's own verbs and function
 * handlers talk to under the mocks: the client methods they call, answered
 * from the test's options and the agents created so far, in process.
 */
import type { AgentHostingClient } from "../client/client";
import { NotFoundError } from "../client/errors";
import type { AgentLogsQuery } from "../client/request-types";
import type { FieldSpec } from "../core/field-table";
import type { ImageDigestLookup } from "../core/image-digest-lookup";
import type { SecretSetLookup } from "../core/resource-entry";
import { mockImageDigests } from "./mock-image-digests";
import { logPage } from "./mock-logs";
import type { AgentHostingMocksOptions } from "./options";
import { agentFor } from "./service-answer";

type Json = Record<string, unknown>;

export interface MockService {
  /** The client the verbs and handlers are handed. */
  client: AgentHostingClient;
  /** The secret sets, as check looks them up; undefined when the test gives none (references are not checked). */
  secretSets: SecretSetLookup | undefined;
  /** The image digests, in place of a registry (src/testing/mock-image-digests.ts). */
  imageDigests: ImageDigestLookup;
  /** The agents created so far, by name. */
  agents: Map<string, Json>;
  /** Agent names whose create answers the agent before it is ready (their program does not wait for readiness). */
  answeredUnready: Set<string>;
}

const notFound = (path: string, what: string) => new NotFoundError({ status: 404, code: "NOT_FOUND", message: `${what} not found`, method: "GET", path });

export function mockService(options: AgentHostingMocksOptions, agentFields: readonly FieldSpec[]): MockService {
  const sets = options.secretSets ?? {};
  const logs = options.logs ?? {};
  const agents = new Map<string, Json>();
  const answeredUnready = new Set<string>();
  const client = {
    async createAgent(body: Json): Promise<Json> {
      const agent = agentFor(body, agentFields, !answeredUnready.has(String(body["serviceName"])));
      agents.set(String(body["serviceName"]), agent);
      return agent;
    },
    async getAgent(name: string): Promise<Json> {
      const agent = agents.get(name);
      if (agent === undefined) throw notFound(`/agents/${name}`, `agent "${name}"`);
      return agent;
    },
    async getSecretSet(name: string): Promise<{ secrets: { fieldName: string }[] }> {
      const fields = Object.prototype.hasOwnProperty.call(sets, name) ? sets[name] : undefined;
      if (fields === undefined) throw notFound(`/secrets/${name}`, `secret set "${name}"`);
      return { secrets: fields.map((fieldName) => ({ fieldName })) };
    },
    async getAgentLogs(query: AgentLogsQuery) {
      const lines = Object.prototype.hasOwnProperty.call(logs, query.agentName) ? logs[query.agentName] : undefined;
      const agent = agents.get(query.agentName);
      if (agent === undefined && lines === undefined) throw notFound(`/agents/${query.agentName}/logs`, `agent "${query.agentName}"`);
      const active = agent?.["activeDeploymentId"];
      return logPage(lines ?? [], typeof active === "string" ? active : undefined, query);
    },
  };
  const secretSets: SecretSetLookup | undefined =
    options.secretSets === undefined
      ? undefined
      : async (name) => {
          const fields = Object.prototype.hasOwnProperty.call(sets, name) ? sets[name] : undefined;
          return fields === undefined ? undefined : { name, fieldNames: [...fields] };
        };
  // Only the methods above are called by the verbs and handlers the mocks run (create with waitForReady off, the function handlers).
  return { client: client as unknown as AgentHostingClient, secretSets, imageDigests: mockImageDigests(options), agents, answeredUnready };
}
