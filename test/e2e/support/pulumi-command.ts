/**
 * The `pulumi` CLI as a user types it in a program directory. It runs
 * asynchronously, because the emulator answering the engine lives in the
 * test's own process; every output is kept, so a test can grep all of it.
 */
import { spawn } from "node:child_process";
import { expect } from "vitest";

export interface PulumiCommands {
  /** Runs `pulumi args`; resolves with the exit code and the combined output. */
  run(...args: string[]): Promise<{ code: number; out: string }>;
  /** Runs `pulumi args` and expects it to exit 0 (the output is the failure's message); resolves with the combined output. */
  ok(...args: string[]): Promise<string>;
  /** Every output so far, in order. */
  readonly seen: string[];
}

/** Runs `pulumi args` in `cwd`; resolves with the exit code and each stream. */
export function runPulumi(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", args, { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export function pulumiCommands(where: () => { cwd: string; env: NodeJS.ProcessEnv }): PulumiCommands {
  const seen: string[] = [];
  const run = (...args: string[]) =>
    new Promise<{ code: number; out: string }>((resolve, reject) => {
      const child = spawn("pulumi", args, where());
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (out += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => {
        seen.push(out);
        resolve({ code: code ?? -1, out });
      });
    });
  return {
    seen,
    run,
    ok: async (...args) => {
      const { code, out } = await run(...args);
      expect(code, out).toBe(0);
      return out;
    },
  };
}

/**
 * A new stack `dev` of the program, pointed at the service as a user points
 * it: `pulumi stack init dev`, `pulumi config set agent-hosting:baseUrl
 * <url>`, `pulumi config set --secret agent-hosting:apiKey <key>`.
 */
export async function initStackWithConfig(cli: PulumiCommands, service: { url: string; apiKey: string }): Promise<void> {
  await cli.ok("stack", "init", "dev");
  await cli.ok("config", "set", "agent-hosting:baseUrl", service.url);
  await cli.ok("config", "set", "--secret", "agent-hosting:apiKey", service.apiKey);
}
