// @ts-check
// The phases bench/profile.mjs splits a provider process's CPU profile into
// (bench/lib/cpu-profile.mjs phaseTimes), told apart by each sample's stack.
// Two kinds of process: Pulumi's dynamic-provider process, where this
// package's code is its own files (dist/) and the SDK's calls are named by
// its file; and a native plugin (ours or the native control,
// bench/programs/native-shaped-plugin.cjs), one bundle where only function
// names tell the handlers apart.

/** @typedef {import("./cpu-profile.mjs").CallFrame} CallFrame */
/** @typedef {{ order: string[], phaseOf: (stack: CallFrame[]) => string }} Phases */

const GC = ["(garbage collector)", "(program)"];

/** Code that loads modules: Node's loaders and the SDK's require-from-string (which loads the serialized provider). */
const isLoader = (/** @type {CallFrame} */ frame) =>
  frame.url.startsWith("node:internal/modules/") || frame.url === "node:internal/bootstrap/realm" || frame.url.includes("/node_modules/require-from-string/");

const DYNAMIC = {
  loadOwn: "module loading: the provider's modules",
  loadRest: "module loading: the rest (the SDK, gRPC, protobuf)",
  check: "check: the provider's",
  diff: "diff: the provider's",
  decode: "decoding: previous outputs, marks, reserved keys",
  sdk: "check and diff: the SDK's (Struct <-> JavaScript)",
  otherRpc: "other calls of the SDK (configure, getPluginInfo)",
  ownElsewhere: "the provider's code outside check and diff",
  rest: "the rest (gRPC, HTTP/2, event loop)",
};
/** The provider's own functions that turn the engine's properties into what its verbs take (src/core/state-marks.ts, the Agent's asState and asInputs). */
const DECODERS = new Set(["asState", "agentFromOutputs", "asInputs", "marksOf", "withoutReserved"]);
const RPC_URL = "@pulumi/pulumi/cmd/dynamic-provider/index.js";

/**
 * The dynamic-provider process's phases: the provider's own code is this
 * package's (dist/) or the control's (bench/programs/).
 * @param {string} repoRoot
 * @returns {Phases}
 */
export function dynamicProviderPhases(repoRoot) {
  const isOwnCode = (/** @type {CallFrame} */ frame) => {
    const path = frame.url.replace(/^file:\/\//, "");
    return path.startsWith(`${repoRoot}/dist/`) || path.startsWith(`${repoRoot}/bench/programs/`);
  };
  return {
    order: [...Object.values(DYNAMIC), ...GC],
    phaseOf(stack) {
      const own = stack.some(isOwnCode);
      if (stack.some(isLoader)) return own ? DYNAMIC.loadOwn : DYNAMIC.loadRest;
      if (stack.some((f) => DECODERS.has(f.functionName) && isOwnCode(f)) || stack.some((f) => f.url.includes("/node_modules/zod/"))) return DYNAMIC.decode;
      const rpc = stack.find((f) => f.url.endsWith(RPC_URL) && f.functionName !== "")?.functionName;
      if (rpc === "check" || rpc === "diff") return own ? DYNAMIC[rpc] : DYNAMIC.sdk;
      if (rpc !== undefined) return DYNAMIC.otherRpc;
      return own ? DYNAMIC.ownElsewhere : DYNAMIC.rest;
    },
  };
}

const NATIVE = {
  load: "module loading",
  check: "check: the plugin's (rules, defaults, unwrapping secrets)",
  diff: "diff: the plugin's (decoding the old outputs, the field table, the detailed diff)",
  struct: "check and diff: Struct <-> JavaScript",
  rest: "the rest (gRPC, HTTP/2, protobuf messages, event loop)",
};
/** google-protobuf's conversions of a Struct (proto.google.protobuf.Struct.toJavaScript and the Value's and ListValue's). */
const isStructConversion = (/** @type {CallFrame} */ frame) => /(^|\.)(toJavaScript|fromJavaScript)$/.test(frame.functionName);

/**
 * A native plugin's phases. Its handlers of check and diff are functions
 * named `check` and `diff` (src/hosts/grpc/resource-handlers.ts; the
 * control names its own the same), which a bundle keeps.
 * @type {Phases}
 */
export const nativePluginPhases = {
  order: [...Object.values(NATIVE), ...GC],
  phaseOf(stack) {
    if (stack.some(isLoader)) return NATIVE.load;
    const handler = stack.find((f) => f.functionName === "check" || f.functionName === "diff")?.functionName;
    if (handler === undefined) return NATIVE.rest;
    if (stack.some(isStructConversion)) return NATIVE.struct;
    return handler === "check" ? NATIVE.check : NATIVE.diff;
  },
};
