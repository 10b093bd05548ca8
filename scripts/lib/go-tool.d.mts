// Types of go-tool.mjs, for the TypeScript tests that build Go programs.
export declare const cacheRoot: string;
export declare function goBinary(): string;
export declare function goEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
export declare function sourceHash(dirs: string[]): string;
export declare function goProgram(name: string, source: string, inputs?: string[]): string;
export declare function goTool(name: string): string;
