// Control for the preview figure: do-nothing dynamic resources that carry
// exactly the inputs and outputs of a real Agent, with a provider that does
// nothing. Agents / this stack isolates the provider's own cost from the
// engine's per-property cost of the Agent's state.
//
// `sampleFile` holds one Agent's `{ inputs, outputs }` from its stack's state
// (written by the bench). The program declares the inputs; the provider,
// which captures nothing, reads the outputs at create time from the same
// file, named by BENCH_AGENT_SAMPLE in the provider process's environment
// (set on the stack), so neither the state's inputs nor the serialized
// provider carry more than an Agent's do.
const pulumi = require("@pulumi/pulumi");
const { readFileSync } = require("node:fs");

const provider = {
  async create(props) {
    const recorded = JSON.parse(require("node:fs").readFileSync(process.env.BENCH_AGENT_SAMPLE, "utf8")).outputs;
    return { id: props.serviceName, outs: { ...recorded, ...props } };
  },
  async diff(_id, olds, news) {
    return { changes: olds.serviceName !== news.serviceName };
  },
  async delete() {},
};

class Sized extends pulumi.dynamic.Resource {
  constructor(name, args, outputKeys, opts) {
    const declared = Object.fromEntries(outputKeys.map((k) => [k, undefined]));
    super(provider, name, { ...declared, ...args }, opts, "bench", "Sized");
  }
}

module.exports = ({ count, sampleFile }) => {
  const { inputs, outputs } = JSON.parse(readFileSync(sampleFile, "utf8"));
  for (let i = 0; i < count; i++) {
    const name = `sized-${i}`;
    new Sized(name, { ...inputs, serviceName: name }, Object.keys(outputs));
  }
  return { count };
};
