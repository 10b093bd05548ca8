/**
 * The plugin's functions, invoked through the engine (the provider's settings
 * and key stay in the plugin). The Output forms go through the SDK's
 * `invokeOutput`, which keeps Pulumi's output-invoke rule: in a preview, while
 * a resource the arguments come from is being created, the result is unknown
 * and nothing is invoked.
 */
import * as pulumi from "@pulumi/pulumi";
import { token } from "../core/schema-parts";
import type {
  GetAgentLogsPluginArgs,
  GetAgentLogsPluginOutputArgs,
  GetAgentLogsResult,
  GetImageDigestArgs,
  GetImageDigestOutputArgs,
  GetImageDigestResult,
  GetSecretSetArgs,
  GetSecretSetOutputArgs,
  GetSecretSetResult,
} from "../functions/function-types";
import { withPluginOptions } from "../resources/plugin-options";

const GET_SECRET_SET = token("getSecretSet");
const GET_AGENT_LOGS = token("getAgentLogs");
const GET_IMAGE_DIGEST = token("getImageDigest");

export type {
  GetSecretSetArgs,
  GetSecretSetOutputArgs,
  GetSecretSetResult,
  GetAgentLogsResult,
  GetImageDigestArgs,
  GetImageDigestOutputArgs,
  GetImageDigestResult,
} from "../functions/function-types";

/** The log query, with its times in Unix seconds only (a Date does not travel to the plugin). */
export type GetAgentLogsArgs = GetAgentLogsPluginArgs;

/** GetAgentLogsArgs with every argument a `pulumi.Input`. */
export type GetAgentLogsOutputArgs = GetAgentLogsPluginOutputArgs;

export function getSecretSet(args: GetSecretSetArgs, opts?: pulumi.InvokeOptions): Promise<GetSecretSetResult> {
  return pulumi.runtime.invoke(GET_SECRET_SET, { name: args.name }, withPluginOptions(opts));
}

export function getSecretSetOutput(args: GetSecretSetOutputArgs, opts?: pulumi.InvokeOutputOptions): pulumi.Output<GetSecretSetResult> {
  return pulumi.runtime.invokeOutput(GET_SECRET_SET, { name: args.name }, withPluginOptions(opts));
}

export function getAgentLogs(args: GetAgentLogsArgs, opts?: pulumi.InvokeOptions): Promise<GetAgentLogsResult> {
  return pulumi.runtime.invoke(GET_AGENT_LOGS, { ...args }, withPluginOptions(opts));
}

export function getAgentLogsOutput(args: GetAgentLogsOutputArgs, opts?: pulumi.InvokeOutputOptions): pulumi.Output<GetAgentLogsResult> {
  return pulumi.runtime.invokeOutput(GET_AGENT_LOGS, { ...args }, withPluginOptions(opts));
}

/** The digest `image`'s tag names now, asked of its registry by the plugin (its registry settings and credentials stay in the plugin). */
export function getImageDigest(args: GetImageDigestArgs, opts?: pulumi.InvokeOptions): Promise<GetImageDigestResult> {
  return pulumi.runtime.invoke(GET_IMAGE_DIGEST, { image: args.image }, withPluginOptions(opts));
}

export function getImageDigestOutput(args: GetImageDigestOutputArgs, opts?: pulumi.InvokeOutputOptions): pulumi.Output<GetImageDigestResult> {
  return pulumi.runtime.invokeOutput(GET_IMAGE_DIGEST, { image: args.image }, withPluginOptions(opts));
}
