#!/usr/bin/env node
/**
 * agent-hosting-review [PREVIEW.json | -] [--fail-on replace,delete] [--help]
 *
 * Writes the Markdown review of a `pulumi preview --json` document to stdout.
 * Exit 0; 3 when `--fail-on` names an operation planned for an Agent (after
 * the summary is printed); 2 on a bad flag; 1 when the input is unreadable
 * or not a preview. It loads no Pulumi SDK, so it starts at once.
 */
import { readFileSync } from "node:fs";
import { EXIT, parseReviewArgs, USAGE } from "./flags";
import { reviewPreview } from "./review";

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

async function main(): Promise<void> {
  const parsed = parseReviewArgs(process.argv.slice(2));
  if (!parsed.ok) fail(EXIT.usage, parsed.message, true);
  const { options } = parsed;
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (options.file === undefined && process.stdin.isTTY) {
    fail(EXIT.usage, "no preview given: pass the file of `pulumi preview --json`, or pipe it to stdin", true);
  }
  let text: string;
  try {
    text = await readInput(options.file);
  } catch (error) {
    fail(EXIT.badInput, `cannot read ${options.file ?? "stdin"}: ${(error as Error).message}`);
  }
  let review;
  try {
    review = reviewPreview(text, options.failOn);
  } catch (error) {
    fail(EXIT.badInput, `${options.file ?? "stdin"}: ${(error as Error).message}`);
  }
  process.stdout.write(review.markdown);
  if (review.blocked.length > 0) {
    const list = review.blocked.map((agent) => `${agent.resource} (${agent.operation})`).join(", ");
    process.stderr.write(`agent-hosting-review: --fail-on ${options.failOn.join(",")}: ${list}\n`);
    process.exitCode = EXIT.failOn;
  }
}

main().catch((error: unknown) => fail(EXIT.badInput, (error as Error).message));
