/**
 * The package as a user installs it: `npm pack`, then the tarball installed
 * into a fresh program directory outside the repository beside another 3.x
 * `@pulumi/pulumi` than the repository's, then up, a no-op preview and
 * destroy through that program's own Automation API and the real CLI.
 *
 * Installs prefer npm's cache (`--prefer-offline`), so a rerun does not go
 * back to the registry. The tarball is packed from the dist/ that `npm test`
 * builds; packing skips the prepack build so that the other test files,
 * which load the same dist/, are never left without it.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl, startEmulator } from "../../src/emulator";
import { runForLastJsonLine } from "../support/last-json-line";
import { repoRoot } from "./support/stack";

/**
 * Another 3.x than the repository's 3.248.0, and the floor of the peer range.
 * It is older because 3.248.0 is the last release that runs on Node 20
 * (3.249.0 on declare `engines.node >=22`).
 */
const OTHER_PULUMI = "3.230.0";
const API_KEY = "e2e-packed-SECRET-2c9d";

const repoPackage = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  version: string;
  peerDependencies: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

let workRoot: string;
let programDir: string;
let tarball: string;
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let control: EmulatorControl;

/** The environment of npm run by a user: none of the `npm_*` settings of the `npm test` that runs this file. */
function userNpmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")));
}

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, env: userNpmEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

beforeAll(async () => {
  if (!existsSync(join(repoRoot, "dist", "index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  workRoot = mkdtempSync(join(tmpdir(), "agent-hosting-packed-"));
  const packed = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", workRoot], repoRoot)) as {
    filename: string;
  }[];
  tarball = join(workRoot, packed[0]?.filename ?? "");
  programDir = join(workRoot, "program");
  mkdirSync(programDir);
  writeFileSync(join(programDir, "package.json"), JSON.stringify({ name: "packed-program", version: "1.0.0", private: true }));
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund", tarball, `@pulumi/pulumi@${OTHER_PULUMI}`], programDir);
  copyFileSync(join(repoRoot, "test/e2e/programs/packed-runner.cjs"), join(programDir, "runner.cjs"));
  emulator = await startEmulator({ port: 0, apiKey: API_KEY, readyAfterMs: 200, secretSets: { "packed-secrets": ["TOKEN"] } });
  control = new EmulatorControl(emulator.baseUrl);
}, 600_000);

afterAll(async () => {
  await emulator?.close();
  if (workRoot) rmSync(workRoot, { recursive: true, force: true });
});

interface RunnerResult {
  ok: boolean;
  changeSummary: Record<string, number>;
  outputs: Record<string, unknown>;
  deployment?: unknown;
  error?: string;
  engineOutput: string;
}

/** One operation of the program's runner, in the program directory, with an offline backend there. */
async function runProgram(op: string): Promise<RunnerResult> {
  const state = join(programDir, ".pulumi-state");
  mkdirSync(join(state, "backend"), { recursive: true });
  mkdirSync(join(state, "home"), { recursive: true });
  const params = {
    baseUrl: emulator.url,
    apiKey: API_KEY,
    agent: { serviceName: "packed-bot", image: "registry.example.com/packed-bot:1" },
    secretSet: "packed-secrets",
  };
  const env = {
    ...userNpmEnv(),
    PULUMI_BACKEND_URL: `file://${join(state, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "agent-hosting-local-passphrase",
    PULUMI_HOME: join(state, "home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
  };
  const run = await runForLastJsonLine<Omit<RunnerResult, "engineOutput">>(
    process.execPath,
    ["runner.cjs", op, JSON.stringify(params)],
    { cwd: programDir, env },
    `runner ${op}`,
  );
  return { ...run.result, engineOutput: run.stderr };
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
    expect(repoPackage.devDependencies["@pulumi/pulumi"]).not.toBe(OTHER_PULUMI);
  });

  it(`installed beside @pulumi/pulumi ${OTHER_PULUMI}, the program has exactly one copy of the SDK`, () => {
    const tree = JSON.parse(npm(["ls", "@pulumi/pulumi", "--all", "--json"], programDir)) as {
      dependencies?: Record<string, unknown>;
    };
    const versions = pulumiVersions(tree);
    expect(versions.length).toBeGreaterThanOrEqual(2); // the program's own and the package's (deduped) edge
    expect(new Set(versions)).toEqual(new Set([OTHER_PULUMI]));
    const copies = execFileSync("find", ["node_modules", "-path", "*/@pulumi/pulumi/package.json"], {
      cwd: programDir,
      encoding: "utf8",
    })
      .trim()
      .split("\n");
    expect(copies).toEqual(["node_modules/@pulumi/pulumi/package.json"]);
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

  it("the dynamic provider process resolves the installed tarball and SDK from the program's directory", () => {
    // What the provider process resolves, from its working directory (the
    // program's): the launcher `pulumi-resource-pulumi-nodejs` resolves the
    // SDK's dynamic-provider entry, the serialized shim requires provider-impl.
    const resolved = execFileSync(
      process.execPath,
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

  it("up, a no-op preview and destroy run through the program's own Automation API", async () => {
    const up = await runProgram("up");
    expect(up.error).toBeUndefined();
    expect(up.changeSummary).toEqual({ create: 2 });
    expect(up.outputs).toMatchObject({ name: "packed-bot", secretFields: ["TOKEN"] });
    expect((await control.listAgents()).agents.map((a) => a.name)).toEqual(["packed-bot"]);

    const requestsBefore = (await control.stats()).requests;
    const preview = await runProgram("preview");
    expect(preview.error).toBeUndefined();
    expect(preview.changeSummary).toEqual({ same: 2 });

    const exported = await runProgram("export");
    const state = JSON.stringify(exported.deployment);
    expect(state).toContain("pulumi-agent-hosting/provider-impl");
    expect(state).not.toContain(repoRoot);
    expect(state).not.toContain(API_KEY);
    // The preview read the secret set (the program's own call) and nothing else.
    expect((await control.stats()).requests - requestsBefore).toBe(1);

    const destroy = await runProgram("destroy");
    expect(destroy.error).toBeUndefined();
    expect(destroy.changeSummary).toEqual({ delete: 2 });
    expect((await control.listAgents()).agents).toEqual([]);
    for (const r of [up, preview, destroy]) expect(r.engineOutput).not.toContain(API_KEY);
  });
});
