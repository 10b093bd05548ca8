// The one time stamped into every release file (archive entries, the Go
// module's .info): SOURCE_DATE_EPOCH when set, else the time of the commit
// checked out, so the same commit gives the same bytes.
import { execFileSync } from "node:child_process";
import { repoRoot } from "../pulumi-env.mjs";

/**
 * Seconds since 1970.
 * @returns {number}
 */
export function sourceDateEpoch() {
  const fromEnv = process.env.SOURCE_DATE_EPOCH;
  const text = fromEnv || execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: repoRoot, encoding: "utf8" }).trim();
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 315532800) {
    throw new Error(`source date ${JSON.stringify(text)} is not a whole number of seconds after 1980 (zip's first date)`);
  }
  return seconds;
}
