/**
 * The dynamic provider: what the serialized shim (shim.ts) hands to Pulumi's
 * dynamic-provider process, loaded from the installed package at call time,
 * so no code, client or key is captured into the state.
 *
 * `createDynamicProvider` adapts the provider object to the dynamic
 * interface: `configure` receives the stack config, and the provider object
 * is built from it. The named functions below serve the longer texts that
 * earlier versions stored in states, which call them one by one.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ConfigSource } from "../config";
import { createAgentProvider, type AgentProvider } from "./agent-provider";
import { clientMaker, type ExtraClientOptions } from "./connection";
import type { Props } from "./context";
import { dynamicEngineRpc, dynamicProviderEngineAddress } from "./dynamic-engine-rpc";
import { createEngineLog, type ProviderLog } from "./engine-log";
import { exitOnSignals } from "./interrupt";

export interface DynamicProviderOptions {
  /** Client options beyond the settings; tests pass an undici MockAgent as `dispatcher`. */
  client?: ExtraClientOptions;
  /** Where lines go; by default the engine of the dynamic-provider process this runs in, else stderr. */
  log?: ProviderLog;
  /** The process's arguments, which tell whether this is the engine's provider process. */
  argv?: readonly string[];
}

export interface DynamicProvider extends Pick<AgentProvider, "check" | "diff" | "create" | "update" | "delete"> {
  configure(req: { config: ConfigSource | undefined }): Promise<void>;
  read(id: string, props?: Props): ReturnType<AgentProvider["read"]>;
}

export function createDynamicProvider(options: DynamicProviderOptions = {}): DynamicProvider {
  const argv = options.argv ?? process.argv;
  const address = dynamicProviderEngineAddress(argv);
  const log = options.log ?? createEngineLog(() => (address === undefined ? undefined : dynamicEngineRpc(address)));
  const build = (config: ConfigSource | undefined) => createAgentProvider({ client: clientMaker(config, log, options.client), log });
  let current: AgentProvider = build(undefined);
  // Inside the engine's provider process, SIGINT and SIGTERM cancel the calls in flight.
  if (address !== undefined) exitOnSignals({ busy: () => current.busy(), cancel: (reason) => current.cancel(reason) });
  return {
    configure: async (req) => {
      current = build(req.config);
    },
    check: (olds: Props, news: Props) => current.check(olds, news),
    diff: (id: string, olds: Props, news: Props) => current.diff(id, olds, news),
    create: (props: Props) => current.create(props),
    read: (id: string, props?: Props) => current.read(id, props),
    update: (id: string, olds: Props, news: Props) => current.update(id, olds, news),
    delete: (id: string) => current.delete(id),
  };
}

/** The provider the serialized text hands to Pulumi's dynamic-provider process (one per process). */
export const provider = createDynamicProvider() satisfies DynamicProvider & pulumi.dynamic.ResourceProvider;

export const configure = (config: ConfigSource | undefined): Promise<void> => provider.configure({ config });
export const check = (olds: Props, news: Props) => provider.check(olds, news);
export const diff = (id: string, olds: Props, news: Props) => provider.diff(id, olds, news);
export const create = (props: Props) => provider.create(props);
export const read = (id: string, props?: Props) => provider.read(id, props);
export const update = (id: string, olds: Props, news: Props) => provider.update(id, olds, news);
export const remove = (id: string): Promise<void> => provider.delete(id);
