#!/usr/bin/env node
// stack-op.mjs kept loaded: a child process, forked with an IPC channel, that
// runs one stack operation per request, one at a time, exactly as
// `node stack-op.mjs <args>` would, with the request's environment and
// working directory. A driver process spends about 0.6 s of CPU loading the
// Automation API before its operation starts; a host pays that once. The end-
// to-end tests keep a few of these (test/support/stack-op-hosts.ts).
//
// Request:  { args: string[], env: Record<string, string>, cwd: string }
// Answer:   { stdout: string, stderr: string, exitCode: number }
//
// Before each operation the host forgets every CommonJS module outside
// node_modules (the package's dist/ through its self-link, the programs), so
// the package's module state starts afresh as in a new process; the
// Automation API and the SDK under node_modules stay loaded, and the package
// binds to that same SDK.
//
// The host exits when its parent goes (the IPC channel closes). A failure
// that would end a driver process (an uncaught exception) ends the host too,
// so the parent sees what it would have seen of that process.
import { createRequire } from "node:module";
import { sep } from "node:path";
import { main } from "./stack-op.mjs";

if (!process.send) throw new Error("stack-op-host.mjs runs as a forked child with an IPC channel; to run one operation, run stack-op.mjs");

const baseline = { ...process.env };

/** Runs `work` with everything written to stdout and stderr kept in the answer instead. */
async function captured(work) {
  const streams = { stdout: "", stderr: "" };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  for (const name of ["stdout", "stderr"]) {
    process[name].write = (chunk, encoding, callback) => {
      streams[name] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(typeof encoding === "string" ? encoding : "utf8");
      const done = typeof encoding === "function" ? encoding : callback;
      if (done) process.nextTick(done);
      return true;
    };
  }
  try {
    const exitCode = await work();
    return { ...streams, exitCode };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
}

const moduleCache = createRequire(import.meta.url).cache;

/** Forgets every loaded CommonJS module outside node_modules. */
function forgetOwnModules() {
  for (const key of Object.keys(moduleCache)) if (!key.includes(`${sep}node_modules${sep}`)) delete moduleCache[key];
}

/** Makes this process's environment exactly `env` (what a driver process started with it would see). */
function useEnvironment(env) {
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, env);
}

process.on("message", async ({ args, env, cwd }) => {
  forgetOwnModules();
  useEnvironment(env);
  process.chdir(cwd);
  const answer = await captured(() => main(args));
  useEnvironment(baseline);
  process.send(answer);
});
process.on("disconnect", () => process.exit(0));
