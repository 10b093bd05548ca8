/**
 * The stack-op hosts of this test process: each is scripts/stack-op-host.mjs,
 * stack-op.mjs kept loaded in a child process of its own, outside vitest's
 * module transform. An operation takes an idle host or starts one, so
 * operations run at the same time each get their own; a host whose
 * operation succeeded waits for the next. A host whose operation failed is
 * ended instead: a failed or interrupted operation can leave work of its
 * program pending in the SDK, which stays loaded (its registrations, its
 * module-level monitor client), and the next operation must start as in a
 * new process. The answer is what `node stack-op.mjs <args>` would have
 * printed and exited with. The hosts exit with this process.
 */
import { fork, type ChildProcess } from "node:child_process";
import { SCRIPT } from "./project-scripts";

export interface HostedRun {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

const idle: ChildProcess[] = [];

function startHost(): ChildProcess {
  const host = fork(SCRIPT.stackOpHost, [], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  // Idle, a host keeps nothing of this process running.
  host.unref();
  host.channel?.unref();
  return host;
}

/** An idle host still running (one that ended while idle is dropped), or a new one. */
function takeHost(): ChildProcess {
  for (let host = idle.pop(); host; host = idle.pop()) {
    if (host.connected && host.exitCode === null && host.signalCode === null) return host;
  }
  return startHost();
}

/** Runs stack-op.mjs with `args` on a host, with `env` as its whole environment and `cwd` as its directory. */
export function runOnHost(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<HostedRun> {
  const host = takeHost();
  return new Promise((resolve, reject) => {
    // What the host printed outside an operation's capture: a crash's trace.
    let escaped = "";
    const onData = (d: Buffer) => (escaped += d.toString());
    const settle = () => {
      host.stdout?.off("data", onData);
      host.stderr?.off("data", onData);
      host.off("message", onMessage);
      host.off("exit", onExit);
      host.off("error", onError);
      host.channel?.unref();
    };
    const onMessage = (answer: HostedRun) => {
      settle();
      if (answer.exitCode === 0) idle.push(host);
      else host.kill();
      resolve({ ...answer, stderr: `${answer.stderr}${escaped}` });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      settle();
      // As a driver process that ended without an answer: no result line, and why it ended.
      resolve({ stdout: "", stderr: `${escaped}stack-op host ended (${signal ?? `exit ${code}`}) during the operation`, exitCode: code ?? 1 });
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    host.stdout?.on("data", onData);
    host.stderr?.on("data", onData);
    host.on("message", onMessage);
    host.on("exit", onExit);
    host.on("error", onError);
    host.channel?.ref();
    host.send({ args, env: options.env ?? process.env, cwd: options.cwd });
  });
}
