/**
 * The bin's command line: see USAGE (and help.ts for `--help`). The reading switches mirror the
 * `startEmulator` options of the same meaning; a boolean switch is turned
 * off with its `--no-` form (over `--reading other`).
 */
import { parseArgs } from "node:util";
import type { ParseArgsConfig } from "node:util";
import type { GetOutage, ReadyFlagsApart } from "./reading";
import { isRollout, ROLLOUTS } from "./rollout-modes";
import type { EmulatorOptions } from "./server";

/** The key the bin uses when none is given: it prints it, since the user must know it to call the emulator. */
export const BIN_DEFAULT_API_KEY = "local-emulator-key";

/** The bin's flags in `parseArgs`'s form. */
const PARSE_OPTIONS = {
  port: { type: "string", default: "8787" },
  host: { type: "string", default: "127.0.0.1" },
  "api-key": { type: "string", default: BIN_DEFAULT_API_KEY },
  "ready-after-ms": { type: "string", default: "1500" },
  rollout: { type: "string" },
  "secret-set": { type: "string", multiple: true, default: [] },
  "state-file": { type: "string" },
  reading: { type: "string" },
  "create-status": { type: "string" },
  "delete-status": { type: "string" },
  "deployment-null-on-create": { type: "boolean" },
  "extra-fields": { type: "boolean" },
  "omit-optional-fields": { type: "boolean" },
  "update-merges": { type: "boolean" },
  "ready-flags-apart": { type: "string" },
  "get-outage-after-create": { type: "string" },
} satisfies ParseArgsConfig["options"];

/** The name of a flag of the bin, without its dashes. */
export type EmulatorFlagName = keyof typeof PARSE_OPTIONS;

export const USAGE =
  "usage: agent-hosting-emulator [--port 8787] [--host 127.0.0.1] [--api-key KEY] [--ready-after-ms 1500] " +
  "[--rollout rolling|immediate] [--secret-set NAME=FIELD1,FIELD2 ...] [--state-file PATH]\n" +
  "  [--reading emulator|other] [--create-status 200|201] [--delete-status 200|204]\n" +
  "  [--[no-]deployment-null-on-create] [--[no-]extra-fields] [--[no-]omit-optional-fields] [--[no-]update-merges]\n" +
  "  [--ready-flags-apart ready:POLLS|activeDeploymentReady:POLLS|off] [--get-outage-after-create REQUESTS|MSms|off]\n" +
  "  (--help: what each flag does and its default)";

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function readyFlagsApartOf(text: string): Parsed<ReadyFlagsApart | null> {
  if (text === "off") return { ok: true, value: null };
  const match = /^(ready|activeDeploymentReady):([1-9]\d*)$/.exec(text);
  if (!match) return { ok: false, message: `--ready-flags-apart must be ready:POLLS, activeDeploymentReady:POLLS or off, got "${text}"` };
  return { ok: true, value: { first: match[1] as ReadyFlagsApart["first"], polls: Number(match[2]) } };
}

function getOutageOf(text: string): Parsed<GetOutage | null> {
  if (text === "off") return { ok: true, value: null };
  const match = /^([1-9]\d*)(ms)?$/.exec(text);
  if (!match) return { ok: false, message: `--get-outage-after-create must be a number of requests, a duration like 1500ms, or off, got "${text}"` };
  const amount = Number(match[1]);
  return { ok: true, value: match[2] === "ms" ? { ms: amount } : { requests: amount } };
}

/** Sets the reading switches given on the command line into `options`; a message when one is malformed. */
function readingOptions(values: Record<string, string | boolean | string[] | undefined>, options: EmulatorOptions): string | undefined {
  const reading = values["reading"];
  if (reading !== undefined) {
    if (reading !== "emulator" && reading !== "other") return `--reading must be emulator or other, got "${String(reading)}"`;
    options.reading = reading;
  }
  const createStatus = values["create-status"];
  if (createStatus !== undefined) {
    if (createStatus !== "200" && createStatus !== "201") return `--create-status must be 200 or 201, got "${String(createStatus)}"`;
    options.createStatus = createStatus === "201" ? 201 : 200;
  }
  const deleteStatus = values["delete-status"];
  if (deleteStatus !== undefined) {
    if (deleteStatus !== "200" && deleteStatus !== "204") return `--delete-status must be 200 or 204, got "${String(deleteStatus)}"`;
    options.deleteStatus = deleteStatus === "204" ? 204 : 200;
  }
  const flags = [
    ["deployment-null-on-create", "deploymentNullOnCreate"],
    ["extra-fields", "extraFields"],
    ["omit-optional-fields", "omitOptionalFields"],
    ["update-merges", "updateMerges"],
  ] as const;
  for (const [flag, key] of flags) {
    const value = values[flag];
    if (typeof value === "boolean") options[key] = value;
  }
  const apart = values["ready-flags-apart"];
  if (typeof apart === "string") {
    const parsed = readyFlagsApartOf(apart);
    if (!parsed.ok) return parsed.message;
    options.readyFlagsApart = parsed.value;
  }
  const outage = values["get-outage-after-create"];
  if (typeof outage === "string") {
    const parsed = getOutageOf(outage);
    if (!parsed.ok) return parsed.message;
    options.getOutageAfterCreate = parsed.value;
  }
  return undefined;
}

export type ParsedArgs = { ok: true; options: EmulatorOptions } | { ok: false; message: string };

/** Parses the bin's arguments; never throws, never exits. */
export function parseEmulatorArgs(argv: readonly string[]): ParsedArgs {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      allowNegative: true,
      options: PARSE_OPTIONS,
    }).values;
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) {
    return { ok: false, message: `--port must be an integer from 0 to 65535, got "${values.port}"` };
  }
  const readyAfterMs = Number(values["ready-after-ms"]);
  if (!/^\d+$/.test(values["ready-after-ms"])) {
    return { ok: false, message: `--ready-after-ms must be an integer ≥ 0, got "${values["ready-after-ms"]}"` };
  }
  if (values.host === "") return { ok: false, message: "--host must not be empty" };
  if (values["api-key"] === "") return { ok: false, message: "--api-key must not be empty" };
  const secretSets: Record<string, string[]> = {};
  for (const spec of values["secret-set"]) {
    const match = /^([^=]+)=(.*)$/.exec(spec);
    if (!match) return { ok: false, message: `--secret-set must be NAME=FIELD1,FIELD2, got "${spec}"` };
    secretSets[match[1] as string] = (match[2] as string).split(",").filter((field) => field !== "");
  }
  const options: EmulatorOptions = { port, host: values.host, apiKey: values["api-key"], readyAfterMs, secretSets };
  const rollout = values.rollout;
  if (rollout !== undefined) {
    if (!isRollout(rollout)) return { ok: false, message: `--rollout must be ${ROLLOUTS.join(" or ")}, got "${rollout}"` };
    options.rollout = rollout;
  }
  if (values["state-file"] !== undefined && values["state-file"] !== "") options.stateFile = values["state-file"];
  const problem = readingOptions(values, options);
  if (problem) return { ok: false, message: problem };
  return { ok: true, options };
}
