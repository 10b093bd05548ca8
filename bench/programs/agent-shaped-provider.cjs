// The do-nothing provider of bench/programs/agent-shaped.cjs: check, create
// and update answer with a recorded Agent's inputs and outputs (its names and
// its image made the resource's own), diff compares the name and the image,
// create and update wait BENCH_SHAPED_CREATE_MS (as an agent's wait for its
// deployment), delete does nothing. Loaded by Pulumi's dynamic-provider process.
const { readFileSync } = require("node:fs");

let sample;
const recorded = () => (sample ??= JSON.parse(readFileSync(process.env.BENCH_AGENT_SAMPLE, "utf8")));
const createMs = Number(process.env.BENCH_SHAPED_CREATE_MS ?? 0);

function named(props, name, image) {
  const out = { ...props, serviceName: name, name };
  if (image !== undefined && "image" in props) out.image = image;
  const manifest = props.manifest;
  if (manifest && typeof manifest === "object") out.manifest = { ...manifest, metadata: { ...manifest.metadata, name } };
  return out;
}

exports.provider = {
  async check(_olds, news) {
    return { inputs: { ...named(recorded().inputs, news.serviceName, news.image), __urn: news.__urn } };
  },
  async create(inputs) {
    if (createMs > 0) await new Promise((resolve) => setTimeout(resolve, createMs));
    return { id: inputs.serviceName, outs: named(recorded().outputs, inputs.serviceName, inputs.image) };
  },
  async update(_id, _olds, news) {
    if (createMs > 0) await new Promise((resolve) => setTimeout(resolve, createMs));
    return { outs: named(recorded().outputs, news.serviceName, news.image) };
  },
  async diff(_id, olds, news) {
    return { changes: olds.serviceName !== news.serviceName || olds.image !== news.image };
  },
  async delete() {},
};
