// The native control: a do-nothing provider plugin (`pulumi-resource-agent-shaped`)
// whose one resource, agent-shaped:index:Agent, has the token shape of the
// Agent's and answers check and create with a recorded native Agent's inputs
// and outputs (its names made the resource's own). Diff compares the name and
// the image, delete does nothing. It serves Pulumi's ResourceProvider service
// on the same stubs and gRPC library as the real plugin
// (src/hosts/grpc/grpc-server.ts), and bench/lib/native-control.mjs bundles
// and installs it the way the real plugin is installed, so the engine spawns
// it as a plugin process of its own.
//
// Environment (the engine passes on the stack's): BENCH_AGENT_SAMPLE, the
// file with one native Agent's `{ inputs, outputs }`; BENCH_SHAPED_CREATE_MS,
// how long create waits (as an agent waits for readiness), 0 by default.
const { readFileSync } = require("node:fs");
const grpc = require("@grpc/grpc-js");
const { Empty } = require("google-protobuf/google/protobuf/empty_pb");
const { Struct } = require("google-protobuf/google/protobuf/struct_pb");
const { PluginInfo } = require("@pulumi/pulumi/proto/plugin_pb");
const { ResourceProviderService } = require("@pulumi/pulumi/proto/provider_grpc_pb");
const proto = require("@pulumi/pulumi/proto/provider_pb");

const VERSION = "0.0.1";
const SCHEMA = JSON.stringify({ name: "agent-shaped", version: VERSION, resources: { "agent-shaped:index:Agent": { properties: {}, inputProperties: {} } } });

let sample;
const recorded = () => (sample ??= JSON.parse(readFileSync(process.env.BENCH_AGENT_SAMPLE, "utf8")));
const createMs = Number(process.env.BENCH_SHAPED_CREATE_MS ?? 0);

function named(props, name) {
  const out = { ...props, serviceName: name, name };
  const manifest = props.manifest;
  if (manifest && typeof manifest === "object") out.manifest = { ...manifest, metadata: { ...manifest.metadata, name } };
  return out;
}

const plain = (struct) => (struct ? struct.toJavaScript() : {});
const struct = (props) => Struct.fromJavaScript(props);

const unary = (handler) => (call, callback) =>
  Promise.resolve()
    .then(() => handler(call.request))
    .then(
      (value) => callback(null, value),
      (error) => callback({ code: grpc.status.UNKNOWN, details: String(error?.message ?? error) }, null),
    );
const unimplemented = (method) => (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: `${method} is not implemented` }, null);

function diffOf(olds, news) {
  const changed = ["serviceName", "image"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
  const response = new proto.DiffResponse();
  response.setChanges(changed.length > 0 ? proto.DiffResponse.DiffChanges.DIFF_SOME : proto.DiffResponse.DiffChanges.DIFF_NONE);
  response.setDiffsList(changed);
  response.setHasdetaileddiff(true);
  for (const name of changed) response.getDetaileddiffMap().set(name, new proto.PropertyDiff().setKind(proto.PropertyDiff.Kind.UPDATE).setInputdiff(true));
  return response;
}

const service = {
  handshake: unimplemented("Handshake"),
  parameterize: unimplemented("Parameterize"),
  attach: unimplemented("Attach"),
  construct: unimplemented("Construct"),
  call: unimplemented("Call"),
  invoke: unimplemented("Invoke"),
  read: unimplemented("Read"),
  list: (call) => call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented" }),
  getPluginInfo: unary(() => new PluginInfo().setVersion(VERSION)),
  getSchema: unary(() => new proto.GetSchemaResponse().setSchema(SCHEMA)),
  getMapping: unary(() => new proto.GetMappingResponse()),
  getMappings: unary(() => new proto.GetMappingsResponse()),
  cancel: unary(() => new Empty()),
  checkConfig: unary((request) => new proto.CheckResponse().setInputs(request.getNews())),
  diffConfig: unary(() => new proto.DiffResponse().setChanges(proto.DiffResponse.DiffChanges.DIFF_NONE)),
  configure: unary(() => new proto.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true).setAcceptresources(false)),
  // Named as the real plugin's handlers are (src/hosts/grpc/resource-handlers.ts), so a CPU profile tells them apart.
  check: unary(function check(request) {
    return new proto.CheckResponse().setInputs(struct(named(recorded().inputs, plain(request.getNews()).serviceName)));
  }),
  diff: unary(function diff(request) {
    return diffOf(plain(request.getOlds()), plain(request.getNews()));
  }),
  create: unary(async (request) => {
    const inputs = plain(request.getProperties());
    const response = new proto.CreateResponse();
    if (request.getPreview()) return response.setProperties(struct(inputs));
    if (createMs > 0) await new Promise((resolve) => setTimeout(resolve, createMs));
    return response.setId(inputs.serviceName).setProperties(struct(named(recorded().outputs, inputs.serviceName)));
  }),
  update: unary((request) => new proto.UpdateResponse().setProperties(request.getNews())),
  delete: unary(() => new Empty()),
};

const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
server.addService(ResourceProviderService, service);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) {
    process.stderr.write(`pulumi-resource-agent-shaped: ${error.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
