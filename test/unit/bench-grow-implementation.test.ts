/**
 * The code-size figure's growth (bench/lib/grow-implementation.mjs): the
 * grown module's `provider.create` runs the added code before the original
 * create,
 * the added code is at least the requested size, the marker shows it ran,
 * and restore() puts the file back byte for byte.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROVIDER_MODULE, growImplementation, growthFunction } from "../../bench/lib/grow-implementation.mjs";

const ORIGINAL = [
  '"use strict";',
  "Object.defineProperty(exports, \"__esModule\", { value: true });",
  "exports.provider = void 0;",
  "exports.provider = { create: async (props) => ({ id: props.serviceName, outs: { created: true } }) };",
  "",
].join("\n");

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function fakeRoot(source = ORIGINAL): { root: string; file: string } {
  const root = mkdtempSync(join(tmpdir(), "bench-grow-"));
  roots.push(root);
  const file = join(root, PROVIDER_MODULE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  return { root, file };
}

describe("growImplementation", () => {
  it("the provider object's create, which the serialized text hands to Pulumi, runs the added code too", async () => {
    const { root, file } = fakeRoot();
    const marker = join(root, "called");
    const grown = growImplementation(root, 256 * 1024, marker);
    expect(grown.called()).toBe(false);
    const impl = createRequire(file)(file) as { provider: { create: (p: unknown) => Promise<unknown> } };
    expect(await impl.provider.create({ serviceName: "bot" })).toEqual({ id: "bot", outs: { created: true } });
    expect(grown.called()).toBe(true);
    expect(statSync(file).size - Buffer.byteLength(ORIGINAL)).toBeGreaterThanOrEqual(256 * 1024);
    expect(grown.addedBytes).toBeGreaterThanOrEqual(256 * 1024);
  });

  it("restore puts the original file back byte for byte", () => {
    const { root, file } = fakeRoot();
    const grown = growImplementation(root, 1024, join(root, "called"));
    expect(readFileSync(file, "utf8")).not.toBe(ORIGINAL);
    grown.restore();
    expect(readFileSync(file, "utf8")).toBe(ORIGINAL);
  });

  it("refuses a module that does not assign exports.provider", () => {
    const { root } = fakeRoot("exports.create = create;\nasync function create() {}\n");
    expect(() => growImplementation(root, 1024, join(root, "called"))).toThrow(/no longer assigns exports\.provider/);
  });

  it("the generated function holds at least the requested bytes of code", () => {
    expect(Buffer.byteLength(growthFunction(256 * 1024, "/tmp/x"))).toBeGreaterThanOrEqual(256 * 1024);
  });
});
