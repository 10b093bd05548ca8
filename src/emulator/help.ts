/**
 * What the bin says about itself: `--help` (every flag with its default),
 * `--version`, and the lines it prints once it listens, which point a stack
 * at it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BIN_DEFAULT_API_KEY } from "./args";
import type { EmulatorFlagName } from "./args";

/** A flag's line in `--help`. */
interface FlagHelp {
  /** The value shown after the flag, e.g. "PORT"; none for an on/off switch. */
  value?: string;
  help: string;
  /** The default as the help states it. */
  defaultText: string;
}

/** Every flag's help, in the order `--help` lists them (the type makes every flag have one). */
export const FLAG_HELP: Readonly<Record<EmulatorFlagName, FlagHelp>> = {
  port: { value: "PORT", help: "port to listen on; 0 picks a free one", defaultText: "8787" },
  host: { value: "HOST", help: "address to listen on", defaultText: "127.0.0.1" },
  "api-key": { value: "KEY", help: "the API key callers must send", defaultText: BIN_DEFAULT_API_KEY },
  "ready-after-ms": { value: "MS", help: "a new deployment becomes ready this many milliseconds after it is made", defaultText: "1500" },
  rollout: {
    value: "rolling|immediate",
    help:
      "how an update's new deployment takes over: rolling keeps the old one active and serving (available) " +
      "until the new one (desiredDeploymentId) is ready, and one that never is never serves; " +
      "immediate makes it active at once, without desiredDeploymentId and available",
    defaultText: "rolling; immediate with --reading other",
  },
  "secret-set": { value: "NAME=FIELD1,FIELD2", help: "serve a secret set with these field names (repeat the flag for more sets)", defaultText: "none" },
  "state-file": { value: "PATH", help: "keep agents, logs and secret sets in this JSON file across restarts", defaultText: "in memory only" },
  reading: {
    value: "emulator|other",
    help: "answer as this emulator does, or in the other ways the service's document allows (turns every switch below on)",
    defaultText: "emulator",
  },
  "create-status": { value: "200|201", help: "status of a successful create", defaultText: "200; 201 with --reading other" },
  "delete-status": { value: "200|204", help: "status of a successful delete (204: no body)", defaultText: "200; 204 with --reading other" },
  "deployment-null-on-create": { help: "the create answer has deployment: null", defaultText: "off; on with --reading other" },
  "extra-fields": { help: "add fields the service's document never names", defaultText: "off; on with --reading other" },
  "omit-optional-fields": { help: "leave out fields the document lists but does not promise", defaultText: "off; on with --reading other" },
  "update-merges": { help: "an update keeps every field its body leaves out", defaultText: "off; on with --reading other" },
  "ready-flags-apart": {
    value: "ready:POLLS|activeDeploymentReady:POLLS|off",
    help: "the named ready flag turns true first, the other after POLLS more reads of the agent",
    defaultText: "off; ready:2 with --reading other",
  },
  "get-outage-after-create": {
    value: "REQUESTS|MSms|off",
    help: "after a create, reads of that agent answer 503 for this many requests or milliseconds",
    defaultText: "off; 4 with --reading other",
  },
};

/**
 * The control endpoints `--help` lists (loopback only, no API key): what a
 * test or a demo can make the emulator do beyond the service's API.
 */
export const CONTROL_HELP: readonly string[] = [
  "POST /_emulator/secret-sets {name, fieldNames}: serve a secret set",
  "POST /_emulator/agents/NAME/logs {count, deploymentId?, prefix?, startMs?, intervalMs?}: append log lines in bulk",
  "POST /_emulator/agents/NAME/sessions {count, endAfterMs?}: the agent's activeSessionCount is count, and 0 again endAfterMs later when given",
  "POST /_emulator/faults {method, path, kind, status?, delayMs?, count?}: fail, delay or drop the next matching requests",
  "POST /_emulator/rate-limit {requestsPerWindow, windowMs, retryAfterSeconds} | {disabled: true}: answer 429 past the limit",
  "GET /_emulator/agents, /_emulator/stats, /_emulator/requests: what the emulator holds and has served",
  "POST /_emulator/reset {all?}: forget agents, logs, faults, the rate limit and counters (all: the secret sets given at start too)",
];

/** The flag as the help writes it: `--port PORT`, `--[no-]extra-fields`. */
function flagSyntax(name: string, flag: FlagHelp): string {
  return flag.value === undefined ? `--[no-]${name}` : `--${name} ${flag.value}`;
}

/** What `--help` prints: what the bin is, then every flag with its default. */
export function helpText(): string {
  const flags = Object.entries(FLAG_HELP).map(
    ([name, flag]) => `  ${flagSyntax(name, flag)}\n      ${flag.help} (default: ${flag.defaultText})`,
  );
  return [
    "usage: agent-hosting-emulator [flags]",
    "",
    "A local emulator of the Agent Hosting Service, for trying pulumi-agent-hosting",
    "without an account. It prints the URL it listens on, then the `pulumi config set`",
    "lines that point a stack at it, and serves until Ctrl-C (SIGINT) or SIGTERM.",
    "",
    "flags:",
    ...flags,
    "  -h, --help\n      print this help and exit",
    "  --version\n      print the version of pulumi-agent-hosting and exit",
    "",
    "control endpoints (loopback only, no API key; JSON bodies):",
    ...CONTROL_HELP.map((line) => `  ${line}`),
    "",
  ].join("\n");
}

/** `--help` (or `-h`) and `--version` anywhere on the command line answer instead of serving; help wins. */
export function infoRequest(argv: readonly string[]): "help" | "version" | undefined {
  if (argv.includes("--help") || argv.includes("-h")) return "help";
  if (argv.includes("--version")) return "version";
  return undefined;
}

/** The version of pulumi-agent-hosting, from its package.json (two levels up from src/emulator and from dist/emulator). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

/** The host names whose plain-http URL the package accepts without agent-hosting:allowInsecureHttp. */
function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1" || host === "[::1]";
}

/**
 * What the bin prints after its first line (`agent-hosting-emulator listening on URL`):
 * the settings that point a stack, or a program's environment, at it.
 */
export function pasteText(url: string, apiKey: string, secretSets: readonly string[]): string {
  const host = new URL(url).hostname;
  const insecure = isLoopbackHost(host) ? [] : ["  pulumi config set agent-hosting:allowInsecureHttp true"];
  const insecureEnv = isLoopbackHost(host) ? "" : " AGENT_HOSTING_ALLOW_INSECURE_HTTP=true";
  return [
    "",
    "Point a stack at it (in the program's directory):",
    "",
    `  pulumi config set agent-hosting:baseUrl ${url}`,
    `  pulumi config set --secret agent-hosting:apiKey ${apiKey}`,
    ...insecure,
    "",
    "or the environment of a program or a pipeline:",
    "",
    `  export AGENT_HOSTING_BASE_URL=${url} AGENT_HOSTING_API_KEY=${apiKey}${insecureEnv}`,
    "",
    `Secret sets: ${secretSets.length > 0 ? secretSets.join(", ") : "none (add one with --secret-set NAME=FIELD1,FIELD2)"}.`,
    "Ctrl-C stops the emulator; --help lists its flags.",
    "",
  ].join("\n");
}
