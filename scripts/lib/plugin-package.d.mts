// Types of plugin-package.mjs, for the TypeScript tests.
import type { PluginTarget } from "./release/names.mjs";
export declare const pluginVersion: () => string;
export declare function hostTarget(): PluginTarget;
export declare function launcher(os: PluginTarget["os"]): { name: string; text: string };
export declare function bundlePlugin(): Promise<Buffer>;
export declare function pluginTarball(bundle: Buffer, target: PluginTarget, version?: string, mtime?: number): Buffer;
export declare function writePluginTarballs(outDir: string, targets: readonly PluginTarget[], version?: string, mtime?: number): Promise<string[]>;
export declare function packPlugin(outDir?: string): Promise<string>;
