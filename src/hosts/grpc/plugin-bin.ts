#!/usr/bin/env node
/**
 * `pulumi-resource-agent-hosting`: the native provider plugin, serving the
 * package's registry. The engine starts it with its own address as the first
 * argument and reads the port the plugin listens on from the first line of
 * stdout. `--help` and `--version` answer instead, for a person who runs it.
 */
import { REGISTRY } from "../../registry";
import { keepWasmOnBaseline } from "../wasm-baseline";
import { serve } from "./grpc-server";
import { pluginVersion } from "./schema-document";

const PLUGIN_HELP = [
  "usage: pulumi-resource-agent-hosting [ENGINE_ADDRESS]",
  "",
  "The Agent Hosting provider plugin for Pulumi. The Pulumi engine starts it:",
  "a program that declares agent-hosting:index:Agent (Python, Go, Java, YAML,",
  "or pulumi-agent-hosting/native) makes the engine run it, and it prints the",
  "port it serves gRPC on. Its settings are the stack's agent-hosting:apiKey,",
  "agent-hosting:baseUrl and agent-hosting:allowInsecureHttp (or",
  "AGENT_HOSTING_API_KEY, AGENT_HOSTING_BASE_URL, AGENT_HOSTING_ALLOW_INSECURE_HTTP).",
  "",
  "flags:",
  "  -h, --help\n      print this help and exit",
  "  --version\n      print the plugin's version and exit",
  "",
].join("\n");

const args = process.argv.slice(2);
// Help wins over --version, as in the emulator's bin; both answer instead of serving.
const answer = args.includes("--help") || args.includes("-h") ? PLUGIN_HELP : args.includes("--version") ? `${pluginVersion()}\n` : undefined;
if (answer !== undefined) {
  process.stdout.write(answer);
} else {
  serve(args, { registry: REGISTRY, signals: true }).then(
    ({ port }) => {
      // Set once the plugin has loaded, before the engine can send a request (../wasm-baseline.ts).
      keepWasmOnBaseline();
      process.stdout.write(`${port}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`pulumi-resource-agent-hosting: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
