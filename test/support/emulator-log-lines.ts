/**
 * The log lines the emulator writes for a deployment (src/emulator/store.ts),
 * written out here rather than imported, so a test that reads an agent's logs
 * can expect the exact lines: their text is known once the deployment's id,
 * image and replicas are. Only the time a line was written is not: where a
 * program prints it, TIMESTAMP matches it and anchors the rest of the line.
 */
import { expect } from "vitest";

export interface DeploymentLines {
  deploymentId: string;
  image: string;
  /** autoScaling's minAgents..maxAgents (the emulator's default is 1..1). */
  replicas?: readonly [number, number];
  nodeType?: string;
}

/** A deployment that became ready, oldest first: its four start-up lines and the ready line. */
export function readyDeploymentLines({ deploymentId, image, replicas = [1, 1], nodeType = "arm" }: DeploymentLines): string[] {
  return [
    `Scheduling deployment ${deploymentId} on node type ${nodeType}`,
    `Pulling image "${image}"`,
    `Successfully pulled image "${image}"`,
    `Starting container agent (replicas ${replicas[0]}..${replicas[1]})`,
    `Agent ready: deployment ${deploymentId} is accepting sessions`,
  ];
}

/** A deployment of an image tagged `fail`, which never becomes ready, oldest first: the start-up lines and the crash. */
export function neverReadyDeploymentLines({ deploymentId, image, replicas = [1, 1], nodeType = "arm" }: DeploymentLines): string[] {
  return [
    ...readyDeploymentLines({ deploymentId, image, replicas, nodeType }).slice(0, 4),
    "Error: container agent exited with code 1: failed to start voice pipeline",
    `Back-off restarting failed container agent in deployment ${deploymentId}`,
  ];
}

/** A log entry's time as the emulator writes it: RFC 3339 in UTC with nine fractional digits. */
export const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z/;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Matches `<timestamp> <line>` exactly, as the examples print an entry. */
export function stampedLine(line: string): unknown {
  return expect.stringMatching(new RegExp(`^${TIMESTAMP.source} ${escapeRegExp(line)}$`));
}

/** Matches a log entry as the functions return it: the line exactly, and its time. */
export function logEntry(line: string): unknown {
  return { log: line, timestamp: expect.stringMatching(new RegExp(`^${TIMESTAMP.source}$`)) };
}
