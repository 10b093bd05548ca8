/**
 * The provider's functions: `agent-hosting:index:getSecretSet` and
 * `agent-hosting:index:getAgentLogs`, answered with the provider object's
 * client (the same settings as the resources). Bad arguments are returned as
 * failures naming the argument, before any request.
 */
import { InputValidationError, NotFoundError } from "../client/errors";
import { logsQueryFailures } from "../client/logs-query";
import { argNamesOf, secretSetNameProblem } from "../model";
import type { AgentLogsQuery } from "../client/schemas";
import type { AgentHostingClient } from "../client/client";
import type { Props } from "./values";

export const GET_SECRET_SET = "agent-hosting:index:getSecretSet";
export const GET_AGENT_LOGS = "agent-hosting:index:getAgentLogs";

export interface InvokeOutcome {
  result?: Props;
  failures: { property: string; reason: string }[];
}

const SECRET_SET_ARGS = argNamesOf("getSecretSet");
const LOG_ARGS = argNamesOf("getAgentLogs");

type Client = () => Promise<AgentHostingClient>;

function unknownArgs(args: Props, known: readonly string[]): { property: string; reason: string }[] {
  return Object.keys(args)
    .filter((key) => !known.includes(key))
    .map((key) => ({ property: key, reason: `is not an argument of this function; the arguments are ${known.join(", ")}` }));
}

async function getSecretSet(args: Props, client: Client): Promise<InvokeOutcome> {
  const name = args["name"];
  const failures = unknownArgs(args, SECRET_SET_ARGS);
  if (typeof name !== "string") failures.push({ property: "name", reason: "is required and must be a string" });
  else {
    const problem = secretSetNameProblem(name);
    if (problem) failures.push({ property: "name", reason: problem });
  }
  if (failures.length > 0 || typeof name !== "string") return { failures };
  try {
    const set = await (await client()).getSecretSet(name);
    return { result: { name, fieldNames: set.secrets.map((s) => s.fieldName) }, failures: [] };
  } catch (error) {
    if (error instanceof NotFoundError) throw new Error(`secret set "${name}" does not exist (GET ${error.path} answered 404)`);
    throw error;
  }
}

async function getAgentLogs(args: Props, client: Client): Promise<InvokeOutcome> {
  const failures = unknownArgs(args, LOG_ARGS);
  if (typeof args["agentName"] !== "string") failures.push({ property: "agentName", reason: "is required and must be a string" });
  const query = Object.fromEntries(LOG_ARGS.filter((k) => args[k] !== undefined && args[k] !== null).map((k) => [k, args[k]]));
  failures.push(...logsQueryFailures(query as unknown as AgentLogsQuery).filter((f) => !failures.some((g) => g.property === f.property)));
  if (failures.length > 0) return { failures };
  const result = await (await client()).getAgentLogs(query as unknown as AgentLogsQuery);
  return { result: { total: result.total, logs: result.logs }, failures: [] };
}

export async function invoke(token: string, args: Props, client: Client): Promise<InvokeOutcome> {
  try {
    if (token === GET_SECRET_SET) return await getSecretSet(args, client);
    if (token === GET_AGENT_LOGS) return await getAgentLogs(args, client);
  } catch (error) {
    if (error instanceof InputValidationError) return { failures: error.failures };
    throw error;
  }
  throw new Error(`unknown function ${token}; this provider has ${GET_SECRET_SET} and ${GET_AGENT_LOGS}`);
}
