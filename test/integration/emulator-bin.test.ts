/**
 * The agent-hosting-emulator bin, started as a user would:
 * `node dist/emulator/bin.js --port 0 --api-key k --secret-set s1=A,B`.
 * dist/ is built by `npm test`; when it is missing or older than the sources,
 * it is built here first.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");
const bin = join(root, "dist/emulator/bin.js");

function distIsStale(): boolean {
  if (!existsSync(bin)) return true;
  const srcDir = join(root, "src/emulator");
  return readdirSync(srcDir)
    .filter((f) => f.endsWith(".ts"))
    .some((f) => {
      const built = join(root, "dist/emulator", f.replace(/\.ts$/, ".js"));
      return !existsSync(built) || statSync(built).mtimeMs < statSync(join(srcDir, f)).mtimeMs;
    });
}

beforeAll(() => {
  if (!distIsStale()) return;
  try {
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
  } catch {
    // Type errors elsewhere in the package do not stop tsc from emitting; the checks below need only the emulator.
  }
  if (!existsSync(bin)) throw new Error("dist/emulator/bin.js could not be built");
}, 120_000);

interface Started {
  child: ChildProcess;
  line: string;
  url: string;
  stderr: () => string;
}

/** The command `npx agent-hosting-emulator` runs: the npm bin link (set up by scripts/link-self.mjs, as npm does on install). */
const npmBin = join(root, "node_modules/.bin/agent-hosting-emulator");

function startBin(args: string[], viaNpmBin = false): Promise<Started> {
  return new Promise((resolvePromise, reject) => {
    const child = viaNpmBin
      ? spawn(npmBin, args, { stdio: ["ignore", "pipe", "pipe"] })
      : spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const newline = out.indexOf("\n");
      if (newline < 0) return;
      const line = out.slice(0, newline);
      const match = /^agent-hosting-emulator listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(line);
      if (match) resolvePromise({ child, line, url: match[1] as string, stderr: () => err });
      else reject(new Error(`unexpected first line: ${line}`));
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`exited with ${code} before listening: ${err}`)));
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null || child.signalCode !== null) resolvePromise({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => resolvePromise({ code, signal }));
  });
}

function runToEnd(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

describe("agent-hosting-emulator bin", () => {
  it("starts with a shebang line (an npm bin)", () => {
    expect(readFileSync(bin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("prints one line, serves the API with the given key and sets, and exits 0 on SIGTERM", async () => {
    const started = await startBin(["--port", "0", "--api-key", "k", "--secret-set", "s1=A,B", "--secret-set", "voice-set=TOKEN,SIP_PASSWORD"]);
    try {
      const headers = { authorization: "Bearer k" };
      const set = await fetch(`${started.url}/secrets/voice-set`, { headers });
      expect(set.status).toBe(200);
      expect(await set.json()).toEqual({ secrets: [{ fieldName: "TOKEN" }, { fieldName: "SIP_PASSWORD" }] });
      // "s1" is loaded, but a set name must be 3 to 63 characters to be read.
      expect((await fetch(`${started.url}/secrets/s1`, { headers })).status).toBe(400);
      const created = await fetch(`${started.url}/agents`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ serviceName: "bin-bot", image: "bot:1", secretSet: "voice-set" }),
      });
      expect(created.status).toBe(200);
      expect((await fetch(`${started.url}/agents/bin-bot`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    } finally {
      started.child.kill("SIGTERM");
    }
    const exit = await exitOf(started.child);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(started.stderr()).toBe("");
  });

  it("runs as `npx agent-hosting-emulator` runs it: the npm bin link, through its shebang", async () => {
    execFileSync(process.execPath, [join(root, "scripts/link-self.mjs")]);
    const started = await startBin(["--port", "0", "--api-key", "npx-key"], true);
    try {
      const r = await fetch(`${started.url}/agents/none-here`, { headers: { authorization: "Bearer npx-key" } });
      expect(r.status).toBe(404);
    } finally {
      started.child.kill("SIGTERM");
    }
    expect(await exitOf(started.child)).toEqual({ code: 0, signal: null });
  });

  it("defaults the key to local-emulator-key and exits 0 on SIGINT", async () => {
    const started = await startBin(["--port", "0", "--ready-after-ms", "100"]);
    try {
      const r = await fetch(`${started.url}/agents/none-here`, { headers: { authorization: "Bearer local-emulator-key" } });
      expect(r.status).toBe(404);
    } finally {
      started.child.kill("SIGINT");
    }
    expect(await exitOf(started.child)).toEqual({ code: 0, signal: null });
  });

  it("--state-file keeps the agents across a restart of the process", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ah-bin-state-"));
    const args = ["--port", "0", "--api-key", "k", "--state-file", join(dir, "state.json")];
    const headers = { authorization: "Bearer k" };
    try {
      const first = await startBin(args);
      try {
        const created = await fetch(`${first.url}/agents`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ serviceName: "kept-bot", image: "bot:1" }),
        });
        expect(created.status).toBe(200);
      } finally {
        first.child.kill("SIGTERM");
      }
      expect((await exitOf(first.child)).code).toBe(0);
      const second = await startBin(args);
      try {
        expect((await fetch(`${second.url}/agents/kept-bot`, { headers })).status).toBe(200);
      } finally {
        second.child.kill("SIGTERM");
      }
      expect((await exitOf(second.child)).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [["--bogus"]],
    [["--port", "abc"]],
    [["--port", "70000"]],
    [["--ready-after-ms", "-5"]],
    [["--secret-set", "no-equals-sign"]],
    [["positional"]],
    [["--port"]],
  ])("a bad command line %j: message and exit 2", async (args) => {
    const result = await runToEnd(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^agent-hosting-emulator: /);
    expect(result.stderr).toMatch(/usage: agent-hosting-emulator/);
  });
});
