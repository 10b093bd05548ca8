/** getAgentLogs: one page of an agent's logs. */
import * as pulumi from "@pulumi/pulumi";
import { InputValidationError } from "../client/errors";
import { boundSeconds, logsQueryFailures, typedLogsQuery } from "../client/logs-query";
import { outputCall } from "./output-call";
import type { OutputCallOptions } from "./output-call";
import { withProgramClient } from "./program-client";

import type { GetAgentLogsArgs, GetAgentLogsOutputArgs, GetAgentLogsResult } from "./function-types";

export type { GetAgentLogsArgs, GetAgentLogsOutputArgs, GetAgentLogsResult } from "./function-types";

export async function getAgentLogs(args: GetAgentLogsArgs): Promise<GetAgentLogsResult> {
  return withProgramClient(`getAgentLogs("${args.agentName}")`, (client) => client.getAgentLogs(args));
}

/** A bound as the client sends it: a Date's start rounds down, its end rounds up. A Date is turned into seconds before `pulumi.output`, which would flatten it into `{}`. */
function timeInput(value: pulumi.Input<number | Date> | undefined, edge: "start" | "end"): pulumi.Input<number> | undefined {
  if (value === undefined) return undefined;
  const seconds = (v: number | Date) => boundSeconds(v, edge);
  if (pulumi.Output.isInstance(value)) return value.apply(seconds);
  if (value instanceof Promise) return value.then(seconds);
  return seconds(value as number | Date);
}

/** getAgentLogs with `pulumi.Input` arguments; unknown in a preview while the agent it names is being created. */
export function getAgentLogsOutput(args: GetAgentLogsOutputArgs, opts?: OutputCallOptions): pulumi.Output<GetAgentLogsResult> {
  const normalized = { ...args, startTime: timeInput(args.startTime, "start"), endTime: timeInput(args.endTime, "end") };
  return outputCall(
    normalized,
    (resolved) => {
      // Members of a wrong type (from JavaScript) are named, as the client names them, not dropped.
      const failures = logsQueryFailures(resolved);
      if (failures.length === 0) return getAgentLogs(typedLogsQuery(resolved, resolved.agentName));
      return withProgramClient(`getAgentLogs("${String(resolved.agentName)}")`, () => Promise.reject(new InputValidationError(failures)));
    },
    opts,
  );
}
