/**
 * gRPC error answers. A resource that was created (or updated) but did not
 * finish is a partial success (src/core/partial-failure.ts): the error carries
 * pulumirpc.ErrorResourceInitFailed with the resource's id and outputs in the
 * `grpc-status-details-bin` trailer, and the engine keeps the resource in the
 * stack's state instead of forgetting it (as the dynamic provider host does).
 */
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { ErrorResourceInitFailed } from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { isPartialFailure } from "../../core/partial-failure";
import { toStruct } from "./struct-values";

export type RpcError = Partial<grpc.StatusObject> & { message: string };

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The error answer for a failed RPC; `secrets` are the output properties to keep secret. */
export function rpcError(error: unknown, secrets: ReadonlySet<string> = new Set()): RpcError {
  const message = messageOf(error);
  const metadata = new grpc.Metadata();
  if (isPartialFailure(error)) {
    const detail = new ErrorResourceInitFailed();
    detail.setId(error.id);
    detail.setProperties(toStruct(error.properties, secrets));
    detail.setReasonsList([...(error.reasons ?? [message])]);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, message, details: message, metadata };
}

export function unimplemented(method: string): RpcError {
  const message = `${method} is not implemented by the agent-hosting provider`;
  return { code: grpc.status.UNIMPLEMENTED, message, details: message };
}

/** A failure already turned into its answer (a handler that knows which outputs to keep secret). */
export class RpcFailure extends Error {
  constructor(readonly answer: RpcError) {
    super(answer.message);
  }
}
