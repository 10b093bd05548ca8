/**
 * examples/pipeline/.github/workflows/agents.yml, read as GitHub reads it:
 * the commands it runs are checked against the package's real bins
 * (package.json), the review bin's own flag table and exit codes, and the
 * real pulumi CLI's flags, so renaming any of them fails here.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { API_KEY_ENV } from "../../src/core/settings";
import { EXIT, parseReviewArgs, REVIEW_FLAGS } from "../../src/review/flags";
import { REVIEW_MARKER } from "../../src/review/markdown";
import { shellCommands, type ShellCommand } from "./support/shell-commands";

const root = resolve(__dirname, "../..");
const exampleDir = join(root, "examples/pipeline");
const APPROVAL_LABEL = "allow-replace";

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
  concurrency?: { group?: unknown; "cancel-in-progress"?: unknown };
  steps: Step[];
}
interface Workflow {
  on: { pull_request?: { types?: string[]; branches?: string[] }; push?: { branches?: string[] } };
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = parse(readFileSync(join(exampleDir, ".github/workflows/agents.yml"), "utf8")) as Workflow;
const bins = Object.keys((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: Record<string, string> }).bin);

function commandsOf(job: Job): ShellCommand[] {
  return job.steps.flatMap((step) => (step.run ? shellCommands(step.run) : []));
}

/** A command with `npx` dropped: the program and its arguments. */
function program(command: ShellCommand): string[] {
  if (command.words[0] !== "npx") return command.words;
  const rest = command.words.slice(1);
  while (rest[0]?.startsWith("-")) rest.shift();
  return rest;
}

const allCommands = Object.values(workflow.jobs).flatMap(commandsOf);
const reviewCommands = allCommands.filter((c) => program(c)[0] === "agent-hosting-review");

describe("the pipeline example's workflow", () => {
  it("runs on pull requests (also when a label is added or removed) and on pushes to main", () => {
    expect(workflow.on.pull_request?.types).toEqual(expect.arrayContaining(["opened", "synchronize", "labeled", "unlabeled"]));
    expect(workflow.on.push?.branches).toEqual(["main"]);
  });

  it(`takes the API key from the repository's secrets into ${API_KEY_ENV}`, () => {
    expect(workflow.env[API_KEY_ENV]).toBe(`\${{ secrets.${API_KEY_ENV} }}`);
  });

  it("calls through npx only the package's real bins", () => {
    const viaNpx = allCommands.filter((c) => c.words[0] === "npx").map((c) => program(c)[0]);
    expect(viaNpx.length).toBeGreaterThan(0);
    for (const name of viaNpx) expect(bins, `npx ${name}`).toContain(name);
  });

  it("runs agent-hosting-review with flags of its own table, on the file pulumi preview --json wrote", () => {
    expect(reviewCommands).toHaveLength(1);
    const [review] = reviewCommands as [ShellCommand];
    const args = program(review).slice(1);
    for (const word of args.filter((w) => w.startsWith("--"))) {
      expect(Object.keys(REVIEW_FLAGS), word).toContain(word.replace(/^--/, "").split("=")[0]);
    }
    const parsed = parseReviewArgs(args);
    expect(parsed).toMatchObject({ ok: true, options: { failOn: ["replace", "delete"] } });
    const preview = allCommands.find((c) => c.words[0] === "pulumi" && c.words[1] === "preview");
    expect(preview?.words).toContain("--json");
    expect(parsed.ok && parsed.options.file).toBe(preview?.stdoutTo);
  });

  it("posts the review's Markdown as the comment it finds by the review's first line", () => {
    const [review] = reviewCommands as [ShellCommand];
    const post = workflow.jobs["preview"]?.steps.find((s) => s.run?.includes("gh pr comment"));
    expect(post?.run).toContain(`marker='${REVIEW_MARKER}'`);
    const posts = shellCommands(post?.run ?? "").filter((c) => c.words[0] === "gh");
    expect(posts.map((c) => c.words.join(" "))).toEqual([
      `gh api --method PATCH repos/$GITHUB_REPOSITORY/issues/comments/$id -F body=@${review.stdoutTo}`,
      `gh pr comment $PR --body-file ${review.stdoutTo}`,
    ]);
    expect(workflow.jobs["preview"]?.permissions?.["pull-requests"]).toBe("write");
  });

  it(`fails on the review's --fail-on exit code (${EXIT.failOn}) unless the pull request has the label ${APPROVAL_LABEL}`, () => {
    const steps = workflow.jobs["preview"]?.steps ?? [];
    const reviewStep = steps.find((s) => s.run?.includes("agent-hosting-review"));
    expect(reviewStep?.run).toContain(`[ "$status" -ne ${EXIT.failOn} ]`);
    const gate = steps.find((s) => s.if?.includes(`steps.${reviewStep?.id}.outputs.status == '${EXIT.failOn}'`));
    expect(gate?.if).toContain(`!contains(github.event.pull_request.labels.*.name, '${APPROVAL_LABEL}')`);
    expect(shellCommands(gate?.run ?? "").map((c) => c.words.join(" "))).toContain("exit 1");
  });

  it("runs `pulumi up` on main only, in a concurrency group that never cancels a running up", () => {
    const up = workflow.jobs["up"];
    expect(up?.if).toContain("github.event_name == 'push'");
    expect(typeof up?.concurrency?.group).toBe("string");
    expect(up?.concurrency?.["cancel-in-progress"]).toBe(false);
    const upCommands = commandsOf(up as Job).filter((c) => c.words[0] === "pulumi");
    expect(upCommands.map((c) => c.words.slice(0, 2).join(" "))).toEqual(["pulumi up"]);
    expect(upCommands[0]?.words).toContain("--yes");
  });

  it("passes the real pulumi CLI only flags it has", () => {
    const dir = process.env["AGENT_HOSTING_PULUMI_CLI_DIR"];
    const pulumi = dir ? join(dir, "pulumi") : "pulumi";
    const pulumiCommands = allCommands.filter((c) => c.words[0] === "pulumi");
    expect(pulumiCommands.length).toBe(2);
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
    for (const term of ["agent-hosting-review", "--fail-on replace,delete", APPROVAL_LABEL, API_KEY_ENV, "PULUMI_ACCESS_TOKEN", "concurrency"]) {
      expect(readme, term).toContain(term);
    }
  });
});
