/**
 * The engine's Log RPC from inside Pulumi's dynamic-provider process, which
 * the engine starts as `.../cmd/dynamic-provider <engine-address>`. The gRPC
 * stubs and grpc-js are the program's own `@pulumi/pulumi` copies, the ones
 * that process already loaded.
 */
import * as path from "node:path";
import type { LogRpc } from "../../core/engine-log";

/** The engine's address when `argv` is the dynamic-provider process's, else undefined. */
export function dynamicProviderEngineAddress(argv: readonly string[]): string | undefined {
  const script = argv[1] ?? "";
  const address = argv[2];
  if (!script.includes("dynamic-provider") || !address || !/^[\w.[\]:-]+:\d+$/.test(address)) return undefined;
  return address;
}

/** A LogRpc to the engine at `address`, or undefined when the program's `@pulumi/pulumi` cannot be loaded. */
export function dynamicEngineRpc(address: string): LogRpc | undefined {
  try {
    const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
    /* eslint-disable @typescript-eslint/no-require-imports */
    const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
    const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
    const engproto = require("@pulumi/pulumi/proto/engine_pb");
    /* eslint-enable @typescript-eslint/no-require-imports */
    const engine = new engrpc.EngineClient(address, grpc.credentials.createInsecure());
    return (entry) =>
      new Promise<void>((resolve) => {
        const req = new engproto.LogRequest();
        req.setSeverity(entry.severity === "info" ? engproto.LogSeverity.INFO : engproto.LogSeverity.WARNING);
        req.setMessage(entry.message);
        req.setUrn(entry.urn);
        req.setEphemeral(entry.ephemeral);
        engine.log(req, () => resolve());
      });
  } catch {
    return undefined;
  }
}
