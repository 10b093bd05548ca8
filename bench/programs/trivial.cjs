// Baseline program: `count` trivial dynamic resources whose create sleeps
// `sleepMs` (as an agent waits for readiness), with the same engine,
// parallelism and dynamic-provider process as the agents.
const pulumi = require("@pulumi/pulumi");

const sleeper = {
  async create(inputs) {
    await new Promise((resolve) => setTimeout(resolve, inputs.sleepMs));
    return { id: inputs.name, outs: inputs };
  },
  async diff(_id, olds, news) {
    return { changes: olds.name !== news.name || olds.sleepMs !== news.sleepMs };
  },
  async delete() {},
};

class Sleeper extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(sleeper, name, args, opts, "bench", "Sleeper");
  }
}

module.exports = ({ count, sleepMs = 2000, prefix = "trivial" }) => {
  for (let i = 0; i < count; i++) new Sleeper(`${prefix}-${i}`, { name: `${prefix}-${i}`, sleepMs });
  return { count };
};
