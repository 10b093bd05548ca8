// @ts-check
// The rules the bench declares. Each figure module states the rule and the
// bar in words of every figure it makes in one table, which it exports as
// RULES (made with `ruleTable`) and makes its figures through
// (`declaredFigure`), so the table is the module's own. The figures a module
// derives from others' bounds (the scaling figures) name their sources in a
// table too (SOURCES).
//
// test/integration/committed-files.test.ts holds bench/results.json to these
// tables: every recorded figure's rule (method, combine, compare, limit and
// any parameter) and bar must be the ones its module declares
// (`declaredRuleProblems`), so a limit loosened in the file, or a figure no
// module makes any more, fails; and every derived figure's samples must be
// its sources' bounds as the file records them (`sourceProblems`), which the
// same test recomputes from their raw samples.
//
// Adopting it in a figure module:
//   export const RULES = ruleTable({ "my-figure": { rule: {...}, bar: "≤ 1.15" } });
//   declaredFigure(RULES, { id: "my-figure", name, unit, samples });
// and the module goes into the test's list of modules (DECLARING).
import { makeFigure } from "./figure.mjs";

/**
 * @typedef {import("./stats.mjs").Rule} Rule
 * @typedef {import("./figure.mjs").Figure} Figure
 * @typedef {import("./figure.mjs").Results} Results
 * @typedef {{ rule: Rule, bar: string }} Declared
 * @typedef {(id: string) => Declared | undefined} RuleTable
 *   A figure id's declared rule and bar; undefined for an id the module does not make.
 */

/** The stack size whose figures carry the plain id (see sizedId). */
export const BASE_SIZE = 50;

/**
 * A figure id at a stack size: the plain id at BASE_SIZE agents, `<id>-<n>` otherwise.
 * @param {string} id
 * @param {number} n
 */
export const sizedId = (id, n) => (n === BASE_SIZE ? id : `${id}-${n}`);

/**
 * A module's table of rules: `fixed` ids, and `sized` families whose ids
 * carry the stack's size (see sizedId: `up` at 50 agents, `up-400` at 400),
 * each a function of the size.
 * @param {Record<string, Declared>} fixed
 * @param {Record<string, (n: number) => Declared>} [sized]
 * @returns {RuleTable}
 */
export function ruleTable(fixed, sized = {}) {
  return (id) => {
    if (Object.hasOwn(fixed, id)) return fixed[id];
    const family = Object.hasOwn(sized, id) ? sized[id] : undefined;
    if (family) return family(BASE_SIZE);
    const match = /^(.+)-(\d+)$/.exec(id);
    const base = match?.[1];
    if (match && base !== undefined && Object.hasOwn(sized, base) && Number(match[2]) !== BASE_SIZE) return sized[base]?.(Number(match[2]));
    return undefined;
  };
}

/**
 * makeFigure with the rule and the bar `table` declares for `spec.id`.
 * @param {RuleTable} table
 * @param {{ id: string, name: string, unit: string, samples: import("./stats.mjs").Sample[], extra?: Record<string, unknown> }} spec
 * @returns {Figure}
 */
export function declaredFigure(table, spec) {
  const declared = table(spec.id);
  if (!declared) throw new Error(`no rule is declared for the figure "${spec.id}"`);
  return makeFigure({ ...spec, rule: declared.rule, bar: declared.bar });
}

/**
 * A rule as text with its keys sorted, for comparing two rules.
 * @param {Rule} rule
 */
const ruleText = (rule) =>
  JSON.stringify(
    Object.keys(rule)
      .sort()
      .map((key) => [key, /** @type {Record<string, unknown>} */ (rule)[key]]),
  );

/**
 * The figures of `results` whose rule or bar is not the one declared for its
 * id by exactly one of `tables`; [] when every figure's is.
 * @param {Results} results
 * @param {readonly RuleTable[]} tables
 * @returns {string[]}
 */
export function declaredRuleProblems(results, tables) {
  return results.figures.flatMap((figure) => {
    const found = tables.map((table) => table(figure.id)).filter((d) => d !== undefined);
    if (found.length === 0) return [`${figure.id}: no bench module declares a rule for it`];
    if (found.length > 1) return [`${figure.id}: ${found.length} bench modules declare a rule for it`];
    const [declared] = found;
    if (!declared) return [];
    /** @type {string[]} */
    const problems = [];
    if (!figure.rule || ruleText(figure.rule) !== ruleText(declared.rule)) {
      problems.push(`${figure.id}: rule is ${JSON.stringify(figure.rule)}, declared ${JSON.stringify(declared.rule)}`);
    }
    if (figure.bar !== declared.bar) problems.push(`${figure.id}: bar is ${JSON.stringify(figure.bar)}, declared ${JSON.stringify(declared.bar)}`);
    return problems;
  });
}

/**
 * The derived figures of `results` (those `sources` names, and every id
 * ending in `-scaling`) whose one sample is not { subject: the bound of the
 * source at the large size, baseline: its bound at BASE_SIZE }, as `results`
 * records those bounds. `sources`: derived id → the source's id at BASE_SIZE
 * (the large size is read from the figure's `from`, [large id, base id]).
 * @param {Results} results
 * @param {Readonly<Record<string, string>>} sources
 * @returns {string[]}
 */
export function sourceProblems(results, sources) {
  const byId = new Map(results.figures.map((f) => [f.id, f]));
  return results.figures.flatMap((figure) => {
    const base = Object.hasOwn(sources, figure.id) ? sources[figure.id] : undefined;
    if (base === undefined) return figure.id.endsWith("-scaling") ? [`${figure.id}: no bench module names its sources`] : [];
    const from = figure["from"];
    const large = Array.isArray(from) && typeof from[0] === "string" ? from[0] : "";
    const size = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-(\\d+)$`).exec(large)?.[1];
    if (!Array.isArray(from) || from.length !== 2 || from[1] !== base || size === undefined || Number(size) === BASE_SIZE) {
      return [`${figure.id}: from is ${JSON.stringify(from)}, expected ["${base}-<size>", "${base}"]`];
    }
    const big = byId.get(large);
    const small = byId.get(base);
    if (!big || !small) return [`${figure.id}: its source ${big ? base : large} is not in the results`];
    const expected = [{ subject: big.bound, baseline: small.bound }];
    const recorded = figure.samples.map((s) => (typeof s === "number" ? s : { subject: s.subject, baseline: s.baseline }));
    return JSON.stringify(recorded) === JSON.stringify(expected)
      ? []
      : [`${figure.id}: samples are ${JSON.stringify(recorded)}, its sources' bounds ${JSON.stringify(expected)}`];
  });
}
