/** --state-file: the store as JSON, written atomically (temp file, fsync, rename) before an answer is sent. */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync, existsSync } from "node:fs";
import { dirname, join, basename } from "node:path";
import type { Store, StoredAgent } from "./store";

interface Snapshot {
  agents: StoredAgent[];
  secretSets: [string, string[]][];
  logs: [string, { d: string; ns: string; log: string }[]][];
}

export function saveStore(store: Store, file: string): void {
  const snapshot: Snapshot = {
    agents: [...store.agents.values()],
    secretSets: [...store.secretSets.entries()],
    logs: store.logs.agents().map((agent) => [
      agent,
      store.logs.entries(agent).map((e) => ({ d: e.deploymentId, ns: e.ns.toString(), log: e.log })),
    ]),
  };
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const fd = openSync(temp, "w");
  try {
    writeSync(fd, JSON.stringify(snapshot));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

export function loadStore(store: Store, file: string): void {
  if (!existsSync(file)) return;
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  store.agents = new Map(snapshot.agents.map((a) => [a.name, a]));
  for (const [name, fields] of snapshot.secretSets) store.secretSets.set(name, fields);
  store.logs.clear();
  for (const [agent, entries] of snapshot.logs) {
    const list = store.logs.entries(agent);
    for (const e of entries) list.push({ deploymentId: e.d, ns: BigInt(e.ns), log: e.log });
  }
}
