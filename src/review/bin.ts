#!/usr/bin/env node
/**
 * agent-hosting-review [preview|drift|up] [FILE | -] [flags]  (flags.ts lists them)
 *
 * Writes Markdown for a pull-request comment or an issue to stdout, from the
 * JSON of `pulumi preview --json` (preview), `pulumi refresh --preview-only
 * --json` or `pulumi preview --refresh --json` (drift), or `pulumi up --json`
 * (up). Exit 0; 3 when `--fail-on` refuses (after the Markdown is printed);
 * 2 on a bad command line; 1 when the input is unreadable or not the
 * expected document. It loads no Pulumi SDK, so it starts at once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EXIT, FAIL_ON_DRIFT, parseReviewArgs, USAGE } from "./flags";
import type { ReviewOptions } from "./flags";
import { operationLabel } from "./markdown";
import { reviewDrift, reviewPreview, reviewUp } from "./review";

function fail(code: number, message: string, usage = false): never {
  process.stderr.write(`agent-hosting-review: ${message}\n${usage ? `${USAGE}\n` : ""}`);
  process.exit(code);
}

async function readInput(file: string | undefined): Promise<string> {
  if (file !== undefined) return readFileSync(file, "utf8");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")) as { version: string };
  return pkg.version;
}

const INPUTS = {
  preview: "pulumi preview --json",
  drift: "pulumi refresh --preview-only --json",
  up: "pulumi up --json",
} as const;

function identity(options: ReviewOptions): { project?: string; stack?: string } {
  return { ...(options.project ? { project: options.project } : {}), ...(options.stack ? { stack: options.stack } : {}) };
}

async function main(): Promise<void> {
  const parsed = parseReviewArgs(process.argv.slice(2));
  if (!parsed.ok) fail(EXIT.usage, parsed.message, true);
  const { options } = parsed;
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (options.version) {
    process.stdout.write(`agent-hosting-review ${packageVersion()}\n`);
    return;
  }
  if (options.file === undefined && process.stdin.isTTY) {
    fail(EXIT.usage, `no input given: pass the file of \`${INPUTS[options.command]}\`, or pipe it to stdin`, true);
  }
  const where = options.file ?? "stdin";
  let text: string;
  try {
    text = await readInput(options.file);
  } catch (error) {
    fail(EXIT.badInput, `cannot read ${where}: ${(error as Error).message}`);
  }
  let previous: string | undefined;
  if (options.previous !== undefined) {
    try {
      previous = readFileSync(options.previous, "utf8");
    } catch (error) {
      fail(EXIT.badInput, `cannot read --previous ${options.previous}: ${(error as Error).message}`);
    }
  }
  try {
    if (options.command === "drift") {
      const drift = reviewDrift(text, { identity: identity(options), skipNoChanges: options.skipNoChanges });
      process.stdout.write(drift.markdown);
      if (options.failOnDrift && drift.drifted) {
        process.stderr.write(`agent-hosting-review: --fail-on ${FAIL_ON_DRIFT}: stack ${drift.report.stack} drifted\n`);
        process.exitCode = EXIT.failOn;
      }
      return;
    }
    if (options.command === "up") {
      process.stdout.write(reviewUp(text, { identity: identity(options), ...(previous !== undefined ? { previous } : {}) }).markdown);
      return;
    }
    const review = reviewPreview(text, options.failOn, { identity: identity(options), skipNoChanges: options.skipNoChanges });
    process.stdout.write(review.markdown);
    if (review.blocked.length > 0) {
      const list = review.blocked.map((agent) => `${agent.resource} (${operationLabel(agent)})`).join(", ");
      process.stderr.write(`agent-hosting-review: --fail-on ${options.failOn.join(",")}: ${list}\n`);
      process.exitCode = EXIT.failOn;
    }
  } catch (error) {
    fail(EXIT.badInput, `${where}: ${(error as Error).message}`);
  }
}

main().catch((error: unknown) => fail(EXIT.badInput, (error as Error).message));
