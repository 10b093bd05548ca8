// Control program: `count` do-nothing dynamic resources whose state has the
// shape of an Agent's: the program passes the agents program's arguments
// (serviceName, image, autoScaling) and the URN, declares every property the
// Agent's schema (schema.json) declares, as the Agent class does, also the
// optional inputs an Agent without them leaves out of its state, the
// serialized provider is a one-line module like the Agent's, and the
// provider (agent-shaped-provider.cjs) answers check and create with a real
// Agent's inputs and outputs, read from the state of a stack of agents.
//
// The engine, the Node SDK and Pulumi's dynamic-provider process then do for
// these resources what they do for Agents; only this package's work (its
// checks, diffs, requests and readiness wait) is missing. Agents ÷ this stack
// is the package's own cost; this stack ÷ trivial resources is the cost of an
// Agent's state in the engine and the SDKs.
//
// Environment of the provider process (set on the stack): BENCH_AGENT_SAMPLE,
// the file with one Agent's `{ inputs, outputs }`; BENCH_SHAPED_CREATE_MS,
// how long create and update wait (as an agent waits for readiness), 0 by
// default. `image` replaces the recorded Agent's image (an image bump, as
// the agents program's `image` does).
const pulumi = require("@pulumi/pulumi");
const { readFileSync } = require("node:fs");
const { schemaPropertyNames } = require("./schema-names.cjs");

const TYPE = "pulumi-nodejs:dynamic/agent-hosting:AgentShaped";
const PROVIDER_SOURCE = `exports.handler = () => require(${JSON.stringify(require.resolve("./agent-shaped-provider.cjs"))}).provider;\n`;

class AgentShaped extends pulumi.CustomResource {
  constructor(name, args, declaredNames) {
    const props = { ...args, __urn: `urn:pulumi:${pulumi.getStack()}::${pulumi.getProject()}::${TYPE}::${name}` };
    for (const key of declaredNames) if (!(key in props)) props[key] = undefined;
    props.__provider = PROVIDER_SOURCE;
    // As the Agent class does: no promise-leak stack traces while it registers.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(TYPE, name, props);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

module.exports = ({ count, sampleFile, prefix = "shaped", image }) => {
  const { inputs } = JSON.parse(readFileSync(sampleFile, "utf8"));
  const declared = schemaPropertyNames();
  for (let i = 0; i < count; i++) {
    const name = `${prefix}-${i}`;
    // The arguments of bench/programs/agents.cjs.
    new AgentShaped(name, { serviceName: name, image: image ?? inputs.image, autoScaling: inputs.autoScaling }, declared);
  }
  return { count };
};
