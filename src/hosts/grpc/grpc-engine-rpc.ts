/**
 * The engine's Log RPC from the native plugin, whose first argument is the
 * engine's address. The plugin carries its own gRPC stubs (bundled).
 */
import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import type { LogRpc } from "../../core/engine-log";

/** A LogRpc to the engine at `address`, and a function that closes the connection. */
export function nativeEngineRpc(address: string): { rpc: LogRpc; close: () => void } {
  const engine = new EngineClient(address, grpc.credentials.createInsecure());
  const rpc: LogRpc = (entry) => {
    const request = new LogRequest();
    request.setSeverity(entry.severity === "info" ? LogSeverity.INFO : LogSeverity.WARNING);
    request.setMessage(entry.message);
    request.setUrn(entry.urn);
    request.setEphemeral(entry.ephemeral);
    return new Promise((resolve) => engine.log(request, () => resolve()));
  };
  return { rpc, close: () => engine.close() };
}
