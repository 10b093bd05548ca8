/**
 * iterateAgentLogs against the emulator while lines are appended (control
 * endpoint) between two pages: every entry present at the start is yielded
 * exactly once, newest first or oldest first.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import type { LogEntry } from "../../src/client/answer-types";
import { EmulatorControl } from "../../src/emulator";
import { startEmu, type Emu } from "../support/emulator-fixture";

let emulator: Emu;
let control: EmulatorControl;
let client: AgentHostingClient;
let agent = 0;
let name = "";

beforeAll(async () => {
  // Deployments never turn ready during the test, so no "ready" line is written behind its back.
  emulator = await startEmu({ readyAfterMs: 3_600_000 });
  control = new EmulatorControl(emulator.baseUrl);
  client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
});
afterAll(async () => {
  await client?.close();
  await emulator?.close();
});

/** A whole second well after now: the test's lines are newer than the agent's own. */
const F = Math.ceil(Date.now() / 1000) + 60;

beforeEach(async () => {
  name = `once-bot-${++agent}`;
  await client.createAgent({ serviceName: name, image: "registry.example.com/bot:1" });
  await control.appendLogs(name, 25, { prefix: "line", startMs: F * 1000 + 100, intervalMs: 1 });
});

const idOf = (e: { timestamp: string; log: string }) => `${e.timestamp} ${e.log}`;

/** Reads the iteration, calling `between` once after the first `pageSize` entries. */
async function readWith(order: "asc" | "desc", between: () => Promise<unknown>): Promise<LogEntry[]> {
  const got: LogEntry[] = [];
  for await (const entry of client.iterateAgentLogs({ agentName: name, order, pageSize: 10 })) {
    got.push(entry);
    if (got.length === 10) await between();
  }
  return got;
}

describe("iterateAgentLogs while lines arrive", () => {
  it("newest first: lines appended in the newest second, in a later second and late among those read are not read twice", async () => {
    const before = (await control.dumpLogs(name)).entries;
    const got = await readWith("desc", async () => {
      await control.appendLogs(name, 5, { prefix: "same second", startMs: F * 1000 + 500, intervalMs: 1 });
      await control.appendLogs(name, 5, { prefix: "later", startMs: (F + 2) * 1000, intervalMs: 1 });
      await control.appendLogs(name, 1, { prefix: "late", startMs: F * 1000 + 120.5 });
    });
    expect(got.map(idOf)).toEqual(before.map(idOf).reverse());
    expect(new Set(got.map(idOf)).size).toBe(got.length);
    expect((await control.dumpLogs(name)).entries.length).toBe(before.length + 11);
  });

  it("oldest first: lines appended at the end are read there, once, and nothing repeats", async () => {
    const before = (await control.dumpLogs(name)).entries;
    const got = await readWith("asc", () => control.appendLogs(name, 7, { prefix: "new", startMs: (F + 3) * 1000, intervalMs: 1 }));
    const after = (await control.dumpLogs(name)).entries;
    expect(after.length).toBe(before.length + 7);
    expect(got.map(idOf)).toEqual(after.map(idOf));
  });

  it("a Date endTime keeps the lines of its last second", async () => {
    const got = [];
    for await (const entry of client.iterateAgentLogs({ agentName: name, startTime: F, endTime: new Date(F * 1000 + 125), pageSize: 10 })) got.push(entry);
    // Every line is before the Date (F + 0.125 s); sent as F (rounded down) it would lose them all, as F + 1 it keeps them.
    expect(got.map((e) => e.log)).toEqual(Array.from({ length: 25 }, (_, i) => `line ${24 - i}`));
  });
});
