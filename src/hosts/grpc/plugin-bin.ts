#!/usr/bin/env node
/**
 * `pulumi-resource-agent-hosting`: the native provider plugin, serving the
 * package's registry. The engine starts it with its own address as the first
 * argument and reads the port the plugin listens on from the first line of
 * stdout.
 */
import { REGISTRY } from "../../registry";
import { serve } from "./grpc-server";

serve(process.argv.slice(2), { registry: REGISTRY, signals: true }).then(
  ({ port }) => process.stdout.write(`${port}\n`),
  (error: unknown) => {
    process.stderr.write(`pulumi-resource-agent-hosting: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
