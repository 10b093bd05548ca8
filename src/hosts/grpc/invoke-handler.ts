/**
 * Invoke: the registry's function of the token, answered with the provider
 * instance's client, and its image digests for getImageDigest (the same
 * lookup as the Agents' pinning: one registry request per reference).
 */
import type { ProviderCore } from "../../core/provider-core";
import type { InvokeOutcome, Props } from "../../core/resource-entry";

export async function invoke(core: ProviderCore, token: string, args: Props): Promise<InvokeOutcome> {
  const entry = core.function(token);
  const { imageDigests } = core;
  return core.talking("", {}, (call) => entry.handler(args, call.client, imageDigests ? { imageDigests, signal: call.signal } : undefined));
}
