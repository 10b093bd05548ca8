/**
 * --state-file: the store as JSON, written atomically (a temp file in the
 * same directory, fsync, rename, fsync of the directory) before an answer is
 * sent, and loaded at start, so a restart loses nothing acknowledged.
 * A file written before rollouts (no `desiredDeploymentId`) loads: its
 * agents' desired deployment is the active one.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Store, StoredAgent } from "./store";
import { advancePast } from "./time";

const VERSION = 1;

interface Snapshot {
  version?: number;
  agents: StoredAgent[];
  secretSets: [string, string[]][];
  logs: [string, { d: string; ns: string; log: string }[]][];
}

function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Not every platform can fsync a directory; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function saveStore(store: Store, file: string): void {
  const snapshot: Snapshot = {
    version: VERSION,
    agents: [...store.agents.values()],
    secretSets: [...store.secretSets.entries()],
    logs: store.logs.agents().map((agent) => [
      agent,
      store.logs.entries(agent).map((e) => ({ d: e.deploymentId, ns: e.ns.toString(), log: e.log })),
    ]),
  };
  const dir = dirname(file);
  const temp = join(dir, `.${basename(file)}.${process.pid}.tmp`);
  const fd = openSync(temp, "w");
  try {
    writeSync(fd, JSON.stringify(snapshot));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  fsyncDirectory(dir);
}

/** Loads `file` into `store` when it exists; a file that is not a snapshot is an error naming it. */
export function loadStore(store: Store, file: string): void {
  if (!existsSync(file)) return;
  let snapshot: Snapshot;
  try {
    snapshot = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  } catch (error) {
    throw new Error(`state file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (
    typeof snapshot !== "object" ||
    snapshot === null ||
    (snapshot.version ?? VERSION) !== VERSION ||
    !Array.isArray(snapshot.agents) ||
    !Array.isArray(snapshot.logs) ||
    !Array.isArray(snapshot.secretSets)
  ) {
    throw new Error(`state file ${file} is not an agent-hosting-emulator state (version ${VERSION})`);
  }
  for (const agent of snapshot.agents) agent.desiredDeploymentId ??= agent.activeDeploymentId;
  store.agents = new Map(snapshot.agents.map((a) => [a.name, a]));
  for (const [name, fields] of snapshot.secretSets) store.secretSets.set(name, fields);
  store.logs.clear();
  for (const [agent, entries] of snapshot.logs) {
    store.logs.addBatch(
      agent,
      entries.map((e) => ({ deploymentId: e.d, ns: BigInt(e.ns), log: e.log })),
    );
  }
  advancePast(store.logs.newestNs()); // new entries come after every loaded one
}
