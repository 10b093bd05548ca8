/**
 * The campaign's drain check (test/campaign/drain-check.ts) on request logs
 * written out: a DELETE while sessions are live must come drainSeconds after
 * the first read; one after the sessions ended, or of an agent without
 * drainSeconds, is not held to it.
 */
import { describe, expect, it } from "vitest";
import type { RequestRecord } from "../../src/emulator/request-log";
import type { StackState } from "../campaign/campaign-stack";
import { drainViolations, type OpenedSessions } from "../campaign/drain-check";

const at = (method: string, receivedAtMs: number, status = 200): RequestRecord => ({ method, path: "/v1/agents/c1-bot", status, headers: {}, receivedAtMs });
const before = (drainSeconds: number): StackState => ({
  agents: [{ urn: "urn:bot1", type: "agent-hosting:index:Agent", id: "c1-bot", inputs: { drainSeconds }, outputs: { serviceName: "c1-bot", drainSeconds } }],
  pending: [],
  text: "",
});
const live = (endsAt: number | null): Map<string, OpenedSessions> => new Map([["c1-bot", { count: 2, endsAt }]]);

describe("the drain check", () => {
  it("passes a DELETE that cut live sessions once drainSeconds had run since the first read", () => {
    const sessions = live(null);
    expect(drainViolations([at("GET", 1_000), at("GET", 3_000), at("DELETE", 3_010)], before(2), sessions)).toEqual([]);
    // The agent is gone: its sessions are forgotten.
    expect(sessions.size).toBe(0);
  });

  it("fails a DELETE that cut live sessions before drainSeconds ran out, or without reading them", () => {
    const early = drainViolations([at("GET", 1_000), at("DELETE", 2_500)], before(2), live(10_000));
    expect(early).toHaveLength(1);
    expect(early[0]?.invariant).toBe("the drain");
    expect(early[0]?.detail).toContain("c1-bot: its DELETE arrived 1500 ms after the drain's first read while 2 sessions were live");
    expect(drainViolations([at("DELETE", 2_500)], before(2), live(null))[0]?.detail).toContain("without a read of its sessions before it");
  });

  it("does not hold a DELETE after the sessions ended, or of an agent with drainSeconds 0, to drainSeconds", () => {
    expect(drainViolations([at("GET", 1_000), at("DELETE", 1_500)], before(3), live(1_400))).toEqual([]);
    expect(drainViolations([at("GET", 1_000), at("DELETE", 1_100)], before(0), live(null))).toEqual([]);
  });
});
