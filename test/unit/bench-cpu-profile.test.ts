/** bench/lib/cpu-profile.mjs: what bench/profile.mjs prints of a provider process's CPU profile. */
import { describe, expect, it } from "vitest";
import { packageOf, phaseTimes, summarizeProfile } from "../../bench/lib/cpu-profile.mjs";

const ROOT = "/repo";
const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber, scriptId: "0", columnNumber: 0 });

describe("packageOf", () => {
  it("names npm packages, scoped ones with their scope, folders of the repository and Node's code", () => {
    expect(packageOf("file:///repo/node_modules/undici/lib/core/util.js", ROOT)).toBe("undici");
    expect(packageOf("/repo/node_modules/@pulumi/pulumi/runtime/rpc.js", ROOT)).toBe("@pulumi/pulumi");
    expect(packageOf("/x/node_modules/a/node_modules/zod/v4/core/schemas.cjs", ROOT)).toBe("zod");
    expect(packageOf("/repo/dist/client/transport.js", ROOT)).toBe("dist/client");
    expect(packageOf("node:internal/modules/cjs/loader", ROOT)).toBe("node");
    expect(packageOf("", ROOT)).toBe("(native)");
  });
});

describe("summarizeProfile", () => {
  // root → idle (3 samples of 1 ms), root → client (2 × 1 ms) → undici (1 × 2 ms), gc (1 × 0.5 ms)
  const profile = {
    nodes: [
      { id: 1, callFrame: frame("(root)", ""), children: [2, 3, 5] },
      { id: 2, callFrame: frame("(idle)", "") },
      { id: 3, callFrame: frame("exchange", "/repo/dist/client/transport.js", 76), children: [4] },
      { id: 4, callFrame: frame("parseHeaders", "/repo/node_modules/undici/lib/core/util.js", 434) },
      { id: 5, callFrame: frame("(garbage collector)", "") },
    ],
    samples: [2, 3, 2, 4, 3, 2, 5],
    timeDeltas: [1000, 1000, 1000, 2000, 1000, 1000, 500],
    startTime: 0,
    endTime: 7500,
  };

  it("sums self time per package and per function, leaving the idle time out, largest first", () => {
    const summary = summarizeProfile(profile, { repoRoot: ROOT });
    expect(summary.busyMs).toBe(4.5);
    expect(summary.byPackage).toEqual([
      { name: "dist/client", ms: 2 },
      { name: "undici", ms: 2 },
      { name: "(garbage collector)", ms: 0.5 },
    ]);
    expect(summary.byFunction[0]).toEqual({ name: "exchange dist/client/transport.js:77", ms: 2 });
    expect(summary.byFunction[1]).toEqual({ name: "parseHeaders undici/lib/core/util.js:435", ms: 2 });
  });

  it("keeps the top entries only", () => {
    expect(summarizeProfile(profile, { repoRoot: ROOT, top: 1 }).byPackage).toEqual([{ name: "dist/client", ms: 2 }]);
  });
});

describe("phaseTimes", () => {
  const profile = {
    nodes: [
      { id: 1, callFrame: frame("(root)", ""), children: [2, 3, 5] },
      { id: 2, callFrame: frame("(idle)", "") },
      { id: 3, callFrame: frame("exchange", "/repo/dist/client/transport.js", 76), children: [4] },
      { id: 4, callFrame: frame("parseHeaders", "/repo/node_modules/undici/lib/core/util.js", 434) },
      { id: 5, callFrame: frame("(garbage collector)", "") },
    ],
    samples: [2, 3, 2, 4, 3, 2, 5],
    timeDeltas: [1000, 1000, 1000, 2000, 1000, 1000, 500],
    startTime: 0,
    endTime: 7500,
  };

  it("hands each sample's stack, root first, to the classifier and sums self time per phase, in the order given", () => {
    const stacks: string[][] = [];
    const phases = phaseTimes(
      profile,
      (stack) => {
        stacks.push(stack.map((f) => f.functionName));
        return stack.some((f) => f.url.includes("undici")) ? "requests" : "client";
      },
      ["unused", "requests", "client"],
    );
    expect(phases).toEqual([
      { name: "unused", ms: 0 },
      { name: "requests", ms: 2 },
      { name: "client", ms: 2 },
      { name: "(garbage collector)", ms: 0.5 },
    ]);
    expect(stacks).toContainEqual(["exchange", "parseHeaders"]);
  });
});
