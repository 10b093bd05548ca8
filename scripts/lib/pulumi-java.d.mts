// Types of pulumi-java.mjs, for the TypeScript tests.
export declare const TOOLS_MODULE: string;
export declare function pulumiJavaVersion(): string;
export declare function pulumiJavaDir(): string;
