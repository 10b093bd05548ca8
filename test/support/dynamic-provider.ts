/** The provider the serialized text hands to the engine's dynamic-provider process, called as that process calls it. */
import { createAgentDynamicProvider, provider } from "../../src/hosts/dynamic/provider-impl";

export const dynamicProvider = {
  configure: (config: undefined) => provider.configure({ config }),
  check: provider.check,
  diff: provider.diff,
  create: provider.create,
  read: provider.read,
  update: provider.update,
  remove: provider.delete,
  /** Another provider, made as a process makes its own: it resolves its settings at its first request. */
  createDynamicProvider: createAgentDynamicProvider,
};
