/**
 * Files the project commits from real runs hold no key: bench/results.json
 * (written by `npm run bench` against emulators with random keys) and the
 * README's bench table.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "../..");
const EMULATOR_KEY = /emu-[0-9a-f]{24}/;

describe("committed results", () => {
  it.each(["bench/results.json", "README.md", "bench/README.md"])("%s holds no API key or header", (file) => {
    const path = join(root, file);
    expect(existsSync(path), `${file} exists`).toBe(true);
    const text = readFileSync(path, "utf8");
    expect(text).not.toMatch(EMULATOR_KEY);
    expect(text).not.toMatch(/Bearer [A-Za-z0-9]/);
    expect(text).not.toMatch(/"apiKey"\s*:\s*"[^"]+"/);
  });

  it("bench/results.json is a real run: every figure measured, with its runs and its bar", () => {
    const results = JSON.parse(readFileSync(join(root, "bench/results.json"), "utf8")) as {
      machine: { cpus: number; pulumi: string };
      figures: { name: string; runs: number[]; median: number; bar: string; pass: boolean }[];
    };
    expect(results.machine.cpus).toBeGreaterThan(0);
    expect(results.machine.pulumi).toMatch(/^v3\./);
    expect(results.figures.length).toBeGreaterThanOrEqual(9);
    for (const figure of results.figures) {
      expect(figure.runs.length, figure.name).toBeGreaterThanOrEqual(1);
      expect(typeof figure.median).toBe("number");
      expect(figure.bar.length).toBeGreaterThan(0);
    }
  });
});
