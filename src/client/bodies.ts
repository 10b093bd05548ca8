/** The request bodies of create and update, typed from the model's resolved inputs. */
import type { AgentInputs } from "../model";

export interface AutoScalingRequest {
  minAgents: number;
  maxAgents: number;
}

type ServiceFields = Pick<AgentInputs, "serviceName" | "image" | "imagePullSecretSet" | "secretSet" | "autoScaling">;

/** POST /agents. */
export interface CreateAgentBody extends ServiceFields {
  nodeType?: AgentInputs["nodeType"];
  enableNoise?: boolean;
}

/** POST /agents/{name}: the create body without serviceName. */
export type UpdateAgentBody = Omit<CreateAgentBody, "serviceName">;
