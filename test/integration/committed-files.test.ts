/**
 * Files the project commits from real runs: bench/results.json (written by
 * `npm run bench` against emulators with random keys) and the READMEs hold
 * no key; every derived figure in bench/results.json (per-pair values,
 * median, p80, bound, verdict, allPass) equals what bench/lib/figure.mjs
 * recomputes from the raw samples recorded beside it, so an edited figure or
 * a hand-set verdict fails; every figure's rule and bar are the ones
 * bench/lib/bars.mjs declares, so a limit loosened in the file fails; and the
 * file is one whole run of the current method: its method version, the whole
 * plan of bench/plan.mjs (sizes, pairs, every group measured, every figure id
 * in order, each figure's sample count), and the facts a run records (commit,
 * dirty flag, load averages, CPU model).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DELAYS_MS } from "../../bench/figures/readiness.mjs";
import { barFor, METHOD_VERSION } from "../../bench/lib/bars.mjs";
import { recheckResults, type Figure } from "../../bench/lib/figure.mjs";
import { machineFacts } from "../../bench/lib/report.mjs";
import { derive } from "../../bench/lib/stats.mjs";
import { groupsOf, PLANS } from "../../bench/plan.mjs";

const root = join(__dirname, "../..");
const RESULTS = join(root, "bench/results.json");
const EMULATOR_KEY = /emu-[0-9a-f]{24}/;

/** bench/results.json as bench/run.mjs writes it. */
interface Results {
  methodVersion: number;
  generatedAt: string;
  sizes: { small: number; large: number };
  pairs: number;
  largePairs: number;
  machine: Record<string, unknown> & { commit: string; dirty: boolean; cpuModel: string; loadAverage: { start: number; end: number } };
  allPass: boolean;
  errors: { group: string; message: string }[];
  figures: Figure[];
}

const committed = () => JSON.parse(readFileSync(RESULTS, "utf8")) as Results;

/** Where a figure's rule or bar differs from the one bench/lib/bars.mjs declares for its id: [] when nowhere. */
function barProblems(results: Results): string[] {
  return results.figures.flatMap((f) => {
    const declared = barFor(f.id);
    return (["rule", "bar"] as const)
      .filter((key) => JSON.stringify(f[key]) !== JSON.stringify(declared[key]))
      .map((key) => `${f.id}: ${key} is ${JSON.stringify(f[key])}, declared ${JSON.stringify(declared[key])}`);
  });
}

/** `results` with the figure `id` replaced by `edit(figure)`. */
function withFigure(results: Results, id: string, edit: (figure: Figure) => Figure): Results {
  return { ...results, figures: results.figures.map((f) => (f.id === id ? edit(structuredClone(f)) : f)) };
}

describe("committed results", () => {
  it.each(["bench/results.json", "README.md", "bench/README.md"])("%s holds no API key or header", (file) => {
    const path = join(root, file);
    expect(existsSync(path), `${file} exists`).toBe(true);
    const text = readFileSync(path, "utf8");
    expect(text).not.toMatch(EMULATOR_KEY);
    expect(text).not.toMatch(/Bearer [A-Za-z0-9]/);
    expect(text).not.toMatch(/"apiKey"\s*:\s*"[^"]+"/);
  });

  it("bench/results.json agrees with the bench's own recomputation from its raw samples", () => {
    expect(recheckResults(committed())).toEqual([]);
  });

  it("every figure's rule and bar in bench/results.json are the ones bench/lib/bars.mjs declares", () => {
    expect(barProblems(committed())).toEqual([]);
  });

  it("an edited figure, a hand-set verdict and a loosened limit with its verdict recomputed each fail", () => {
    const results = committed();
    /** The problems `check` finds in `edited` and not in the committed file. */
    const added = (check: (r: Results) => string[], edited: Results) => {
      const before = check(results);
      return check(edited).filter((problem) => !before.includes(problem));
    };
    const judged = results.figures.find((f) => f.rule.compare !== "none");
    if (!judged) throw new Error("bench/results.json has no figure with a bar");
    const edited = withFigure(results, judged.id, (f) => ({ ...f, bound: f.bound + 1 }));
    expect(added(recheckResults, edited)).toContain(`${judged.id}: bound is ${judged.bound + 1}, recomputed ${judged.bound}`);
    const verdict = withFigure(results, judged.id, (f) => ({ ...f, pass: !f.pass }));
    expect(added(recheckResults, verdict)).toContain(`${judged.id}: pass is ${!judged.pass}, recomputed ${judged.pass}`);

    const loosenedRule = { ...judged.rule, limit: judged.rule.limit + 1000 };
    const loosened = withFigure(results, judged.id, (f) => ({ ...f, rule: loosenedRule, ...derive(loosenedRule, f.samples) }));
    const declared = barFor(judged.id);
    expect(added(barProblems, loosened)).toEqual([`${judged.id}: rule is ${JSON.stringify(loosenedRule)}, declared ${JSON.stringify(declared.rule)}`]);
    expect(added(recheckResults, loosened)).toContain(`${judged.id}: rule is ${JSON.stringify(loosenedRule)}, recomputed ${JSON.stringify(declared.rule)}`);
    const rebarred = withFigure(results, judged.id, (f) => ({ ...f, bar: "≤ anything" }));
    expect(added(barProblems, rebarred)).toEqual([`${judged.id}: bar is "≤ anything", declared ${JSON.stringify(declared.bar)}`]);
  });

  it("bench/results.json is a whole run of the current method: every group of bench/plan.mjs measured, every figure, every pair", () => {
    const results = committed();
    const whole = PLANS.whole;
    const groups = groupsOf(whole);
    expect(results.methodVersion, "the method version (bench/lib/bars.mjs)").toBe(METHOD_VERSION);
    expect({ sizes: results.sizes, pairs: results.pairs, largePairs: results.largePairs }).toEqual(whole);
    expect(
      results.errors.map((e) => `${e.group}: ${e.message.split("\n")[0]}`),
      "groups that failed to measure",
    ).toEqual([]);
    expect(results.figures.map((f) => f.id)).toEqual(groups.flatMap((g) => g.figures));

    const runs = new Map(
      groups.flatMap((g) => g.figures.map((id) => [id, g.samples ?? (g.id.endsWith(`-${whole.sizes.large}`) ? whole.largePairs : whole.pairs)] as const)),
    );
    for (const figure of results.figures) {
      // Readiness: each of its delays is created in every run.
      const expected = figure.rule.method === "single" ? 1 : figure.id === "readiness" ? DELAYS_MS.length * whole.pairs : runs.get(figure.id);
      expect(figure.samples.length, figure.id).toBe(expected);
    }
    expect(results.figures.find((f) => f.id === "provider-bytes-grown")?.["grownCodeCalled"]).toBe(true);
  });

  it("bench/results.json records the run's commit, whether the tree was dirty, the load averages and the CPU", () => {
    const { machine } = committed();
    expect(Object.keys(machine)).toEqual(expect.arrayContaining([...Object.keys(machineFacts(root, "v3")), "loadAverage"]));
    expect(machine.commit).toMatch(/^[0-9a-f]{40}$/);
    const ancestor = spawnSync("git", ["merge-base", "--is-ancestor", machine.commit, "HEAD"], { cwd: root });
    expect(ancestor.status, `the run's commit ${machine.commit} is in HEAD's history`).toBe(0);
    expect(typeof machine.dirty).toBe("boolean");
    expect(machine.cpuModel).toMatch(/\S/);
    expect(machine["pulumi"]).toMatch(/^v3\./);
    for (const when of ["start", "end"] as const) {
      expect(typeof machine.loadAverage[when], `load average at the ${when}`).toBe("number");
      expect(machine.loadAverage[when], `load average at the ${when}`).toBeGreaterThanOrEqual(0);
    }
  });
});
