// Types of names.mjs, for the TypeScript tests.
export interface PluginTarget {
  os: "linux" | "darwin" | "windows";
  arch: "amd64" | "arm64";
}
export declare const PLUGIN_TARGETS: readonly PluginTarget[];
export declare const RELEASE_DIR: string;
export declare const GOPROXY_DIR: string;
export declare const MAVEN_DIR: string;
export declare const CHECKSUMS_FILE: string;
export declare function releaseVersion(): string;
export declare function pluginTarballName(version: string, target: PluginTarget): string;
export declare function wheelName(version: string): string;
export declare function sdistName(version: string): string;
export declare function npmTarballName(version: string): string;
export declare function releaseFileNames(version?: string): string[];
