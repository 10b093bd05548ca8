// @ts-check
// Every figure's rule and bar, in one table: the quality bars of the bench
// (bench/README.md, "What is measured"). A figure's id is its family, the
// path's prefix ("native-") for the native plugin, and the stack's size
// (`up-control-400`, `native-cpu-preview-400`); barFor strips both.
//
// A bar stands only on a figure whose spread over runs is at most half its
// margin (bench/pool.mjs prints both): counts and bytes, which do not move;
// CPU time and peak memory against a control measured in the same pairs;
// the readiness lag; the log read on its median. Wall-time ratios are
// reported, against the control with a gross-regression bar on the p80 that
// a real extra wait (one more poll interval per agent) breaks.

/** @typedef {import("./stats.mjs").Rule} Rule @typedef {{ rule: Rule, bar: string }} Bar */

/** What `pulumi stack export` held per Agent on 2026-12-01 (dynamic path), the state-bytes bar's base. */
export const STATE_BYTES_BASE = 2866;
/** The code the size figure adds to the provider's implementation. */
export const GROWTH_BYTES = 256 * 1024;
/**
 * Version of the method: bench/pool.mjs pools only runs of the same one. It changes when a figure is
 * measured another way (pairs, sizes, what a pair runs), not when a group is added: the registry group
 * came with method 3, and a figure pools over the runs that have it.
 */
export const METHOD_VERSION = 3;

/** @param {Rule["method"]} method @param {Rule["combine"]} combine @param {Rule["compare"]} compare @param {number} limit @param {string} bar @returns {Bar} */
const bar = (method, combine, compare, limit, bar) => ({ rule: { method, combine, compare, limit }, bar });
const GROSS = bar("p80", "ratio", "<=", 1.3, "≤ 1.30 p80 (gross regression; the ratio is reported)");
const FLOOR = bar("p80", "ratio", "none", 0, "reported: the engine's cost of an Agent's state");

/** @type {Record<string, Bar>} */
export const BARS = {
  "provider-bytes": bar("single", "value", "<=", 4096, "≤ 4096"),
  "provider-bytes-grown": bar("single", "difference", "==", 0, "0 (the state does not carry the implementation)"),
  "provider-bytes-control": bar("single", "difference", ">=", GROWTH_BYTES, `≥ ${GROWTH_BYTES} (the measurement sees captured code)`),
  "state-bytes": bar("single", "value", "<=", Math.floor(STATE_BYTES_BASE * 1.05), `≤ ${Math.floor(STATE_BYTES_BASE * 1.05)} (${STATE_BYTES_BASE} + 5 %)`),
  "state-bytes-trivial": bar("single", "value", "none", 0, "reported"),
  "state-duplicates": bar("single", "value", "==", 0, "0 (no object stored twice)"),
  "requests-up": bar("max", "value", "<=", 8, "≤ 8 in every run"),
  "requests-bump": bar("max", "value", "<=", 8, "≤ 8 in every run"),
  connections: bar("max", "value", "==", 1, "1 in every run"),
  // Registry requests of a preview of the agents on one image (bench/figures/registry.mjs): the provider
  // resolves the tag once; what a registry's authentication adds is counted apart, under its own bar.
  "registry-requests-preview": bar("max", "value", "==", 1, "1 (one HEAD for every agent on the image)"),
  "registry-requests-preview-basic": bar("max", "value", "==", 2, "2 (the HEAD the registry answers 401 to ask for credentials, then the HEAD with them)"),
  "registry-requests-preview-bearer": bar("max", "value", "==", 3, "3 (the challenged HEAD, one token request, the HEAD with the token)"),
  // An up's CPU is the provider's own work (5 requests an agent, their parsing), which the do-nothing
  // control does not do: its ratio (about 2) is reported, and requests-up bounds that work.
  "cpu-up": bar("median", "ratio", "none", 0, "reported: the control makes no requests"),
  // Run medians moved 1.057-1.093 (dynamic) and 1.098-1.125 (native) over the committed runs: the bar
  // sits at least twice that spread above them.
  "cpu-preview": bar("median", "ratio", "<=", 1.2, "≤ 1.20 (median of pairs)"),
  // The worst pair moved 1.15-1.25 at 400 on the native path over runs, more than half a 1.25 bar's
  // margin; the median of pairs moves less.
  memory: bar("median", "ratio", "<=", 1.25, "≤ 1.25 (median of pairs)"),
  readiness: bar("max", "value", "<=", 600, "worst ≤ 600 (the poll interval + 100 ms)"),
  logs: bar("median", "ratio", "<=", 1.15, "≤ 1.15 (median of pairs)"),
  "logs-memory": {
    rule: { method: "median", combine: "overScaledBaseline", factor: 1.25, allowance: 8, compare: "<=", limit: 0 },
    bar: "≤ 0 (memory flat: at most 1.25 × the bare loop's growth + 8 MiB)",
  },
  "up-control": GROSS,
  "destroy-control": GROSS,
  "preview-control": GROSS,
  "bump-control": GROSS,
  "up-floor": FLOOR,
  "destroy-floor": FLOOR,
  "preview-floor": FLOOR,
};

/** The family of a figure id: without the "native-" prefix and the size suffix. */
export const familyOf = (/** @type {string} */ id) => id.replace(/^native-/, "").replace(/-\d+$/, "");

/** @param {string} id @returns {Bar} */
export function barFor(id) {
  const found = BARS[familyOf(id)];
  if (!found) throw new Error(`no bar is declared for the figure "${id}"`);
  return found;
}
