/** Invoke: the registry's function of the token, answered with the provider instance's client. */
import type { ProviderCore } from "../../core/provider-core";
import type { InvokeOutcome, Props } from "../../core/resource-entry";

export async function invoke(core: ProviderCore, token: string, args: Props): Promise<InvokeOutcome> {
  const entry = core.function(token);
  return core.talking("", {}, (call) => entry.handler(args, call.client));
}
