/** The request bodies of create and update, generated from the model's field table (src/client/request-types.ts). */
export type { AutoScalingRequest, CreateAgentBody, UpdateAgentBody } from "./request-types";
