// @ts-check
// Summaries of a V8 CPU profile (a .cpuprofile, as Node's inspector writes
// it): self time per package and per function, the idle time left out, so
// two processes' profiles can be read side by side (bench/profile.mjs).

/**
 * @typedef {{ functionName: string, url: string, lineNumber: number }} CallFrame
 * @typedef {{ nodes: { id: number, callFrame: CallFrame, children?: number[] }[], samples: number[], timeDeltas: number[] }} CpuProfile
 * @typedef {{ name: string, ms: number }} Ranked
 * @typedef {{ busyMs: number, byPackage: Ranked[], byFunction: Ranked[] }} ProfileSummary
 */

/**
 * The package a script URL belongs to: an npm package, a top-level folder of this repository, or Node's own code.
 * @param {string} url
 * @param {string} repoRoot
 * @returns {string}
 */
export function packageOf(url, repoRoot) {
  if (url === "") return "(native)";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const [scope, name] = url.slice(modules + "node_modules/".length).split("/");
    return scope?.startsWith("@") ? `${scope}/${name}` : (scope ?? url);
  }
  const path = url.replace(/^file:\/\//, "");
  if (repoRoot && path.startsWith(`${repoRoot}/`)) return path.slice(repoRoot.length + 1).split("/").slice(0, 2).join("/");
  if (path.startsWith("node:")) return "node";
  return path;
}

/** A function's label: its name (or "(anonymous)") and where it is. @param {CallFrame} frame @param {string} repoRoot */
function functionLabel(frame, repoRoot) {
  const where = frame.url === "" ? "" : ` ${frame.url.replace(/^.*node_modules\//, "").replace(`${repoRoot}/`, "")}:${frame.lineNumber + 1}`;
  return `${frame.functionName || "(anonymous)"}${where}`;
}

/**
 * Self time in ms: `busy` (every sample but the idle ones), and the `top`
 * entries of `byPackage` and `byFunction`, largest first. V8's own
 * "(garbage collector)" and "(program)" count as their own packages.
 * @param {CpuProfile} profile
 * @param {{ repoRoot?: string, top?: number }} [options]
 * @returns {ProfileSummary}
 */
export function summarizeProfile(profile, { repoRoot = "", top = 15 } = {}) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const selfUs = new Map();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  /** @type {Map<string, number>} */
  const byPackage = new Map();
  /** @type {Map<string, number>} */
  const byFunction = new Map();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) continue;
    if (frame.functionName === "(idle)") continue;
    busyUs += us;
    const pkg = frame.functionName.startsWith("(") && frame.url === "" ? frame.functionName : packageOf(frame.url, repoRoot);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const label = functionLabel(frame, repoRoot);
    byFunction.set(label, (byFunction.get(label) ?? 0) + us);
  }
  const ranked = (/** @type {Map<string, number>} */ map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10 }));
  return { busyMs: Math.round(busyUs / 100) / 10, byPackage: ranked(byPackage), byFunction: ranked(byFunction) };
}

/**
 * Self time in ms per phase: `phaseOf` names the phase of each sample from
 * its stack (frames from the root to the sampled function); the idle time is
 * left out, and V8's "(garbage collector)" and "(program)" are phases of
 * their own. Phases come out in the order `order` lists them (then any
 * other, largest first), with those of no sample at 0.
 * @param {CpuProfile} profile
 * @param {(stack: CallFrame[]) => string} phaseOf
 * @param {readonly string[]} [order]
 * @returns {Ranked[]}
 */
export function phaseTimes(profile, phaseOf, order = []) {
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const selfUs = new Map();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  /** @type {Map<string, number>} */
  const byPhase = new Map(order.map((name) => [name, 0]));
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame || frame.functionName === "(idle)") continue;
    let phase = frame.functionName;
    if (!(frame.url === "" && ["(garbage collector)", "(program)"].includes(frame.functionName))) {
      /** @type {CallFrame[]} */
      const stack = [];
      for (let at = /** @type {number | undefined} */ (id); at !== undefined; at = parent.get(at)) {
        const node = nodes.get(at);
        if (node && node.callFrame.functionName !== "(root)") stack.unshift(node.callFrame);
      }
      phase = phaseOf(stack);
    }
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + us);
  }
  const rank = (/** @type {string} */ name) => (order.includes(name) ? order.indexOf(name) : order.length);
  return [...byPhase]
    .sort((a, b) => rank(a[0]) - rank(b[0]) || b[1] - a[1])
    .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10 }));
}
