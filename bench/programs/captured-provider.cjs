// Control for the code-size figure: a dynamic provider whose methods close
// over their implementation (here a table of `tableBytes` characters that
// `create` reads). Pulumi's closure serializer captures what the methods
// reference, so this provider's serialized size grows with its
// implementation: the measurement that shows the Agent's provider does not
// grow is one that can see growth.
const pulumi = require("@pulumi/pulumi");

module.exports = ({ count = 1, tableBytes }) => {
  const implementation = { table: "t".repeat(tableBytes) };
  const provider = {
    async create(inputs) {
      return { id: inputs.name, outs: { ...inputs, tableLength: implementation.table.length } };
    },
    async diff(_id, olds, news) {
      return { changes: olds.name !== news.name };
    },
    async delete() {},
  };
  class Captured extends pulumi.dynamic.Resource {
    constructor(name, args, opts) {
      super(provider, name, { ...args, tableLength: undefined }, opts, "bench", "Captured");
    }
  }
  for (let i = 0; i < count; i++) new Captured(`captured-${i}`, { name: `captured-${i}` });
  return { count };
};
