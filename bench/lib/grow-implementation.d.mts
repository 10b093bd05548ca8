// Types of grow-implementation.mjs, for its unit test.
export function growthFunction(bytes: number, markerFile: string): string;
export function growImplementation(
  repoRoot: string,
  bytes: number,
  markerFile: string,
): { addedBytes: number; called: () => boolean; restore: () => void };
