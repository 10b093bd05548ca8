/**
 * `agent-hosting-review` as a pipeline runs it: `npx agent-hosting-review
 * preview.json --fail-on replace,delete`, on previews the real CLI printed
 * (test/unit/fixtures/review/). dist/ is built here only when the bin is missing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEW_COMMANDS, REVIEW_FLAGS, USAGE } from "../../src/review/flags";
import { reviewBin, runReviewBin } from "../support/review-bin";
import { SCRIPT } from "../support/project-scripts";

const root = resolve(__dirname, "../..");
const fixtures = join(root, "test/unit/fixtures/review");
const npmBin = join(root, "node_modules/.bin/agent-hosting-review");
let scratch: string;

beforeAll(() => {
  if (!existsSync(reviewBin)) {
    try {
      execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
    } catch {
      // tsc emits even when another part of the package has a type error; the check below is what matters.
    }
    execFileSync(process.execPath, [SCRIPT.linkSelf], { cwd: root, stdio: "pipe" });
  }
  if (!existsSync(reviewBin)) throw new Error(`${reviewBin} could not be built`);
  scratch = mkdtempSync(join(tmpdir(), "review-bin-"));
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("agent-hosting-review bin", () => {
  it("is the package's bin, runs through its npm link and shebang, and prints the review", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: Record<string, string> };
    expect(pkg.bin["agent-hosting-review"]).toBe("dist/review/bin.js");
    expect(readFileSync(reviewBin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    const run = spawnSync(npmBin, [join(fixtures, "replace.json"), "--fail-on", "replace,delete"], { encoding: "utf8" });
    expect(run.status).toBe(3);
    expect(run.stdout).toContain("> **Replace** of `bot-a`");
    expect(run.stderr).toBe("agent-hosting-review: --fail-on replace,delete: bot-a (replace)\n");
  });

  it("loads nothing but the package's own modules and Node's: no Pulumi SDK, so it starts at once", () => {
    // Every module the bin requires, followed through the package's own files.
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, name] of readFileSync(file, "utf8").matchAll(/require\("([^"]+)"\)/g)) {
        if (name?.startsWith(".")) visit(join(dirname(file), name.endsWith(".js") ? name : `${name}.js`));
        else expect(name, `${file} requires ${name}`).toMatch(/^node:[a-z/]+$/);
      }
    };
    visit(reviewBin);
    expect(seen.size).toBeGreaterThan(5);
  });

  it("reads the same preview from a file and from stdin; exits 0 when nothing is refused", async () => {
    const text = readFileSync(join(fixtures, "update.json"), "utf8");
    const fromFile = await runReviewBin([join(fixtures, "update.json")]);
    const fromStdin = await runReviewBin([], text);
    expect(fromFile.code).toBe(0);
    expect(fromStdin.code).toBe(0);
    expect(fromFile.stdout).toContain("#### `bot-a`: update in place");
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    expect((await runReviewBin(["-", "--fail-on", "replace,delete"], text)).code).toBe(0);
  });

  it("--fail-on update refuses an update; --fail-on create refuses a create", async () => {
    expect((await runReviewBin([join(fixtures, "update.json"), "--fail-on", "update"])).code).toBe(3);
    expect((await runReviewBin([join(fixtures, "create.json"), "--fail-on", "create"])).code).toBe(3);
    expect((await runReviewBin([join(fixtures, "create.json"), "--fail-on", "update,replace,delete"])).code).toBe(0);
  });

  it("--fail-on live-sessions refuses a delete of an agent with live sessions (the delete fixture with 2 in its outputs), naming them", async () => {
    const document = JSON.parse(readFileSync(join(fixtures, "delete.json"), "utf8")) as { steps: { urn: string; oldState?: { outputs?: Record<string, unknown> } }[] };
    Object.assign(document.steps.find((s) => s.urn.endsWith("::bot-c"))?.oldState?.outputs ?? {}, { activeSessionCount: 2 });
    const run = await runReviewBin(["--fail-on", "live-sessions"], JSON.stringify(document));
    expect(run.code).toBe(3);
    expect(run.stdout).toContain("#### `bot-c`: delete (2 live sessions)");
    expect(run.stderr).toBe("agent-hosting-review: --fail-on live-sessions: bot-c (delete, 2 live sessions)\n");
    expect((await runReviewBin(["--fail-on", "live-sessions"], readFileSync(join(fixtures, "delete.json"), "utf8"))).code).toBe(0);
  });

  it.each([
    [["--fail-on", "destroy"], '"destroy" is not one'],
    [["--fail-on"], "argument missing"],
    [["--failon", "replace"], "Unknown option '--failon'"],
    [["a.json", "b.json"], "expected at most one input file"],
    [["drift", "--fail-on", "delete"], 'with drift, --fail-on takes only "drift"'],
  ])("a bad command line %j: exit 2, the reason and the usage on stderr, nothing on stdout", async (args, reason) => {
    const run = await runReviewBin(args, "{}");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(reason);
    expect(run.stderr).toContain("usage: agent-hosting-review [preview|drift|up] [FILE | -] [flags]");
  });

  it.each([["--help"], ["-h"]])("%s prints every command and every flag with its default, and exits 0", async (flag) => {
    const run = await runReviewBin([flag]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(`${USAGE}\n`);
    for (const name of Object.keys(REVIEW_COMMANDS)) expect(run.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    for (const [name, spec] of Object.entries(REVIEW_FLAGS)) {
      const line = run.stdout.split("\n").find((l) => l.includes(`--${name}`) && l.includes("(default:"));
      expect(line, `--${name}`).toContain(`(default: ${spec.defaultText})`);
    }
    expect(run.stdout).toContain("exit codes: 0 done; 3 refused by --fail-on");
  });

  it("--version prints the package's version and exits 0", async () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(await runReviewBin(["--version"])).toEqual({ code: 0, stdout: `agent-hosting-review ${pkg.version}\n`, stderr: "" });
  });

  it("drift and up read their documents: --fail-on drift exits 3 on drift, 0 on a clean stack; up needs no flag", async () => {
    const drift = await runReviewBin(["drift", join(fixtures, "drift-refresh-native.json"), "--fail-on", "drift"]);
    expect(drift.code).toBe(3);
    expect(drift.stdout).toContain("**Deleted outside Pulumi:**");
    expect(drift.stderr).toBe("agent-hosting-review: --fail-on drift: stack dev drifted\n");
    expect((await runReviewBin(["--drift", join(fixtures, "drift-clean.json"), "--fail-on", "drift"])).code).toBe(0);
    const up = await runReviewBin(["up", join(fixtures, "up-create.txt")]);
    expect(up.code).toBe(0);
    expect(up.stdout).toContain("## Agent Hosting update applied: stack `dev`");
    const notUp = await runReviewBin(["up", join(fixtures, "update.json")]);
    expect(notUp.code).toBe(1);
    expect(notUp.stderr).toContain("the input holds no engine events");
  });

  it("a missing file or a document that is not a preview: exit 1 naming the file and the problem", async () => {
    const missing = await runReviewBin([join(scratch, "nope.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read ${join(scratch, "nope.json")}: ENOENT`);
    const textOutput = join(scratch, "text.txt");
    writeFileSync(textOutput, "Previewing update (dev):\n");
    const notJson = await runReviewBin([textOutput]);
    expect(notJson.code).toBe(1);
    expect(notJson.stdout).toBe("");
    expect(notJson.stderr).toContain(`${textOutput}: the input is not JSON`);
    expect(notJson.stderr).toContain("expected the output of `pulumi preview --json`");
    const empty = await runReviewBin([], "");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("stdin: the input is not JSON (the input is empty)");
  });
});
