/**
 * The plugin's gRPC server: Pulumi's ResourceProvider service, on the stubs
 * that @pulumi/pulumi ships and @grpc/grpc-js. `serve` binds a free port on
 * 127.0.0.1 and prints it on stdout, which is how the engine learns where to
 * connect; nothing else may be written to stdout.
 */
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import {
  CheckResponse,
  ConfigureResponse,
  DiffResponse,
  GetMappingResponse,
  GetMappingsResponse,
  GetSchemaResponse,
  InvokeResponse,
  PropertyDiff,
} from "@pulumi/pulumi/proto/provider_pb";
import { createEngineLog } from "../../core/engine-log";
import type { EngineLog } from "../../core/engine-log";
import { exitOnSignals } from "../../core/interrupt";
import { createProviderCore } from "../../core/provider-core";
import type { ExtraClientOptions, ProviderCore } from "../../core/provider-core";
import type { Registry } from "../../core/resource-entry";
import type { ConfigSource } from "../../core/settings";
import { imageDigestLookup } from "../../image-registry/run-lookup";
import { nativeEngineRpc } from "./grpc-engine-rpc";
import { invoke } from "./invoke-handler";
import { changedProviderConfig, checkProviderConfig, configSource } from "./provider-config-handlers";
import * as resources from "./resource-handlers";
import { checkFailures } from "./resource-handlers";
import { RpcFailure, rpcError, unimplemented } from "./rpc-errors";
import type { RpcError } from "./rpc-errors";
import { pluginVersion, schemaText } from "./schema-document";
import { fromStruct, toStruct } from "./struct-values";

type Callback<T> = (error: RpcError | null, value?: T | null, trailer?: grpc.Metadata) => void;

/** Adapts a promise-returning handler to grpc-js's callback style. */
function unary<Req, Res>(handler: (request: Req) => Promise<Res>): (call: grpc.ServerUnaryCall<Req, Res>, callback: Callback<Res>) => void {
  return (call, callback) => {
    handler(call.request).then(
      (value) => callback(null, value),
      (error: unknown) => {
        const answer = error instanceof RpcFailure ? error.answer : rpcError(error);
        callback(answer, null, answer.metadata);
      },
    );
  };
}

function failing<Req, Res>(method: string): (call: grpc.ServerUnaryCall<Req, Res>, callback: Callback<Res>) => void {
  return (_call, callback) => callback(unimplemented(method));
}

export interface ProviderServiceOptions {
  /** What the plugin serves. */
  registry: Registry;
  log: EngineLog;
  /** Client options beyond the settings, e.g. an undici dispatcher. */
  client?: ExtraClientOptions;
}

/** The service, and the provider instance it currently answers with (rebuilt by each Configure). */
export function providerService(options: ProviderServiceOptions): { service: IResourceProviderServer; current: () => ProviderCore } {
  const { registry, log } = options;
  const build = (config: ConfigSource | undefined) =>
    createProviderCore({ registry, config, log, host: "grpc", imageDigests: imageDigestLookup(config), ...(options.client ? { client: options.client } : {}) });
  let provider = build(undefined);

  const service: IResourceProviderServer = {
    handshake: failing("Handshake"),
    parameterize: failing("Parameterize"),
    attach: failing("Attach"),
    construct: failing("Construct"),
    call: failing("Call"),
    list: (call) => call.emit("error", unimplemented("List")),

    getPluginInfo: unary(async () => new PluginInfo().setVersion(pluginVersion())),
    getSchema: unary(async () => new GetSchemaResponse().setSchema(schemaText())),
    getMapping: unary(async () => new GetMappingResponse()),
    getMappings: unary(async () => new GetMappingsResponse()),
    // The engine is cancelling the operation: waits for readiness end now, each answering with its resource kept in state.
    cancel: unary(async () => {
      provider.cancel("the engine's Cancel call");
      return new Empty();
    }),

    checkConfig: unary(async (request) => {
      const news = fromStruct(request.getNews());
      const response = new CheckResponse();
      response.setInputs(toStruct(news.props, news.secrets));
      response.setFailuresList(checkFailures(checkProviderConfig(news.props)));
      return response;
    }),
    diffConfig: unary(async (request) => {
      const olds = fromStruct(request.getOldInputs() ?? request.getOlds()).props;
      const news = fromStruct(request.getNews()).props;
      const changed = changedProviderConfig(olds, news);
      const response = new DiffResponse();
      response.setChanges(changed.length > 0 ? DiffResponse.DiffChanges.DIFF_SOME : DiffResponse.DiffChanges.DIFF_NONE);
      response.setDiffsList(changed);
      response.setHasdetaileddiff(true);
      for (const name of changed) {
        response.getDetaileddiffMap().set(name, new PropertyDiff().setKind(PropertyDiff.Kind.UPDATE).setInputdiff(true));
      }
      return response;
    }),
    configure: unary(async (request) => {
      const variables = new Map<string, string>();
      request.getVariablesMap().forEach((value, key) => variables.set(key, value));
      provider = build(configSource(fromStruct(request.getArgs()).props, variables));
      const response = new ConfigureResponse();
      response.setAcceptsecrets(true);
      response.setSupportspreview(true);
      response.setAcceptresources(false);
      return response;
    }),
    invoke: unary(async (request) => {
      const outcome = await invoke(provider, request.getTok(), fromStruct(request.getArgs()).props);
      const response = new InvokeResponse();
      if (outcome.result) response.setReturn(toStruct(outcome.result));
      response.setFailuresList(checkFailures(outcome.failures));
      return response;
    }),

    check: unary((request) => resources.check(provider, request)),
    diff: unary((request) => resources.diff(provider, request)),
    create: unary((request) => resources.create(provider, request)),
    read: unary((request) => resources.read(provider, request)),
    update: unary((request) => resources.update(provider, request)),
    delete: unary(async (request) => {
      await resources.remove(provider, request);
      return new Empty();
    }),
  };
  return { service, current: () => provider };
}

/** The engine's address: the first argument that is not a flag (the engine may add `-v=9`, `--logtostderr` and such). */
export function engineAddressOf(args: readonly string[]): string | undefined {
  return args.find((a) => !a.startsWith("-"));
}

export interface Serving {
  server: grpc.Server;
  port: number;
  /** Closes the server and the connection to the engine. */
  close(): Promise<void>;
}

/**
 * Serves the plugin: lines go to the engine whose address `args` names (else
 * stderr). `signals` installs the process's SIGINT and SIGTERM handling,
 * which only the plugin's own process (plugin-bin.ts) asks for.
 */
export interface ServeOptions {
  registry: Registry;
  signals?: boolean;
  client?: ExtraClientOptions;
}

export async function serve(args: readonly string[], options: ServeOptions): Promise<Serving> {
  const address = engineAddressOf(args);
  const engine = address ? nativeEngineRpc(address) : undefined;
  const log = createEngineLog(() => engine?.rpc);
  const { service, current } = providerService({ registry: options.registry, log, ...(options.client ? { client: options.client } : {}) });
  if (options.signals) exitOnSignals({ busy: () => current().busy(), cancel: (reason) => current().cancel(reason) });
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(ResourceProviderService, service as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  const close = async () => {
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    engine?.close();
  };
  return { server, port, close };
}
