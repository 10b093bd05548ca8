// Loaded through NODE_OPTIONS (`--require`) by bench/profile.mjs into the
// processes the engine starts for a stack. In Pulumi's dynamic-provider
// process, or in a resource plugin installed in a PULUMI_HOME (ours or the
// native control, `.../plugins/resource-<name>-v<version>/lib/...`, which
// the launcher runs on Node), it records a CPU profile from its start and writes it to
// $AGENT_HOSTING_PROFILE_DIR/provider-<pid>.cpuprofile when the engine stops
// the process (SIGINT or SIGTERM) or it exits. Elsewhere it does nothing.
"use strict";
// The tests of bench/lib/process-peak.mjs's isDynamicProvider and isInstalledPlugin, on one argument: a
// file loaded with --require is CommonJS and cannot load that ES module synchronously.
const isProvider = (arg) => arg.includes("cmd/dynamic-provider") || /\/plugins\/resource-[^/]+\/lib\//.test(arg);
if (process.argv.some(isProvider) && process.env.AGENT_HOSTING_PROFILE_DIR) {
  const inspector = require("node:inspector");
  const { writeFileSync } = require("node:fs");
  const { join } = require("node:path");
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // An in-process session answers synchronously, so this completes before the process ends.
    session.post("Profiler.stop", (error, result) => {
      if (!error) writeFileSync(join(process.env.AGENT_HOSTING_PROFILE_DIR, `provider-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  // Prepended, so the profile is written before the provider's own signal
  // handlers end the process; when there are none, the signal is raised
  // again without this listener, and its default action ends the process.
  for (const signal of ["SIGINT", "SIGTERM"]) {
    const onSignal = () => {
      write();
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.prependListener(signal, onSignal);
  }
  process.on("exit", write);
}
