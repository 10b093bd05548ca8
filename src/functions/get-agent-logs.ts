/** getAgentLogs: one page of an agent's logs (spec 4.2). */
import * as pulumi from "@pulumi/pulumi";
import type { AgentLogsQuery, LogResult } from "../client/schemas";
import { withProgramClient } from "./settings";

export type GetAgentLogsArgs = AgentLogsQuery;
export type GetAgentLogsResult = LogResult;

export interface GetAgentLogsOutputArgs {
  agentName: pulumi.Input<string>;
  limit?: pulumi.Input<number>;
  offset?: pulumi.Input<number>;
  deploymentId?: pulumi.Input<string>;
  query?: pulumi.Input<string>;
  order?: pulumi.Input<"asc" | "desc">;
  /** Unix seconds or a Date. */
  startTime?: pulumi.Input<number | Date>;
  endTime?: pulumi.Input<number | Date>;
}

export async function getAgentLogs(args: GetAgentLogsArgs): Promise<GetAgentLogsResult> {
  return withProgramClient(`getAgentLogs("${args.agentName}")`, (client) => client.getAgentLogs(args));
}

function toSeconds(value: number | Date): number {
  return value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
}

/** Dates must become seconds before `pulumi.output`, which would flatten a Date into `{}`. */
function timeInput(value: pulumi.Input<number | Date> | undefined): pulumi.Input<number> | undefined {
  if (value === undefined) return undefined;
  if (pulumi.Output.isInstance(value)) return value.apply(toSeconds);
  if (value instanceof Promise) return value.then(toSeconds);
  return toSeconds(value as number | Date);
}

export function getAgentLogsOutput(args: GetAgentLogsOutputArgs): pulumi.Output<GetAgentLogsResult> {
  const normalized = { ...args, startTime: timeInput(args.startTime), endTime: timeInput(args.endTime) };
  return pulumi.output(normalized).apply((resolved) => {
    const query: AgentLogsQuery = { agentName: resolved.agentName };
    for (const key of ["limit", "offset", "deploymentId", "query", "order", "startTime", "endTime"] as const) {
      const value = resolved[key];
      if (value !== undefined) (query as unknown as Record<string, unknown>)[key] = value;
    }
    return getAgentLogs(query);
  });
}
