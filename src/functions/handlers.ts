/**
 * The functions' registrations: getSecretSet and getAgentLogs, answered with
 * the provider instance's client (the same settings as the resources), and
 * getImageDigest, answered with the provider instance's image digests (the
 * same registries, credentials and one request per reference as the Agents'
 * pinning). Bad arguments are answered as failures naming the argument,
 * before any request.
 */
import type { AgentHostingClient } from "../client/client";
import { InputValidationError, NotFoundError } from "../client/errors";
import { logsQueryFailures, typedLogsQuery } from "../client/logs-query";
import { secretSetNameProblem } from "../client/service-names";
import { ImageRegistryError } from "../image-registry/registry-errors";
import type { RuleFailure } from "../client/field-rules";
import type { FunctionContext, FunctionEntry, InvokeOutcome, Props } from "../core/resource-entry";
import { token } from "../core/schema-parts";
import { argNamesOf, docOf } from "./function-fields";
import type { FunctionDoc } from "./function-fields";

function unknownArgs(args: Props, known: readonly string[]): RuleFailure[] {
  return Object.keys(args)
    .filter((key) => !known.includes(key))
    .map((key) => ({ property: key, reason: `is not an argument of this function; the arguments are ${known.join(", ")}` }));
}

/** Argument failures come back as failures, not errors: the engine names each argument. */
async function answering(run: () => Promise<InvokeOutcome>): Promise<InvokeOutcome> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof InputValidationError) return { failures: error.failures };
    throw error;
  }
}

async function getSecretSet(args: Props, client: AgentHostingClient): Promise<InvokeOutcome> {
  const name = args["name"];
  const failures = unknownArgs(args, argNamesOf("getSecretSet"));
  if (typeof name !== "string") failures.push({ property: "name", reason: "is required and must be a string" });
  else {
    const problem = secretSetNameProblem(name);
    if (problem) failures.push({ property: "name", reason: problem });
  }
  if (failures.length > 0 || typeof name !== "string") return { failures };
  try {
    const set = await client.getSecretSet(name);
    return { result: { name, fieldNames: set.secrets.map((s) => s.fieldName) }, failures: [] };
  } catch (error) {
    if (error instanceof NotFoundError) throw new Error(`secret set "${name}" does not exist (GET ${error.path} answered 404)`);
    throw error;
  }
}

async function getAgentLogs(args: Props, client: AgentHostingClient): Promise<InvokeOutcome> {
  const failures = unknownArgs(args, argNamesOf("getAgentLogs"));
  const agentName = args["agentName"];
  if (typeof agentName !== "string") failures.push({ property: "agentName", reason: "is required and must be a string" });
  const given = Object.fromEntries(argNamesOf("getAgentLogs").filter((k) => args[k] !== undefined && args[k] !== null).map((k) => [k, args[k]]));
  failures.push(...logsQueryFailures(given).filter((f) => !failures.some((g) => g.property === f.property)));
  if (failures.length > 0 || typeof agentName !== "string") return { failures };
  const result = await client.getAgentLogs(typedLogsQuery(args, agentName));
  return { result: { total: result.total, logs: result.logs }, failures: [] };
}

async function getImageDigest(args: Props, context: FunctionContext | undefined): Promise<InvokeOutcome> {
  const failures = unknownArgs(args, argNamesOf("getImageDigest"));
  const image = args["image"];
  if (typeof image !== "string" || image === "") failures.push({ property: "image", reason: "is required and must be a non-empty string" });
  if (failures.length > 0 || typeof image !== "string") return { failures };
  if (context === undefined) throw new Error("getImageDigest: this provider answers no image digests (no registry settings were given to it)");
  try {
    const resolved = await context.imageDigests.resolve(image, context.signal);
    return { result: { image, digest: resolved.digest, pinnedImage: resolved.pinnedImage }, failures: [] };
  } catch (error) {
    // The image itself is malformed: a failure naming the argument, like any other bad argument.
    if (error instanceof ImageRegistryError && error.kind === "invalid-reference") return { failures: [{ property: "image", reason: error.message }] };
    throw error;
  }
}

function entry(name: FunctionDoc["name"], handler: FunctionEntry["handler"]): FunctionEntry {
  const doc = docOf(name);
  return { ...doc, token: token(name), handler: (args, client, context) => answering(() => handler(args, client, context)) };
}

export const GET_SECRET_SET = entry("getSecretSet", getSecretSet);
export const GET_AGENT_LOGS = entry("getAgentLogs", getAgentLogs);
/** getImageDigest asks registries only: the hosts answer it without the service's settings (registryHandler). */
export const GET_IMAGE_DIGEST: FunctionEntry = {
  ...entry("getImageDigest", (args, _client, context) => getImageDigest(args, context)),
  registryHandler: (args, context) => answering(() => getImageDigest(args, context)),
};
