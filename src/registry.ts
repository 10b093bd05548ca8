/**
 * Every resource and function the package serves, registered once. The gRPC
 * host, the dynamic host, the package schema, the generated types and the
 * README tables iterate it; a new resource is a folder under src/resources/
 * and one line here, a new function one handler and one line.
 */
import type { Registry } from "./core/resource-entry";
import { GET_AGENT_LOGS, GET_IMAGE_DIGEST, GET_SECRET_SET } from "./functions/handlers";
import { AGENT } from "./resources/agent/entry";

export const REGISTRY: Registry = {
  resources: [AGENT],
  functions: [GET_SECRET_SET, GET_AGENT_LOGS, GET_IMAGE_DIGEST],
};
