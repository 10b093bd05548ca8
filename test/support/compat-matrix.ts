/**
 * The Node.js and @pulumi/pulumi versions the compatibility tests run, in
 * one place: the packed package's test and the native plugin's Node test
 * take their combinations from here, package.json's `engines.node` names
 * these Node lines, and the README's Compatibility table must read as
 * `compatibilityTable()` renders it (test/unit/compat-matrix.test.ts).
 */
import { NODE_RELEASES } from "./project-scripts";

/** The floor of the peer range `^3.230.0`; it runs on Node 20. */
export const OLDEST_PULUMI = "3.230.0";
/** The newest 3.x release (`npm view @pulumi/pulumi version`), pinned; 3.249.0 and later need Node 22 or newer. */
export const NEWEST_PULUMI = "3.270.0";
/** The repository's own (devDependencies), which the rest of the suite runs and the plugin bundles. */
export const REPOSITORY_PULUMI = "3.248.0";

export interface PackedCombination {
  /** The exact Node release, installed by node-version.mjs. */
  node: string;
  pulumi: string;
}

/** The packed package at both ends of the peer range: the oldest SDK on Node 20, the newest on Node 22 and 24. */
export const PACKED_PACKAGE_MATRIX: readonly PackedCombination[] = [
  { node: NODE_RELEASES[20], pulumi: OLDEST_PULUMI },
  { node: NODE_RELEASES[22], pulumi: NEWEST_PULUMI },
  { node: NODE_RELEASES[24], pulumi: NEWEST_PULUMI },
];

/** The Node releases the native plugin's tarball runs on in its own test (the rest of the suite runs it on the Node of `npm test`). */
export const NATIVE_PLUGIN_NODES: readonly string[] = [NODE_RELEASES[22], NODE_RELEASES[24]];

export const PACKED_PACKAGE_TEST = "test/e2e/packed-package.test.ts";
export const NATIVE_PLUGIN_TEST = "test/e2e/native-plugin-node-versions.test.ts";

/** `engines.node` of package.json: the major lines tested, and no others. */
export function enginesNode(): string {
  const majors = [...new Set([...PACKED_PACKAGE_MATRIX.map((c) => c.node), ...NATIVE_PLUGIN_NODES].map((v) => v.split(".")[0]))];
  return majors.map((m) => `^${m}`).join(" || ");
}

/** The README's Compatibility table. */
export function compatibilityTable(): string {
  const packedSteps = "the package from its tarball (dynamic provider): preview and `up`, a no-op preview, `refresh`, `destroy`";
  const pluginSteps = "the native plugin from its tarball, under Pulumi YAML: preview, `up`, `destroy`";
  const rows = [
    ...PACKED_PACKAGE_MATRIX.map((c) => [c.node, c.pulumi, packedSteps, `\`${PACKED_PACKAGE_TEST}\``]),
    ...NATIVE_PLUGIN_NODES.map((node) => [node, `${REPOSITORY_PULUMI} (bundled in the plugin)`, pluginSteps, `\`${NATIVE_PLUGIN_TEST}\``]),
    ["the Node that runs `npm test`", REPOSITORY_PULUMI, "every other test", "`npm test`"],
  ];
  return [["Node.js", "`@pulumi/pulumi`", "What runs", "Test"], ["---", "---", "---", "---"], ...rows]
    .map((cells) => `| ${cells.join(" | ")} |`)
    .join("\n");
}

/**
 * The `typescript` peer range's floor: the oldest TypeScript whose `tsc`
 * compiles the README's programs in the 2024 template's project (strict, no
 * skipLibCheck) with @types/node ^18 as npm installs it today
 * (`TYPES_NODE`). The package's own declarations compile with the engine's
 * vendored 3.8.3 too (the "2023" generation); 4.7 fails on @types/node
 * 18.19's declarations, not on this package's.
 */
export const TYPESCRIPT_FLOOR = "4.8.4";
/** `typescript@^5.0.0` of the 2024 and 2026 templates, as npm installs it today (`npm view typescript@^5 version`), pinned. */
export const TYPESCRIPT_5 = "5.9.3";
/** `@types/node@^18` of every template, as npm installs it today, pinned. */
export const TYPES_NODE = "18.19.130";
/** @pulumi/policy, for the `./policy` entry point (an optional peer dependency). */
export const POLICY_SDK = "1.21.0";
export const TYPESCRIPT_GENERATIONS_TEST = "test/e2e/typescript-generations.test.ts";

export interface TypeScriptGeneration {
  /** Its name in the test and the tables. */
  name: string;
  /** What it stands for. */
  label: string;
  /** The project's `typescript`, or undefined: the engine's vendored 3.8.3 through ts-node 7.0.1. */
  typescript: string | undefined;
  /** The tsconfig.json compiler options of its template (pulumi/templates, typescript/tsconfig.json), besides those every one has. */
  module: "commonjs" | "nodenext";
  target: "es2016" | "es2020";
}

/**
 * The projects of `pulumi new typescript` over the years (pulumi/templates,
 * typescript/): no TypeScript of their own until 2024 (a4fde47e, Dec 2023:
 * es2016, commonjs, node resolution, @types/node ^18), then typescript ^5 with
 * es2020 (ed5812e3, May 2024), then nodenext (81e65225, Mar 2026); and the
 * 2024 project at the peer range's floor. Each with @pulumi/pulumi at the
 * peer range's floor and @types/node TYPES_NODE; strict, no skipLibCheck.
 */
export const TYPESCRIPT_GENERATIONS: readonly TypeScriptGeneration[] = [
  { name: "2023", label: "2021–2024 template: no typescript in the project (the engine's vendored 3.8.3 and ts-node 7)", typescript: undefined, module: "commonjs", target: "es2016" },
  { name: "2024", label: "2024–2026 template: typescript ^5.0.0, commonjs", typescript: TYPESCRIPT_5, module: "commonjs", target: "es2020" },
  { name: "2026", label: "2026 template: typescript ^5.0.0, nodenext", typescript: TYPESCRIPT_5, module: "nodenext", target: "es2020" },
  { name: "floor", label: "the 2024 template at the peer range's floor", typescript: TYPESCRIPT_FLOOR, module: "commonjs", target: "es2020" },
];

/** The template's tsconfig.json of a generation (its "files" listing the programs). */
export function templateTsconfig(g: TypeScriptGeneration, files: readonly string[]): Record<string, unknown> {
  return {
    compilerOptions: {
      strict: true,
      outDir: "bin",
      target: g.target,
      module: g.module,
      moduleResolution: g.module === "nodenext" ? "nodenext" : "node",
      sourceMap: true,
      experimentalDecorators: true,
      pretty: true,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      forceConsistentCasingInFileNames: true,
    },
    files,
  };
}

/** CONTRIBUTING.md's table of the TypeScript projects the README's programs compile in. */
export function typescriptTable(): string {
  const rows = TYPESCRIPT_GENERATIONS.map((g) => [
    g.label,
    g.typescript ?? "3.8.3 (vendored in `@pulumi/pulumi`)",
    `target ${g.target}, module ${g.module}`,
    g.typescript ? "`tsc --noEmit`" : "ts-node 7 as the engine runs it, and a preview against the emulator",
  ]);
  return [["project", "TypeScript", "tsconfig", "what runs"], ["---", "---", "---", "---"], ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}
