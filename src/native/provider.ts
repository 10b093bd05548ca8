/** An explicit agent-hosting provider (one account), served by the native plugin. */
import * as pulumi from "@pulumi/pulumi";
import { withPluginOptions } from "../resources/plugin-options";

export interface ProviderArgs {
  /** API key of the account; kept secret. Falls back to AGENT_HOSTING_API_KEY. */
  apiKey?: pulumi.Input<string>;
  /** Base URL ending in /v1. Falls back to AGENT_HOSTING_BASE_URL. */
  baseUrl?: pulumi.Input<string>;
  /** Allows plain http to a host other than loopback (the key then travels unencrypted). Falls back to AGENT_HOSTING_ALLOW_INSECURE_HTTP. */
  allowInsecureHttp?: pulumi.Input<boolean>;
}

export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const props = { apiKey: args.apiKey === undefined ? undefined : pulumi.secret(args.apiKey), baseUrl: args.baseUrl, allowInsecureHttp: args.allowInsecureHttp };
    super("agent-hosting", name, props, withPluginOptions(opts));
  }
}
