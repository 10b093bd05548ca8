// Control program of the native plugin's figures: `count` do-nothing
// resources of the native control plugin (native-shaped-plugin.cjs), whose
// state has the shape of a native Agent's: the program passes the arguments
// of native-agents.cjs and declares every property the Agent's schema
// (schema.json) declares, as the native Agent class and every SDK generated
// from that schema do, also the optional inputs an Agent without them leaves
// out of its state; the plugin answers check and create with a real native
// Agent's inputs and outputs, read from the state of a stack of native agents.
//
// The engine, the Node SDK and a Node plugin process on the same gRPC stubs
// then do for these resources what they do for native Agents; only this
// package's work (its checks, diffs, requests and readiness wait) is
// missing. Native agents ÷ this stack is the plugin's own cost.
const pulumi = require("@pulumi/pulumi");
const { readFileSync } = require("node:fs");
const { schemaPropertyNames } = require("./schema-names.cjs");

const TYPE = "agent-shaped:index:Agent";
const VERSION = "0.0.1";

class AgentShaped extends pulumi.CustomResource {
  constructor(name, args, declaredNames) {
    const props = { ...args };
    for (const key of declaredNames) if (!(key in props)) props[key] = undefined;
    // As the Agent class does: no promise-leak stack traces while it registers.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(TYPE, name, props, { version: VERSION });
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

module.exports = ({ count, sampleFile, prefix = "shaped" }) => {
  const { inputs } = JSON.parse(readFileSync(sampleFile, "utf8"));
  const declared = schemaPropertyNames();
  for (let i = 0; i < count; i++) {
    const name = `${prefix}-${i}`;
    // The arguments of bench/programs/native-agents.cjs.
    new AgentShaped(name, { serviceName: name, image: inputs.image, autoScaling: inputs.autoScaling }, declared);
  }
  return { count };
};
