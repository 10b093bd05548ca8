// Types of cpu-profile.mjs, for the TypeScript test of the profile summaries.
export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}
export interface Ranked {
  name: string;
  ms: number;
}
export interface ProfileSummary {
  busyMs: number;
  byPackage: Ranked[];
  byFunction: Ranked[];
}
export function packageOf(url: string, repoRoot: string): string;
export function summarizeProfile(profile: CpuProfile, options?: { repoRoot?: string; top?: number }): ProfileSummary;
