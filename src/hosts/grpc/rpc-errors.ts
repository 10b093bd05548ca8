/**
 * gRPC error answers. An agent that was created (or updated) but did not
 * become ready is a partial success: the error carries
 * pulumirpc.ErrorResourceInitFailed with the agent's id and outputs in the
 * `grpc-status-details-bin` trailer, and the engine keeps the agent in the
 * stack's state instead of forgetting it (as the dynamic provider host does).
 */
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { ErrorResourceInitFailed } from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { toStruct, type Props } from "./struct-values";

export type RpcError = Partial<grpc.StatusObject> & { message: string };

interface PartialFailure {
  id: string;
  properties: Props;
  reasons?: string[];
}

function isPartialFailure(error: unknown): error is Error & PartialFailure {
  if (!(error instanceof Error) || !("id" in error) || !("properties" in error)) return false;
  return typeof error.id === "string" && error.id !== "" && typeof error.properties === "object" && error.properties !== null;
}

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
    detail.setReasonsList(error.reasons ?? [message]);
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
