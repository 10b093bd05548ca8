// Types of write-release.mjs, for the TypeScript tests.
export declare function writeRelease(outDir: string, log?: (line: string) => void): Promise<string>;
