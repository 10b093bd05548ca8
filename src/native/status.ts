/**
 * Messages from the plugin to the engine's Log RPC. The engine passes its
 * address as the plugin's first argument. A message carrying a resource's URN
 * is shown on that resource's row of `pulumi up`; an ephemeral one is a
 * status line that the next one replaces and that does not stay in the
 * output, the way pulumi-kubernetes reports its await.
 *
 * The URN of the resource an RPC is working on travels in an
 * AsyncLocalStorage, so code deep in the implementation (retry notes, the
 * readiness wait) reports to the right row without being handed the URN.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";

const currentResource = new AsyncLocalStorage<{ urn: string }>();
let engine: EngineClient | undefined;

/** Connects to the engine; messages sent before (or without) it go to stderr. */
export function connectEngine(address: string): void {
  engine = new EngineClient(address, grpc.credentials.createInsecure());
}

export function closeEngine(): void {
  engine?.close();
  engine = undefined;
}

/** Runs `fn` with `urn` as the resource its messages are about. */
export function forResource<T>(urn: string, fn: () => Promise<T>): Promise<T> {
  return currentResource.run({ urn }, fn);
}

function send(severity: LogSeverity, message: string, ephemeral: boolean): Promise<void> {
  const urn = currentResource.getStore()?.urn ?? "";
  if (!engine) {
    if (!ephemeral) process.stderr.write(`${message}\n`);
    return Promise.resolve();
  }
  const request = new LogRequest();
  request.setSeverity(severity);
  request.setMessage(message);
  request.setUrn(urn);
  request.setEphemeral(ephemeral);
  const client = engine;
  // A lost message must never fail the operation it describes.
  return new Promise((resolve) => client.log(request, () => resolve()));
}

/** A status line on the current resource's row (replaced by the next one, not kept in the output). */
export function reportStatus(message: string): Promise<void> {
  return send(LogSeverity.INFO, message, true);
}

/** A warning on the current resource's row (or the run's, outside a resource RPC). */
export function reportWarning(message: string): Promise<void> {
  return send(LogSeverity.WARNING, message, false);
}
