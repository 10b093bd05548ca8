export function cachedVenv(dir: string, label: string, install: (python: string) => void): string;
