/**
 * The Agent provider object: every verb of the resource, over the client and
 * the log it is built with. The dynamic provider builds one from the stack
 * config the engine passes to `configure`; the native plugin builds one per
 * provider instance. Nothing is kept outside the object.
 */
import type { AgentHostingClient } from "../client/client";
import { checkAgentInputs, type CheckOutcome } from "./check";
import type { Props, VerbContext } from "./context";
import { createVerb } from "./create";
import { deleteVerb } from "./delete";
import { diffAgent, type DiffOutcome } from "./diff";
import type { ProviderLog } from "./engine-log";
import { urnOf } from "./finish";
import { InterruptedError, type Cancellable } from "./interrupt";
import { PollGate } from "./poll-gate";
import { readVerb } from "./read";
import { localUpdate, updateTalksToService, updateVerb } from "./update";

export interface AgentProviderOptions {
  /**
   * The configured client. Called by the first verb that talks to the
   * service, so a preview's check and diff never load the HTTP stack.
   */
  client: () => Promise<AgentHostingClient>;
  log: ProviderLog;
}

export interface AgentProvider extends Cancellable {
  check(olds: Props, news: Props): Promise<CheckOutcome>;
  diff(id: string, olds: Props, news: Props): Promise<DiffOutcome>;
  create(props: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props | undefined): Promise<{ id: string; props: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string): Promise<void>;
  /** The configured client, which the provider's functions (getSecretSet, getAgentLogs) share. */
  client(): Promise<AgentHostingClient>;
  log: ProviderLog;
}

export function createAgentProvider(options: AgentProviderOptions): AgentProvider {
  const { log } = options;
  const cancelled = new AbortController();
  const gate = new PollGate();
  let inFlight = 0;
  const talking = async <T>(verb: (context: VerbContext) => Promise<T>): Promise<T> => {
    inFlight++;
    try {
      return await verb({ client: await options.client(), log, signal: cancelled.signal, gate });
    } finally {
      inFlight--;
    }
  };
  return {
    check: async (olds, news) => checkAgentInputs(olds, news),
    diff: async (_id, olds, news) => {
      const outcome = diffAgent(olds, news);
      if (outcome.changes && outcome.localOnly && outcome.changed.length > 0) {
        await log.info(
          `agent "${String(news["serviceName"])}": only ${outcome.changed.join(", ")} changed, which the provider keeps in the state; nothing is sent to the service`,
          urnOf(news),
        );
      }
      return outcome;
    },
    create: (props) => talking((context) => createVerb(props, context)),
    read: (id, props) => talking((context) => readVerb(id, props, context)),
    update: async (id, olds, news) => {
      const request = { id, olds, news, changes: diffAgent(olds, news) };
      return updateTalksToService(request) ? talking((context) => updateVerb(request, context)) : localUpdate(olds, news);
    },
    delete: (id) => talking((context) => deleteVerb(id, context)),
    client: options.client,
    log,
    busy: () => inFlight,
    cancel: (reason) => cancelled.abort(new InterruptedError(reason)),
  };
}
