/**
 * examples/pipeline/.github/workflows/ (agents.yml and agents-drift.yml),
 * read as GitHub reads them: the commands they run are checked against the
 * package's real bins (package.json), the review bin's own command and flag
 * tables and exit codes, the markers it writes, and the real pulumi CLI's
 * flags, so renaming any of them fails here.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { API_KEY_ENV } from "../../src/core/settings";
import { EXIT, FAIL_ON_DRIFT, parseReviewArgs, REVIEW_FLAGS, type ReviewOptions } from "../../src/review/flags";
import { reviewDrift, reviewPreview, reviewUp } from "../../src/review/review";
import { shellCommands, type ShellCommand } from "./support/shell-commands";

const root = resolve(__dirname, "../..");
const exampleDir = join(root, "examples/pipeline");
const fixtures = join(root, "test/unit/fixtures/review");
const APPROVAL_LABEL = "allow-replace";
const DRIFT_LABEL = "agent-drift";

interface Step {
  id?: string;
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { matrix?: { stack?: string[] } };
  concurrency?: { group?: unknown; "cancel-in-progress"?: unknown };
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: {
    pull_request?: { types?: string[]; branches?: string[] };
    push?: { branches?: string[] };
    schedule?: { cron: string }[];
    workflow_dispatch?: unknown;
  };
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const readWorkflow = (name: string) => parse(readFileSync(join(exampleDir, ".github/workflows", name), "utf8")) as Workflow;
const workflow = readWorkflow("agents.yml");
const driftWorkflow = readWorkflow("agents-drift.yml");
const bins = Object.keys((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: Record<string, string> }).bin);

function commandsOf(job: Job | undefined): ShellCommand[] {
  return (job?.steps ?? []).flatMap((step) => (step.run ? shellCommands(step.run) : []));
}

/** A command with `npx` dropped: the program and its arguments. */
function program(command: ShellCommand): string[] {
  if (command.words[0] !== "npx") return command.words;
  const rest = command.words.slice(1);
  while (rest[0]?.startsWith("-")) rest.shift();
  return rest;
}

const jobs = { preview: workflow.jobs["preview"], up: workflow.jobs["up"], drift: driftWorkflow.jobs["drift"] };
const allCommands = [...Object.values(workflow.jobs), ...Object.values(driftWorkflow.jobs)].flatMap(commandsOf);
const reviewsIn = (job: Job | undefined) => commandsOf(job).filter((c) => program(c)[0] === "agent-hosting-review");
const pulumiIn = (job: Job | undefined) => commandsOf(job).filter((c) => c.words[0] === "pulumi");

/** The options a review command of the workflow parses to. */
function optionsOf(command: ShellCommand): ReviewOptions {
  const args = program(command).slice(1);
  for (const word of args.filter((w) => w.startsWith("--"))) {
    expect(Object.keys(REVIEW_FLAGS), word).toContain(word.replace(/^--/, "").split("=")[0]);
  }
  const parsed = parseReviewArgs(args);
  if (!parsed.ok) throw new Error(`${args.join(" ")}: ${parsed.message}`);
  return parsed.options;
}

function stepRunning(job: Job | undefined, text: string): Step | undefined {
  return job?.steps.find((s) => s.run?.includes(text));
}

describe("the pipeline example's workflows", () => {
  it("agents.yml runs on pull requests (also when a label is added or removed) and on pushes to main; agents-drift.yml nightly and by hand", () => {
    expect(workflow.on.pull_request?.types).toEqual(expect.arrayContaining(["opened", "synchronize", "labeled", "unlabeled"]));
    expect(workflow.on.push?.branches).toEqual(["main"]);
    expect(driftWorkflow.on.schedule?.[0]?.cron).toMatch(/^\d+ \d+ \* \* \*$/);
    expect(driftWorkflow.on).toHaveProperty("workflow_dispatch");
  });

  it(`takes the API key from the repository's secrets into ${API_KEY_ENV}`, () => {
    for (const w of [workflow, driftWorkflow]) expect(w.env[API_KEY_ENV]).toBe(`\${{ secrets.${API_KEY_ENV} }}`);
  });

  it("runs one job per stack (a matrix), each stack's pulumi commands and reviews naming that stack", () => {
    for (const [name, job] of Object.entries(jobs)) {
      expect(job?.strategy?.matrix?.stack, name).toEqual(["staging", "prod"]);
      expect(job?.env?.["STACK"], name).toBe("${{ matrix.stack }}");
      for (const command of pulumiIn(job)) expect(command.words.join(" "), name).toContain("--stack $STACK");
      for (const command of reviewsIn(job)) expect(optionsOf(command).stack, name).toBe("$STACK");
    }
  });

  it("calls through npx only the package's real bins", () => {
    const viaNpx = allCommands.filter((c) => c.words[0] === "npx").map((c) => program(c)[0]);
    expect(viaNpx.length).toBeGreaterThan(0);
    for (const name of viaNpx) expect(bins, `npx ${name}`).toContain(name);
  });

  it("preview: reviews the file pulumi preview --json wrote, refusing replaces and deletes, skipping a stack without changes", () => {
    const [review, ...more] = reviewsIn(jobs.preview);
    expect(more).toEqual([]);
    const options = optionsOf(review as ShellCommand);
    expect(options).toMatchObject({ command: "preview", failOn: ["replace", "delete"], skipNoChanges: true });
    const preview = pulumiIn(jobs.preview).find((c) => c.words[1] === "preview");
    expect(preview?.words).toContain("--json");
    expect(options.file).toBe(preview?.stdoutTo);
  });

  it("preview: posts one comment per stack, found by the review's marker line; for a stack without changes, posts nothing", () => {
    const [review] = reviewsIn(jobs.preview) as [ShellCommand];
    const post = stepRunning(jobs.preview, "gh pr comment");
    expect(post?.run).toContain(`marker=$(head -n 1 ${review.stdoutTo})`);
    expect(post?.run).toContain('select(.body | startswith(\\"$marker\\"))');
    const posts = shellCommands(post?.run ?? "").filter((c) => c.words[0] === "gh");
    expect(posts.map((c) => c.words.join(" "))).toEqual([
      "gh api --method DELETE repos/$GITHUB_REPOSITORY/issues/comments/$id",
      `gh api --method PATCH repos/$GITHUB_REPOSITORY/issues/comments/$id -F body=@${review.stdoutTo}`,
      `gh pr comment $PR --body-file ${review.stdoutTo}`,
    ]);
    // Only the marker line means "no changes": the condition that posts nothing.
    expect(post?.run).toContain(`if [ "$(wc -l < ${review.stdoutTo})" -le 1 ]; then`);
    expect(jobs.preview?.permissions?.["pull-requests"]).toBe("write");
  });

  it("the markers it finds comments by: one per project and stack, the same for the preview's and the up's comment", () => {
    const text = (name: string) => readFileSync(join(fixtures, name), "utf8");
    const marker = (markdown: string) => markdown.split("\n", 1)[0];
    const staging = reviewPreview(text("update.json"), [], { identity: { stack: "staging" } }).markdown;
    const prod = reviewPreview(text("update.json"), [], { identity: { stack: "prod" } }).markdown;
    expect(marker(staging)).toBe("<!-- agent-hosting-review project=agent-hosting-e2e stack=staging -->");
    expect(marker(prod)).not.toBe(marker(staging));
    expect(marker(reviewUp(text("up-create.txt"), { identity: { stack: "prod" } }).markdown)).toBe(marker(prod));
    // With --skip-no-changes a stack without changes gives the marker line alone.
    const clean = reviewDrift(text("drift-clean.json"), { identity: { stack: "prod" }, skipNoChanges: true }).markdown;
    expect(clean).toBe("<!-- agent-hosting-drift project=agent-hosting-e2e stack=prod -->\n");
  });

  it(`preview: fails on the review's --fail-on exit code (${EXIT.failOn}) unless the pull request has the label ${APPROVAL_LABEL}`, () => {
    const steps = jobs.preview?.steps ?? [];
    const reviewStep = stepRunning(jobs.preview, "agent-hosting-review");
    expect(reviewStep?.run).toContain(`[ "$status" -ne ${EXIT.failOn} ]`);
    const gate = steps.find((s) => s.if?.includes(`steps.${reviewStep?.id}.outputs.status == '${EXIT.failOn}'`));
    expect(gate?.if).toContain(`!contains(github.event.pull_request.labels.*.name, '${APPROVAL_LABEL}')`);
    expect(shellCommands(gate?.run ?? "").map((c) => c.words.join(" "))).toContain("exit 1");
  });

  it("up: `pulumi up --json` on main only, one per stack at a time, never cancelled", () => {
    const up = jobs.up;
    expect(up?.if).toContain("github.event_name == 'push'");
    expect(up?.concurrency?.group).toBe("agents-up-${{ matrix.stack }}");
    expect(up?.concurrency?.["cancel-in-progress"]).toBe(false);
    const upCommands = pulumiIn(up);
    expect(upCommands.map((c) => c.words.slice(0, 2).join(" "))).toEqual(["pulumi up"]);
    expect(upCommands[0]?.words).toEqual(expect.arrayContaining(["--yes", "--json"]));
  });

  it("up: updates the merged pull request's comment of the stack with what was applied, the reviewed preview kept below", () => {
    const upFile = pulumiIn(jobs.up)[0]?.stdoutTo;
    const reviews = reviewsIn(jobs.up).map(optionsOf);
    expect(reviews).toHaveLength(2);
    for (const options of reviews) expect(options).toMatchObject({ command: "up", file: upFile });
    expect(reviews[1]?.previous).toBe("previous.md");
    const step = stepRunning(jobs.up, "agent-hosting-review up");
    expect(step?.run).toContain("repos/$GITHUB_REPOSITORY/commits/$GITHUB_SHA/pulls");
    expect(step?.run).toContain("--jq .body > previous.md");
    const gh = shellCommands(step?.run ?? "").filter((c) => c.words[0] === "gh").map((c) => c.words.join(" "));
    expect(gh).toContain("gh api --method PATCH repos/$GITHUB_REPOSITORY/issues/comments/$id -F body=@applied.md");
    expect(jobs.up?.permissions?.["pull-requests"]).toBe("write");
    const fail = jobs.up?.steps.find((s) => s.if === "steps.up.outputs.status != '0'");
    expect(shellCommands(fail?.run ?? "").map((c) => c.words.join(" "))).toContain("exit 1");
  });

  it(`drift: reviews the refresh preview with --fail-on ${FAIL_ON_DRIFT}, then opens, updates or closes the stack's issue`, () => {
    const [preview, ...others] = pulumiIn(jobs.drift);
    expect(others).toEqual([]);
    expect(preview?.words).toEqual(expect.arrayContaining(["preview", "--refresh", "--json"]));
    const [review] = reviewsIn(jobs.drift).map(optionsOf);
    expect(review).toMatchObject({ command: "drift", failOnDrift: true, file: preview?.stdoutTo });
    const step = stepRunning(jobs.drift, "gh issue");
    expect(step?.env?.["DRIFT"]).toBe("${{ steps.drift.outputs.status }}");
    expect(step?.run).toContain(`if [ "$DRIFT" = "${EXIT.failOn}" ]; then`);
    const gh = shellCommands(step?.run ?? "").filter((c) => c.words[0] === "gh").map((c) => c.words.slice(0, 3).join(" "));
    expect(gh).toEqual(["gh issue edit", "gh issue create", "gh issue close"]);
    expect(step?.run).toContain(`--label ${DRIFT_LABEL}`);
    expect(jobs.drift?.permissions?.["issues"]).toBe("write");
  });

  it("passes the real pulumi CLI only flags it has", () => {
    const dir = process.env["AGENT_HOSTING_PULUMI_CLI_DIR"];
    const pulumi = dir ? join(dir, "pulumi") : "pulumi";
    const pulumiCommands = allCommands.filter((c) => c.words[0] === "pulumi");
    expect(pulumiCommands.length).toBe(3);
    for (const command of pulumiCommands) {
      const help = execFileSync(pulumi, [command.words[1] as string, "--help"], {
        encoding: "utf8",
        env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
      });
      for (const flag of command.words.filter((w) => w.startsWith("--"))) {
        expect(help, `pulumi ${command.words[1]} ${flag}`).toMatch(new RegExp(`\\s${flag}[\\s=]`));
      }
    }
  });

  it("is explained by the README beside it", () => {
    const readme = readFileSync(join(exampleDir, "README.md"), "utf8");
    for (const term of [
      "agent-hosting-review",
      "--fail-on replace,delete",
      "--skip-no-changes",
      `--fail-on ${FAIL_ON_DRIFT}`,
      "agents-drift.yml",
      "pulumi preview --refresh --json",
      "pulumi refresh --preview-only --json",
      "pulumi up --json",
      APPROVAL_LABEL,
      DRIFT_LABEL,
      API_KEY_ENV,
      "PULUMI_ACCESS_TOKEN",
      "concurrency",
    ]) {
      expect(readme, term).toContain(term);
    }
  });
});
