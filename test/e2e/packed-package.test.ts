/**
 * The package as a user installs it: `npm pack`, then the tarball installed
 * into a fresh program directory outside the repository beside one
 * `@pulumi/pulumi`, at both ends of the peer range and on the Node lines
 * users run (test/support/compat-matrix.ts): the oldest supported SDK on
 * Node 20, the newest 3.x on Node 22 and on Node 24. For each, npm installs
 * under that Node with `--engine-strict`, and the program's own Automation
 * API, run by that Node, previews and updates, previews again (no changes),
 * refreshes and destroys a program that declares an Agent, reads an existing
 * one with Agent.get, and reads a secret set and the new agent's logs. The
 * engine starts the dynamic provider (`pulumi-resource-pulumi-nodejs`, which
 * runs `node` from PATH) on that same Node, which the test sees in /proc.
 *
 * Installs prefer npm's cache (`--prefer-offline`), so a rerun does not go
 * back to the registry. The tarball is packed from the dist/ that `npm test`
 * builds, once per content (test/e2e/support/packed-install.ts), and shared
 * with test/e2e/typescript-generations.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import { EmulatorControl } from "../../src/emulator";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { PACKED_PACKAGE_MATRIX } from "../support/compat-matrix";
import { runForLastJsonLine } from "../support/stack-driver";
import { watchProcesses, type SeenProcess } from "../support/process-watch";
import { copyPackedRunner, npm, offlineStackEnv, packedTarball, userEnvOnNode } from "./support/packed-install";
import { repoRoot } from "./support/stack";
import { SCRIPT } from "../support/project-scripts";

const API_KEY = "e2e-packed-SECRET-2c9d";

const repoPackage = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  version: string;
  peerDependencies: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

let workRoot: string;
let tarball: string;

/** The directory of `node` of that exact release, from node-version.mjs (installed on first use). */
function nodeBinDir(version: string): string {
  const out = execFileSync(process.execPath, [SCRIPT.nodeVersion, version], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.trim().split("\n").pop() ?? "";
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((entry) => join(dir, entry))
    .filter((path) => statSync(path).isFile());
}

beforeAll(() => {
  workRoot = mkdtempSync(join(tmpdir(), "agent-hosting-packed-"));
  tarball = packedTarball();
}, 600_000);

afterAll(() => {
  if (workRoot) rmSync(workRoot, { recursive: true, force: true });
});

interface RunnerResult {
  ok: boolean;
  changeSummary: Record<string, number>;
  outputs: Record<string, unknown>;
  error?: string;
  engineOutput: string;
}

/** Every version of @pulumi/pulumi in an `npm ls --all --json` tree. */
function pulumiVersions(tree: { dependencies?: Record<string, unknown> }): string[] {
  const found: string[] = [];
  for (const [name, node] of Object.entries(tree.dependencies ?? {})) {
    const dep = node as { version?: string; dependencies?: Record<string, unknown> };
    if (name === "@pulumi/pulumi" && dep.version) found.push(dep.version);
    found.push(...pulumiVersions(dep));
  }
  return found;
}

describe("the packed package", () => {
  it("holds the built package, its README, package.json and the package schema, and nothing else", () => {
    const entries = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).trim().split("\n");
    const stray = entries.filter((e) => !/^package\/(README\.md|package\.json|schema\.json|dist\/.+\.(js|d\.ts))$/.test(e));
    expect(stray).toEqual([]);
    const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as {
      main: string;
      types: string;
      bin: Record<string, string>;
      exports: Record<string, string | Record<string, string>>;
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      scripts?: Record<string, string>;
    };
    // Nothing runs at a user's install (npm would also list it as an install script to approve).
    for (const hook of ["preinstall", "install", "postinstall", "prepare"]) expect(manifest.scripts?.[hook], hook).toBeUndefined();
    // Every file the manifest points a user at: main, types, each export's targets, the bin.
    const targets = [
      manifest.main,
      manifest.types,
      ...Object.values(manifest.bin),
      ...Object.values(manifest.exports).flatMap((t) => (typeof t === "string" ? [t] : Object.values(t))),
    ];
    expect(Object.keys(manifest.exports)).toContain("./provider-impl");
    for (const target of targets) expect(entries, target).toContain(`package/${target.replace(/^\.\//, "")}`);
    expect(manifest.dependencies["@pulumi/pulumi"]).toBeUndefined();
    expect(manifest.peerDependencies["@pulumi/pulumi"]).toBe(repoPackage.peerDependencies["@pulumi/pulumi"]);
  });

  it("a program whose SDK is outside the peer range is refused at install, naming both versions", () => {
    const dir = join(workRoot, "old-program");
    mkdirSync(dir);
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "old-program", version: "1.0.0", private: true, dependencies: { "@pulumi/pulumi": "3.200.0" } }),
    );
    const refused = (() => {
      try {
        npm(["install", "--dry-run", "--prefer-offline", "--no-audit", "--no-fund", tarball], dir);
      } catch (error) {
        return String((error as { stderr?: unknown }).stderr);
      }
      return "installed";
    })();
    expect(refused).toMatch(/ERESOLVE/);
    expect(refused).toContain("Found: @pulumi/pulumi@3.200.0");
    expect(refused).toContain(`peer @pulumi/pulumi@"${repoPackage.peerDependencies["@pulumi/pulumi"]}" from pulumi-agent-hosting`);
  });
});

describe.each(PACKED_PACKAGE_MATRIX)("on Node $node with @pulumi/pulumi $pulumi", ({ node, pulumi }) => {
  let nodeBin: string;
  let env: NodeJS.ProcessEnv;
  let programDir: string;
  let emulator: Emu;
  let control: EmulatorControl;
  let client: AgentHostingClient;

  beforeAll(async () => {
    nodeBin = nodeBinDir(node);
    env = userEnvOnNode(nodeBin);
    programDir = join(workRoot, `program-node-${node}`);
    mkdirSync(programDir);
    writeFileSync(join(programDir, "package.json"), JSON.stringify({ name: "packed-program", version: "1.0.0", private: true }));
    // npm itself runs on that Node (`#!/usr/bin/env node`), so --engine-strict holds every package's `engines` to it.
    npm(["install", "--engine-strict", "--prefer-offline", "--no-audit", "--no-fund", tarball, `@pulumi/pulumi@${pulumi}`], programDir, env);
    copyPackedRunner(programDir);
    // Readiness after 3 s keeps the dynamic provider process alive long enough to be seen in /proc during `up`.
    emulator = await startEmu({ apiKey: API_KEY, readyAfterMs: 3000, secretSets: { "packed-secrets": ["TOKEN"] } });
    control = new EmulatorControl(emulator.baseUrl);
    client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: API_KEY });
    await client.createAgent({ serviceName: "existing-bot", image: "registry.example.com/existing-bot:7" });
    // Ready before the program reads it: up's Agent.get and the no-op preview's then read the same agent.
    while (!(await client.getAgent("existing-bot")).ready) await new Promise((resolve) => setTimeout(resolve, 200));
  }, 600_000);

  afterAll(async () => {
    await client?.close();
    await emulator?.close();
  });

  /** One operation of the program's runner, run by that Node in the program directory, with an offline backend there. */
  async function runProgram(op: string): Promise<RunnerResult> {
    const params = {
      baseUrl: emulator.url,
      apiKey: API_KEY,
      agent: { serviceName: "packed-bot", image: "registry.example.com/packed-bot:1" },
      secretSet: "packed-secrets",
      existingAgent: "existing-bot",
    };
    const runEnv = offlineStackEnv(programDir, env);
    const run = await runForLastJsonLine<Omit<RunnerResult, "engineOutput">>(
      join(nodeBin, "node"),
      ["runner.cjs", op, JSON.stringify(params)],
      { cwd: programDir, env: runEnv },
      `runner ${op} on Node ${node}`,
    );
    return { ...run.result, engineOutput: run.stderr };
  }

  const serviceNames = async () => (await control.listAgents()).agents.map((a) => a.name).sort();

  it(`npm installs it beside @pulumi/pulumi ${pulumi} with exactly one copy of the SDK`, () => {
    const tree = JSON.parse(npm(["ls", "@pulumi/pulumi", "--all", "--json"], programDir, env)) as {
      dependencies?: Record<string, unknown>;
    };
    const versions = pulumiVersions(tree);
    expect(versions.length).toBeGreaterThanOrEqual(2); // the program's own and the package's (deduped) edge
    expect(new Set(versions)).toEqual(new Set([pulumi]));
    const copies = execFileSync("find", ["node_modules", "-path", "*/@pulumi/pulumi/package.json"], {
      cwd: programDir,
      encoding: "utf8",
    })
      .trim()
      .split("\n");
    expect(copies).toEqual(["node_modules/@pulumi/pulumi/package.json"]);
  });

  it("the dynamic provider process resolves the installed tarball and SDK from the program's directory", () => {
    // What the provider process resolves, from its working directory (the
    // program's): the launcher `pulumi-resource-pulumi-nodejs` resolves the
    // SDK's dynamic-provider entry, the serialized shim requires provider-impl.
    const resolved = execFileSync(
      join(nodeBin, "node"),
      ["-e", "for (const m of process.argv.slice(1)) console.log(require('fs').realpathSync(require.resolve(m)))",
        "@pulumi/pulumi/cmd/dynamic-provider", "pulumi-agent-hosting/provider-impl"],
      { cwd: programDir, encoding: "utf8" },
    )
      .trim()
      .split("\n");
    const installed = realpathSync(join(programDir, "node_modules")) + sep;
    expect(resolved).toHaveLength(2);
    for (const path of resolved) {
      expect(path.startsWith(installed), path).toBe(true);
      expect(path.startsWith(repoRoot + sep), path).toBe(false);
    }
  });

  it("preview and up, a no-op preview, refresh and destroy run on that Node, program and dynamic provider alike", async () => {
    const providers = watchProcesses(join(programDir, "node_modules", "@pulumi", "pulumi", "cmd", "dynamic-provider"));
    const seenProviders = (() => {
      let seen: SeenProcess[] | undefined;
      return () => (seen ??= providers.stop());
    })();
    try {
      const up = await runProgram("up");
      expect(up.error).toBeUndefined();
      expect(up.changeSummary).toEqual({ create: 2 }); // the stack and the Agent; Agent.get's read is not counted
      expect(up.outputs).toEqual({
        name: "packed-bot",
        deploymentId: expect.stringMatching(/^dep/),
        secretFields: ["TOKEN"],
        existingImage: "registry.example.com/existing-bot:7",
        logLines: 5, // the new deployment's four start lines and its ready line
        programNode: `v${node}`,
      });
      expect(await serviceNames()).toEqual(["existing-bot", "packed-bot"]);

      const requestsBefore = (await control.stats()).requests;
      const preview = await runProgram("preview");
      expect(preview.error).toBeUndefined();
      expect(preview.changeSummary).toEqual({ same: 2 });
      // The program's own reads, and nothing else: the secret set, the logs, and Agent.get's read.
      expect((await control.stats()).requests - requestsBefore).toBe(3);

      const refresh = await runProgram("refresh");
      expect(refresh.error).toBeUndefined();
      expect(refresh.changeSummary).toEqual({ same: 3 });

      // The CLI's own export, without --show-secrets: what the state holds.
      const exported = execFileSync("pulumi", ["stack", "export", "--stack", "dev"], { cwd: programDir, env: offlineStackEnv(programDir, env), encoding: "utf8" });
      const state = JSON.stringify(JSON.parse(exported));
      expect(state).toContain("pulumi-agent-hosting/provider-impl");
      expect(state).not.toContain(repoRoot);

      const destroy = await runProgram("destroy");
      expect(destroy.error).toBeUndefined();
      // Agent.get only read the existing agent: destroy drops it from the state and leaves it at the service.
      expect(destroy.changeSummary).toEqual({ delete: 2, discard: 1 });
      expect(await serviceNames()).toEqual(["existing-bot"]);

      for (const text of [state, ...[up, preview, refresh, destroy].map((r) => r.engineOutput)]) expect(text).not.toContain(API_KEY);
      for (const file of filesUnder(join(programDir, ".pulumi-state"))) {
        expect(readFileSync(file, "utf8").includes(API_KEY), `${file} holds the API key`).toBe(false);
      }

      // Every dynamic provider process the engine started ran on the Node first on PATH (up's update at least lives through a 3 s readiness wait).
      expect(seenProviders().length).toBeGreaterThanOrEqual(1);
      expect(new Set(seenProviders().map((p) => p.exe))).toEqual(new Set([realpathSync(join(nodeBin, "node"))]));
    } finally {
      seenProviders();
    }
  });
});
