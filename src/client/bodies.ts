/** The request bodies of create and update, typed from the model's field table. */
import type { AGENT_FIELDS } from "../resources/agent/fields";
import type { AgentInputs } from "../resources/agent/inputs-outputs";

type Field = (typeof AGENT_FIELDS)[number];
/** The fields the service receives. */
type ServiceFieldName = Extract<Field, { sentTo: "service" }>["name"];
type RequiredFieldName = Extract<Field, { required: true }>["name"];

export type AutoScalingRequest = NonNullable<AgentInputs["autoScaling"]>;

/** POST /agents: the required fields, and every other service field optionally. */
export type CreateAgentBody = Pick<AgentInputs, RequiredFieldName> & Partial<Pick<AgentInputs, Exclude<ServiceFieldName, RequiredFieldName>>>;

type Optional = Exclude<ServiceFieldName, RequiredFieldName>;

/**
 * POST /agents/{name}: the create body without serviceName. An optional field
 * may be null, which a service that merges updates reads as "none".
 */
export type UpdateAgentBody = Pick<AgentInputs, Exclude<RequiredFieldName, "serviceName">> & {
  [K in Optional]?: AgentInputs[K] | null;
};
