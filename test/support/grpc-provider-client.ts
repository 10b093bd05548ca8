/**
 * A provider plugin driven as the engine drives it: Pulumi's own gRPC client
 * stubs against a running ResourceProvider server, promise-shaped.
 */
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { CheckRequest, ConfigureRequest, type CheckResponse, type ConfigureResponse } from "@pulumi/pulumi/proto/provider_pb";

/** Promise form of a unary call: `rpc((cb) => client.method(request, cb))`. */
export function rpc<Res>(start: (cb: (e: grpc.ServiceError | null, r: Res) => void) => unknown): Promise<Res> {
  return new Promise((resolve, reject) => start((e, r) => (e ? reject(e) : resolve(r))));
}

export const struct = (value: Record<string, unknown>): Struct => Struct.fromJavaScript(value as Parameters<typeof Struct.fromJavaScript>[0]);

export function providerClient(port: number | string): ResourceProviderClient {
  return new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

export async function configure(client: ResourceProviderClient, args: Record<string, unknown>): Promise<void> {
  const req = new ConfigureRequest();
  req.setArgs(struct(args));
  req.setAcceptsecrets(true);
  await rpc<ConfigureResponse>((cb) => client.configure(req, cb));
}

/** Check of a new resource of `type` at `urn`. */
export function check(client: ResourceProviderClient, urn: string, news: Record<string, unknown>): Promise<CheckResponse> {
  const req = new CheckRequest();
  req.setUrn(urn);
  req.setType(urn.split("::")[2] ?? "");
  req.setOlds(struct({}));
  req.setNews(struct(news));
  return rpc<CheckResponse>((cb) => client.check(req, cb));
}
