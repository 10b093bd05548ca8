/**
 * POST /_emulator/agents/{name}/sessions `{ count, endAfterMs? }`: the
 * agent's activeSessionCount is `count`, and 0 again `endAfterMs` later; 404
 * for an unknown agent, 400 naming the field for a bad body; kept in the
 * state file; left out under omitOptionalFields like the field always is.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sleep, startEmu, type Emu } from "../support/emulator-fixture";

let emu: Emu;
const others: Emu[] = [];
let dir: string;

beforeAll(async () => {
  emu = await startEmu();
  dir = mkdtempSync(join(tmpdir(), "emulator-sessions-"));
});
afterAll(async () => {
  await Promise.all([emu?.close(), ...others.map((e) => e.close())]);
  rmSync(dir, { recursive: true, force: true });
});

const sessionsOf = async (e: Emu, name: string): Promise<unknown> => (await e.raw("GET", `/v1/agents/${name}`)).json.activeSessionCount;
const create = (e: Emu, name: string) => e.raw("POST", "/v1/agents", { json: { serviceName: name, image: "bot:1" } });

describe("POST /_emulator/agents/{name}/sessions", () => {
  it("sets the agent's activeSessionCount, which stays until set again", async () => {
    await create(emu, "busy-bot");
    expect(await sessionsOf(emu, "busy-bot")).toBe(0);
    const set = await emu.raw("POST", "/_emulator/agents/busy-bot/sessions", { json: { count: 3 }, authorization: null });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ activeSessionCount: 3, endsAt: null });
    expect(await sessionsOf(emu, "busy-bot")).toBe(3);
    await sleep(50);
    expect(await sessionsOf(emu, "busy-bot")).toBe(3);
    // The create answer of another agent, and an update answer, carry their own count.
    const updated = await emu.raw("POST", "/v1/agents/busy-bot", { json: { image: "bot:2" } });
    expect(updated.json.activeSessionCount).toBe(3);
    expect((await create(emu, "idle-bot")).json.activeSessionCount).toBe(0);
    expect(await emu.control.setSessions("busy-bot", 0)).toEqual({ activeSessionCount: 0, endsAt: null });
    expect(await sessionsOf(emu, "busy-bot")).toBe(0);
  });

  it("drops the count to 0 endAfterMs after it was set", async () => {
    await create(emu, "ending-bot");
    const before = Date.now();
    const set = await emu.control.setSessions("ending-bot", 5, 300);
    const after = Date.now();
    expect(set.activeSessionCount).toBe(5);
    expect(set.endsAt).toBeGreaterThanOrEqual(before + 300);
    expect(set.endsAt).toBeLessThanOrEqual(after + 300);
    expect(await sessionsOf(emu, "ending-bot")).toBe(5);
    await sleep(Math.max(0, (set.endsAt ?? 0) - Date.now()) + 20);
    expect(await sessionsOf(emu, "ending-bot")).toBe(0);
    // endAfterMs 0: the sessions have ended already; null means "not given".
    await emu.control.setSessions("ending-bot", 2, 0);
    expect(await sessionsOf(emu, "ending-bot")).toBe(0);
    const untimed = await emu.raw("POST", "/_emulator/agents/ending-bot/sessions", { json: { count: 4, endAfterMs: null } });
    expect(untimed.json).toEqual({ activeSessionCount: 4, endsAt: null });
    expect(await sessionsOf(emu, "ending-bot")).toBe(4);
  });

  it("answers 404 for an agent that does not exist, and forgets the sessions of a deleted agent", async () => {
    const missing = await emu.raw("POST", "/_emulator/agents/ghost-bot/sessions", { json: { count: 1 } });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: 'agent "ghost-bot" not found', code: "NOT_FOUND" });
    await create(emu, "reborn-bot");
    await emu.control.setSessions("reborn-bot", 7);
    await emu.raw("DELETE", "/v1/agents/reborn-bot");
    expect((await create(emu, "reborn-bot")).json.activeSessionCount).toBe(0);
  });

  describe("a bad body", () => {
    beforeAll(async () => {
      await create(emu, "strict-bot");
      await emu.control.setSessions("strict-bot", 2);
    });

    it.each([
      [{}, "count: is required"],
      [{ count: -1 }, "count: must be an integer ≥ 0"],
      [{ count: 1.5 }, "count: must be an integer ≥ 0"],
      [{ count: "3" }, "count: must be an integer ≥ 0"],
      [{ count: 3, endAfterMs: "soon" }, "endAfterMs: must be an integer ≥ 0 (milliseconds)"],
      [{ count: 3, endAfterMs: -5 }, "endAfterMs: must be an integer ≥ 0 (milliseconds)"],
      [{ count: 3, endsAfterMs: 100 }, "endsAfterMs: is not a field of this request: only count and endAfterMs"],
    ])("answers 400 naming the field for %j, and keeps the count", async (body, message) => {
      const r = await emu.raw("POST", "/_emulator/agents/strict-bot/sessions", { json: body });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: message, code: "GENERIC_BAD_REQUEST" });
      expect(await sessionsOf(emu, "strict-bot")).toBe(2);
    });

    it("answers 400 for a body that is not a JSON object, and keeps the count", async () => {
      const r = await emu.raw("POST", "/_emulator/agents/strict-bot/sessions", { json: [3] });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: "the body must be a JSON object", code: "GENERIC_BAD_REQUEST" });
      expect(await sessionsOf(emu, "strict-bot")).toBe(2);
    });
  });

  it("leaves activeSessionCount out under omitOptionalFields, as always", async () => {
    const lean = await startEmu({ omitOptionalFields: true });
    others.push(lean);
    await create(lean, "lean-bot");
    await lean.control.setSessions("lean-bot", 4);
    const got = await lean.raw("GET", "/v1/agents/lean-bot");
    expect(got.status).toBe(200);
    expect(Object.hasOwn(got.json, "activeSessionCount")).toBe(false);
  });

  it("keeps the sessions and their end in the state file across a restart", async () => {
    const stateFile = join(dir, "state.json");
    const first = await startEmu({ stateFile });
    others.push(first);
    await create(first, "kept-bot");
    await create(first, "timed-bot");
    await first.control.setSessions("kept-bot", 6);
    const timed = await first.control.setSessions("timed-bot", 2, 400);
    await first.close();
    const second = await startEmu({ stateFile });
    others.push(second);
    expect(await sessionsOf(second, "kept-bot")).toBe(6);
    expect(await sessionsOf(second, "timed-bot")).toBe(2);
    await sleep(Math.max(0, (timed.endsAt ?? 0) - Date.now()) + 20);
    expect(await sessionsOf(second, "timed-bot")).toBe(0);
    expect(await sessionsOf(second, "kept-bot")).toBe(6);
  });
});
