/**
 * The emulator's bin as a user starts it:
 * `node dist/emulator/bin.js --port 0 --api-key k --secret-set s1=A,B --ready-after-ms 100`,
 * `--help`, `--version`. Its first line stays `agent-hosting-emulator listening on URL`
 * (bench/lib/emulator-process.mjs and other tests read the URL from it).
 * dist/ is built here only when dist/emulator/bin.js is missing.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import { EmulatorControl } from "../../src/emulator";
import { BIN_DEFAULT_API_KEY } from "../../src/emulator/args";
import { FLAG_HELP, helpText, pasteText } from "../../src/emulator/help";
import { waitFor } from "../support/emulator-fixture";
import { SCRIPT } from "../support/project-scripts";

const root = resolve(__dirname, "../..");
const bin = join(root, "dist/emulator/bin.js");
const LINE = /^agent-hosting-emulator listening on (http:\/\/127\.0\.0\.1:(\d+)\/v1)$/;

beforeAll(() => {
  if (existsSync(bin)) return;
  try {
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
  } catch {
    // tsc emits even when another part of the package has a type error; the check below is what matters.
  }
  if (!existsSync(bin)) throw new Error(`${bin} could not be built`);
}, 120_000);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

interface Running {
  child: ChildProcess;
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
}

/** The command `npx agent-hosting-emulator` runs: the npm bin link (made by link-self.mjs, as npm does on install). */
const npmBin = join(root, "node_modules/.bin/agent-hosting-emulator");

function spawnBin(args: string[], viaNpmBin = false): ChildProcess {
  const child = viaNpmBin
    ? spawn(npmBin, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
    : spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return child;
}

/** Starts the bin and resolves on its first stdout line. */
function startBin(args: string[], viaNpmBin = false): Promise<Running> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnBin(args, viaNpmBin);
    let out = "";
    let err = "";
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const newline = out.indexOf("\n");
      if (newline < 0) return;
      const match = LINE.exec(out.slice(0, newline));
      if (!match) return reject(new Error(`unexpected first line: ${JSON.stringify(out)}`));
      resolvePromise({ child, url: match[1] as string, port: Number(match[2]), stdout: () => out, stderr: () => err });
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`exited with ${code} before listening; stderr: ${err}`)));
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
    const child = spawnBin(args);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

describe("agent-hosting-emulator bin", () => {
  it("starts with a shebang line (an npm bin)", () => {
    expect(readFileSync(bin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("runs as `npx agent-hosting-emulator` runs it: the npm bin link, through its shebang", async () => {
    execFileSync(process.execPath, [SCRIPT.linkSelf]);
    const running = await startBin(["--port", "0", "--api-key", "npx-key"], true);
    const r = await fetch(`${running.url}/agents/none-here`, { headers: { authorization: "Bearer npx-key" } });
    expect(r.status).toBe(404);
    running.child.kill("SIGTERM");
    expect(await exitOf(running.child)).toEqual({ code: 0, signal: null });
  });

  it("prints its URL on the first line, serves the API with the key, and exits 0 on SIGTERM", async () => {
    const running = await startBin(["--port", "0", "--api-key", "k", "--secret-set", "s1=A,B", "--ready-after-ms", "100"]);
    expect(running.port).toBeGreaterThan(0);
    expect(running.stdout().split("\n")[0]).toBe(`agent-hosting-emulator listening on ${running.url}`);

    // The key is checked first: without it or with another one, 401.
    expect((await fetch(`${running.url}/secrets/s1`)).status).toBe(401);
    expect((await fetch(`${running.url}/secrets/s1`, { headers: { authorization: "Bearer kk" } })).status).toBe(401);
    // With the key the request is served; "s1" itself is 2 characters, and a set name
    // must be 3 to 63 characters long, so reading it is a 400 naming setName, not a 404.
    const set = await fetch(`${running.url}/secrets/s1`, { headers: { authorization: "Bearer k" } });
    expect(set.status).toBe(400);
    const body = (await set.json()) as { code: string; error: string };
    expect(body.code).toBe("GENERIC_BAD_REQUEST");
    expect(body.error).toContain("setName");

    // --ready-after-ms is honoured: an agent is ready after about 100 ms, not the default 1500.
    const client = new AgentHostingClient({ baseUrl: running.url, apiKey: "k" });
    try {
      const started = Date.now();
      const created = await client.createAgent({ serviceName: "bin-bot", image: "bot:1" });
      expect(created.ready).toBe(false);
      await waitFor("bin-bot ready", async () => (await client.getAgent("bin-bot")).ready);
      expect(Date.now() - started).toBeGreaterThanOrEqual(95);
      // Exactly 100 ms after its creation (the default would be 1500).
      const { agents } = await new EmulatorControl(running.url.replace(/\/v1$/, "")).listAgents();
      const deployment = agents.find((a) => a.name === "bin-bot")?.deployments[0];
      expect(deployment).toBeDefined();
      expect((deployment?.readyAt ?? 0) - (deployment?.createdAt ?? 0)).toBe(100);
    } finally {
      await client.close();
    }

    running.child.kill("SIGTERM");
    expect(await exitOf(running.child)).toEqual({ code: 0, signal: null });
    expect(running.stdout()).toBe(`agent-hosting-emulator listening on ${running.url}\n${pasteText(running.url, "k", ["s1"])}`);
    expect(running.stderr()).toBe("");
    // The port is free again.
    await expect(fetch(`${running.url}/secrets/s1`, { headers: { authorization: "Bearer k" } })).rejects.toThrow();
  });

  it("after its first line, prints the config lines to paste, with its real URL and its default key, which work", async () => {
    const running = await startBin(["--port", "0"]);
    await waitFor("the whole announcement", async () => running.stdout().includes("Ctrl-C"));
    const lines = running.stdout().split("\n");
    expect(lines[0]).toBe(`agent-hosting-emulator listening on ${running.url}`);
    const pasted = lines.map((line) => line.trim());
    expect(pasted).toContain(`pulumi config set agent-hosting:baseUrl ${running.url}`);
    expect(pasted).toContain(`pulumi config set --secret agent-hosting:apiKey ${BIN_DEFAULT_API_KEY}`);
    expect(pasted).toContain(`export AGENT_HOSTING_BASE_URL=${running.url} AGENT_HOSTING_API_KEY=${BIN_DEFAULT_API_KEY}`);
    expect(running.stdout()).not.toContain("allowInsecureHttp");
    expect(running.stdout()).toContain("Secret sets: none (add one with --secret-set NAME=FIELD1,FIELD2)");
    // The printed key is the one the emulator takes.
    const client = new AgentHostingClient({ baseUrl: running.url, apiKey: BIN_DEFAULT_API_KEY });
    try {
      await expect(client.getAgent("not-here")).rejects.toMatchObject({ status: 404 });
    } finally {
      await client.close();
    }
    running.child.kill("SIGINT");
    expect(await exitOf(running.child)).toEqual({ code: 0, signal: null });
  });

  it("names agent-hosting:allowInsecureHttp when it listens on a host other than loopback", () => {
    const outside = pasteText("http://10.0.0.5:8787/v1", "k", []);
    expect(outside).toContain("  pulumi config set agent-hosting:allowInsecureHttp true\n");
    expect(outside).toContain("AGENT_HOSTING_ALLOW_INSECURE_HTTP=true");
    for (const url of ["http://127.0.0.1:1/v1", "http://localhost:1/v1", "http://[::1]:1/v1", "http://emu.localhost:1/v1"]) {
      expect(pasteText(url, "k", []), url).not.toContain("allowInsecureHttp");
    }
  });

  it("--help prints every flag with its default and exits 0, before reading any other flag", async () => {
    for (const args of [["--help"], ["-h"], ["--port", "nonsense", "--help"]]) {
      const result = await runToEnd(args);
      expect(result.code, args.join(" ")).toBe(0);
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe(helpText());
    }
    const help = helpText();
    for (const [name, flag] of Object.entries(FLAG_HELP)) {
      const syntax = flag.value === undefined ? `--[no-]${name}` : `--${name} ${flag.value}`;
      expect(help, name).toContain(`  ${syntax}\n      ${flag.help} (default: ${flag.defaultText})`);
    }
    expect(help).toContain("(default: 8787)");
    expect(help).toContain(`(default: ${BIN_DEFAULT_API_KEY})`);
    expect(help).toContain("--version");
    expect(help).toContain("POST /_emulator/agents/NAME/sessions {count, endAfterMs?}");
  });

  it("--version prints the package's version and exits 0", async () => {
    const result = await runToEnd(["--version"]);
    expect(result).toEqual({ code: 0, stdout: `${(JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version}\n`, stderr: "" });
  });

  it("a port already taken exits 1 with a message naming --port", async () => {
    const first = await startBin(["--port", "0"]);
    const second = await runToEnd(["--port", String(first.port)]);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe("");
    expect(second.stderr).toContain(`EADDRINUSE`);
    expect(second.stderr).toContain("pass --port 0 for a free port, or another --port");
    first.child.kill("SIGTERM");
    expect((await exitOf(first.child)).code).toBe(0);
  });

  it("serves every --secret-set given, with the key", async () => {
    const running = await startBin(["--port", "0", "--api-key", "k", "--secret-set", "s1=A,B", "--secret-set", "voice-set=A,B", "--secret-set", "pull.creds=CONFIG"]);
    const headers = { authorization: "Bearer k" };
    const voice = await fetch(`${running.url}/secrets/voice-set`, { headers });
    expect(voice.status).toBe(200);
    expect(await voice.json()).toEqual({ secrets: [{ fieldName: "A" }, { fieldName: "B" }] });
    const pull = await fetch(`${running.url}/secrets/pull.creds`, { headers });
    expect(await pull.json()).toEqual({ secrets: [{ fieldName: "CONFIG" }] });
    expect((await fetch(`${running.url}/secrets/voice-set`)).status).toBe(401);
    expect((await fetch(`${running.url}/secrets/not-given`, { headers })).status).toBe(404);
    const created = await fetch(`${running.url}/agents`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ serviceName: "set-bot", image: "bot:1", secretSet: "voice-set", imagePullSecretSet: "pull.creds" }),
    });
    expect(created.status).toBe(200);
    running.child.kill("SIGTERM");
    expect((await exitOf(running.child)).code).toBe(0);
  });

  it("exits 0 on SIGINT or SIGTERM sent the moment its line appears", async () => {
    // The line is a promise that the signal handlers are in place (before, a signal
    // sent at once killed the process by signal most of the time).
    for (const signal of ["SIGINT", "SIGTERM", "SIGINT", "SIGTERM", "SIGINT", "SIGTERM"] as const) {
      const running = await startBin(["--port", "0", "--api-key", "k"]);
      running.child.kill(signal);
      expect(await exitOf(running.child), signal).toEqual({ code: 0, signal: null });
    }
  });

  it("keeps its data in --state-file across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emulator-cli-"));
    try {
      const stateFile = join(dir, "state.json");
      const first = await startBin(["--port", "0", "--api-key", "k", "--state-file", stateFile]);
      const created = await fetch(`${first.url}/agents`, {
        method: "POST",
        headers: { authorization: "Bearer k", "content-type": "application/json" },
        body: JSON.stringify({ serviceName: "kept-bot", image: "bot:1" }),
      });
      expect(created.status).toBe(200);
      const { activeDeploymentId } = (await created.json()) as { activeDeploymentId: string };
      first.child.kill("SIGTERM");
      expect((await exitOf(first.child)).code).toBe(0);

      const second = await startBin(["--port", "0", "--api-key", "k", "--state-file", stateFile]);
      const read = await fetch(`${second.url}/agents/kept-bot`, { headers: { authorization: "Bearer k" } });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { activeDeploymentId: string }).activeDeploymentId).toBe(activeDeploymentId);
      second.child.kill("SIGTERM");
      expect((await exitOf(second.child)).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [["--port", "abc"], "--port"],
    [["--port", "70000"], "--port"],
    [["--nope"], "nope"],
    [["--ready-after-ms", "soon"], "--ready-after-ms"],
    [["--secret-set", "no-equals-sign"], "--secret-set"],
    [["--api-key", ""], "--api-key"],
    [["--rollout", "gradual"], '--rollout must be rolling or immediate, got "gradual"'],
    [["positional"], "positional"],
  ])("a bad flag %j exits 2 with a usage message", async (args, named) => {
    const result = await runToEnd(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("usage: agent-hosting-emulator");
    expect(result.stderr).toContain(named);
  });
});
