// Types of report.mjs, for the test that checks bench/README.md's table against bench/results.json.
import type { Figure, Results } from "./figure.mjs";
export function machineFacts(pulumiVersion: string): Record<string, unknown>;
export function table(figures: Figure[]): string;
export function writeResults(root: string, results: Results, options: { partial: boolean }): string;
