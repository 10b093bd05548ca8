/** The plugin's functions, invoked through the engine (the provider's settings and key stay in the plugin). */
import * as pulumi from "@pulumi/pulumi";
import type { GetAgentLogsResult } from "../../functions/get-agent-logs";
import type { GetSecretSetArgs, GetSecretSetResult } from "../../functions/get-secret-set";
import { withVersion } from "./version";

export interface GetAgentLogsArgs {
  agentName: string;
  limit?: number;
  offset?: number;
  deploymentId?: string;
  query?: string;
  order?: "asc" | "desc";
  /** Unix seconds. */
  startTime?: number;
  endTime?: number;
}

export function getSecretSet(args: GetSecretSetArgs, opts?: pulumi.InvokeOptions): Promise<GetSecretSetResult> {
  return pulumi.runtime.invoke("agent-hosting:index:getSecretSet", { name: args.name }, withVersion(opts));
}

export function getAgentLogs(args: GetAgentLogsArgs, opts?: pulumi.InvokeOptions): Promise<GetAgentLogsResult> {
  return pulumi.runtime.invoke("agent-hosting:index:getAgentLogs", { ...args }, withVersion(opts));
}
