/**
 * The Node.js and @pulumi/pulumi versions the compatibility tests run, in
 * one place: the packed package's test and the native plugin's Node test
 * take their combinations from here, package.json's `engines.node` names
 * these Node lines, and the README's Compatibility table must read as
 * `compatibilityTable()` renders it (test/unit/compat-matrix.test.ts).
 */
import { NODE_RELEASES } from "../../scripts/lib/node-releases.mjs";

/** The floor of the peer range `^3.230.0`; it runs on Node 20. */
export const OLDEST_PULUMI = "3.230.0";
/** The newest 3.x release (`npm view @pulumi/pulumi version`), pinned; 3.249.0 and later need Node 22 or newer. */
export const NEWEST_PULUMI = "3.270.0";
/** The repository's own (devDependencies), which the rest of the suite runs and the plugin bundles. */
export const REPOSITORY_PULUMI = "3.248.0";

export interface PackedCombination {
  /** The exact Node release, installed by scripts/node-version.mjs. */
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
