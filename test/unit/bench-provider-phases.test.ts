/** bench/lib/provider-phases.mjs: the phases bench/profile.mjs splits a provider process's samples into. */
import { describe, expect, it } from "vitest";
import { dynamicProviderPhases, nativePluginPhases } from "../../bench/lib/provider-phases.mjs";

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0, columnNumber: 0, scriptId: "0" });
const BUNDLE = "file:///home/.pulumi/plugins/resource-agent-hosting-v0.1.0/lib/native/plugin.js";
const CONTROL = "file:///home/.pulumi/plugins/resource-agent-shaped-v0.0.1/lib/plugin.js";
const loader = frame("Module._load", "node:internal/modules/cjs/loader");
const http2 = frame("onSessionHeaders", "node:internal/http2/core");

describe("nativePluginPhases", () => {
  const { phaseOf, order } = nativePluginPhases;

  it("tells the handlers apart by their names, in our bundle and in the control's", () => {
    expect(phaseOf([http2, frame("check", BUNDLE), frame("checkAgent", BUNDLE)])).toBe(order[1]);
    expect(phaseOf([http2, frame("diff", BUNDLE), frame("asState", BUNDLE)])).toBe(order[2]);
    expect(phaseOf([http2, frame("check", CONTROL), frame("named", CONTROL)])).toBe(order[1]);
    expect(phaseOf([http2, frame("diff", CONTROL), frame("diffOf", CONTROL)])).toBe(order[2]);
  });

  it("counts the Struct conversions inside either handler as their own phase", () => {
    const toJs = frame("proto.google.protobuf.Struct.toJavaScript", BUNDLE);
    expect(phaseOf([frame("diff", BUNDLE), frame("fromStruct", BUNDLE), toJs])).toBe(order[3]);
    expect(phaseOf([frame("check", CONTROL), frame("struct", CONTROL), frame("proto.google.protobuf.Value.fromJavaScript", CONTROL)])).toBe(order[3]);
  });

  it("puts module loading first, wherever it happens, and everything else in the rest", () => {
    expect(phaseOf([frame("check", BUNDLE), loader, frame("", BUNDLE)])).toBe(order[0]);
    expect(phaseOf([http2, frame("mapToHeaders", "node:internal/http2/util")])).toBe(order[4]);
    expect(order.slice(-2)).toEqual(["(garbage collector)", "(program)"]);
  });
});

describe("dynamicProviderPhases", () => {
  const { phaseOf, order } = dynamicProviderPhases("/repo");
  const rpc = (name: string) => frame(name, "file:///repo/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js");
  const own = (name: string) => frame(name, "file:///repo/dist/resources/agent/check.js");

  it("splits check and diff into the provider's code, its decoding and the SDK's part", () => {
    expect(phaseOf([rpc("check"), own("checkAgent")])).toBe("check: the provider's");
    expect(phaseOf([rpc("diff"), own("asState")])).toBe("decoding: previous outputs, marks, reserved keys");
    expect(phaseOf([rpc("diff"), frame("deserializeBinary", "file:///repo/node_modules/google-protobuf/google-protobuf.js")])).toBe("check and diff: the SDK's (Struct <-> JavaScript)");
    expect(phaseOf([rpc("configure")])).toBe("other calls of the SDK (configure, getPluginInfo)");
  });

  it("splits module loading into the provider's modules and the rest", () => {
    expect(phaseOf([loader, own("")])).toBe("module loading: the provider's modules");
    expect(phaseOf([loader, frame("", "file:///repo/node_modules/@grpc/grpc-js/build/src/index.js")])).toBe(order[1]);
  });
});
