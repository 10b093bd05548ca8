/**
 * Invoke: the registry's function of the token, answered with the provider
 * instance's client; a function that asks image registries only
 * (getImageDigest) with the provider instance's image digests alone (the
 * same lookup as the Agents' pinning: one registry request per reference),
 * so it needs no service settings.
 */
import type { ProviderCore } from "../../core/provider-core";
import type { InvokeOutcome, Props } from "../../core/resource-entry";

export async function invoke(core: ProviderCore, token: string, args: Props): Promise<InvokeOutcome> {
  const entry = core.function(token);
  const { imageDigests } = core;
  if (entry.registryHandler && imageDigests) return entry.registryHandler(args, { imageDigests });
  return core.talking("", {}, (call) => entry.handler(args, call.client, imageDigests ? { imageDigests, signal: call.signal } : undefined));
}
