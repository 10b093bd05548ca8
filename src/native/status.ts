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

interface CurrentResource {
  urn: string;
  /** Whether the RPC waits on the service (create, update): its info lines are status lines. */
  waiting: boolean;
}

const currentResource = new AsyncLocalStorage<CurrentResource>();
let engine: EngineClient | undefined;

/** Connects to the engine; messages sent before (or without) it go to stderr. */
export function connectEngine(address: string): void {
  engine = new EngineClient(address, grpc.credentials.createInsecure());
}

export function closeEngine(): void {
  engine?.close();
  engine = undefined;
}

/** Runs `fn` with `urn` as the resource its messages are about; `waiting` for create and update. */
export function forResource<T>(urn: string, fn: () => Promise<T>, waiting = false): Promise<T> {
  return currentResource.run({ urn, waiting }, fn);
}

function send(severity: LogSeverity, message: string, ephemeral: boolean, urnGiven?: string): Promise<void> {
  const urn = urnGiven || (currentResource.getStore()?.urn ?? "");
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

/** A status line on the resource's row (replaced by the next one, not kept in the output); `urn` defaults to the current resource. */
export function reportStatus(message: string, urn?: string): Promise<void> {
  return send(LogSeverity.INFO, message, true, urn);
}

/**
 * An informational line: a status line while a create or update waits on the
 * service (the readiness progress), otherwise a line kept in the output.
 */
export function reportInfo(message: string, urn?: string): Promise<void> {
  return currentResource.getStore()?.waiting ? reportStatus(message, urn) : send(LogSeverity.INFO, message, false, urn);
}

/** A warning on the resource's row (or the run's, outside a resource RPC); `urn` defaults to the current resource. */
export function reportWarning(message: string, urn?: string): Promise<void> {
  return send(LogSeverity.WARNING, message, false, urn);
}
