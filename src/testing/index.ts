/**
 * `pulumi-agent-hosting/testing`: mocks for unit tests of programs that
 * declare agents, for `pulumi.runtime.setMocks`. An Agent is checked by the
 * provider's own check (a refused input fails its registration with the
 * preview's message) and created by the provider's own create against an
 * in-process stand-in for the service, so its outputs are what an `up`
 * against the service gives for those inputs: ready, its manifest, a
 * deployment id derived from what is sent. The functions answer from the
 * secret sets and log lines the test gives, in both their engine (invoke)
 * and program-process forms. Every other resource and call
 * goes to the test's own mocks.
 */
import type * as pulumi from "@pulumi/pulumi";
import { setProgramClientStandIn, setProgramImageDigestsStandIn } from "../core/program-client-stand-in";
import type { Props } from "../core/resource-entry";
import { REGISTRY } from "../registry";
import { mockCreate } from "./agent-mock";
import { mockService } from "./mock-service";
import type { AgentHostingMocksOptions } from "./options";
import { MockRefusalError } from "./refusal";

export type { AgentHostingMocksOptions, MockLogLine } from "./options";
export { MockRefusalError } from "./refusal";
export { MOCK_TIME } from "./mock-clock";

const resourceOf = (type: string) => REGISTRY.resources.find((r) => r.nativeType === type || r.dynamicType === type);
const functionOf = (token: string) => REGISTRY.functions.find((f) => f.token === token);

export function agentHostingMocks(options: AgentHostingMocksOptions = {}): pulumi.runtime.Mocks {
  const agentEntry = REGISTRY.resources.find((r) => r.name === "Agent");
  if (!agentEntry) throw new Error("agentHostingMocks: the package registers no Agent");
  const service = mockService(options, agentEntry.fields);
  // The package root's functions run in the program's process, not through the engine's invoke: they ask these stand-ins.
  setProgramClientStandIn(service.client);
  setProgramImageDigestsStandIn(service.imageDigests);
  const own = options.mocks;
  return {
    async newResource(args) {
      const entry = resourceOf(args.type);
      if (!entry) return own ? own.newResource(args) : { id: `${args.name}-id`, state: args.inputs as Props };
      if (args.id !== undefined && args.id !== "") {
        // A read (`Agent.get`, an import): an agent this program created under the mocks, else the test's own answer.
        const created = service.agents.get(args.id);
        if (created === undefined && own) return own.newResource(args);
        const answer = await service.client.getAgent(args.id);
        return { id: args.id, state: { ...answer, serviceName: args.id } };
      }
      return mockCreate(entry, service, { type: args.type, name: args.name, inputs: args.inputs as Props });
    },
    async call(args) {
      const fn = functionOf(args.token);
      if (!fn) {
        if (own) return own.call(args);
        throw new Error(`agentHostingMocks: no mock for the call ${args.token}; pass your own in the options' \`mocks\``);
      }
      const outcome = await fn.handler(args.inputs as Props, service.client, { imageDigests: service.imageDigests });
      if (outcome.failures.length > 0) throw new MockRefusalError(fn.name, outcome.failures);
      return outcome.result ?? {};
    },
  };
}
