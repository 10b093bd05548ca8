// Types of node-releases.mjs, for the TypeScript tests that run programs on another Node.
export declare const NODE_RELEASES: { readonly 20: string; readonly 22: string; readonly 24: string };
export declare const nodeCacheRoot: string;
export declare function nodeRelease(wanted: string | number): string;
export declare function nodeBinDir(wanted: string | number): string;
