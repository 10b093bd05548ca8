/** The request bodies of create and update: their types are generated (src/client/request-types.ts), their fields' rules are src/client/agent-body.ts. */
export type { AutoScalingRequest, CreateAgentBody, UpdateAgentBody } from "./request-types";
