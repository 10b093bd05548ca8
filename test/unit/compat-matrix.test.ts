/**
 * The README's Compatibility section, CONTRIBUTING.md's matrix, package.json and the compatibility
 * tests name the same versions: all of them read test/support/compat-matrix.ts
 * (and the pinned Node releases of node-releases.mjs), and this
 * file fails when the README or package.json says anything else.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCRIPT, NODE_RELEASES } from "../support/project-scripts";
import {
  compatibilityTable,
  enginesNode,
  NATIVE_PLUGIN_NODES,
  NATIVE_PLUGIN_TEST,
  NEWEST_PULUMI,
  OLDEST_PULUMI,
  PACKED_PACKAGE_MATRIX,
  PACKED_PACKAGE_TEST,
  POLICY_SDK,
  REPOSITORY_PULUMI,
  TYPES_NODE,
  TYPESCRIPT_FLOOR,
  TYPESCRIPT_GENERATIONS,
  TYPESCRIPT_GENERATIONS_TEST,
  typescriptTable,
} from "../support/compat-matrix";

const root = join(__dirname, "..", "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");
const pkg = JSON.parse(read("package.json")) as {
  engines: Record<string, string>;
  scripts: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  exports: Record<string, string | { types?: string }>;
  typesVersions: Record<string, Record<string, string[]>>;
};

/** The `## <heading>` section of a file, up to the next `## ` heading. */
function section(path: string, heading: string): string {
  const text = read(path);
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, `${path} has no ## ${heading} section`).toBeGreaterThan(-1);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}
const compatibilitySection = () => section("README.md", "Compatibility");

describe("the compatibility matrix", () => {
  it("CONTRIBUTING.md's table is the one the tests run, and the README points to it", () => {
    expect(section("CONTRIBUTING.md", "Compatibility matrix")).toContain(`\n${compatibilityTable()}\n`);
    expect(compatibilitySection()).toContain("CONTRIBUTING.md#compatibility-matrix");
  });

  it("the README names every pinned Node release, the CLI version, engines and how to reproduce the matrix", () => {
    const section = compatibilitySection();
    for (const version of Object.values(NODE_RELEASES)) expect(section).toContain(version);
    const cli = /PULUMI_CLI_VERSION:-(v\d+\.\d+\.\d+)/.exec(readFileSync(SCRIPT.pulumiCli, "utf8"))?.[1];
    expect(cli).toBeDefined();
    expect(section).toContain(`\`pulumi\` CLI ${cli}`);
    expect(section).toContain(`\`${pkg.engines["node"]}\``);
    expect(section).toContain("npm run test:compat");
    expect(section).toContain("scripts/node-version.mjs");
  });

  it("typesVersions gives every subpath export its declarations, for projects on moduleResolution node", () => {
    const subpaths = Object.entries(pkg.exports).filter(([path, target]) => path !== "." && typeof target === "object" && target.types !== undefined);
    const mapped = pkg.typesVersions["*"] ?? {};
    expect(Object.fromEntries(subpaths.map(([path, target]) => [path.slice(2), [(target as { types: string }).types.replace(/^\.\//, "")]]))).toEqual(mapped);
  });

  it("npm run test:compat runs exactly the test files of the tables", () => {
    const files = pkg.scripts["test:compat"]?.match(/test\/\S+\.test\.ts/g) ?? [];
    expect(new Set(files)).toEqual(new Set([PACKED_PACKAGE_TEST, NATIVE_PLUGIN_TEST, TYPESCRIPT_GENERATIONS_TEST]));
  });

  it("TypeScript: the peer range starts at the floor the generations test compiles with; CONTRIBUTING.md's table and the README name the same", () => {
    expect(pkg.peerDependencies["typescript"]).toBe(`>=${TYPESCRIPT_FLOOR} <7`);
    expect(TYPESCRIPT_GENERATIONS.map((g) => g.typescript)).toContain(TYPESCRIPT_FLOOR);
    expect(TYPESCRIPT_GENERATIONS.some((g) => g.typescript === undefined)).toBe(true);
    expect(read(TYPESCRIPT_GENERATIONS_TEST)).toContain("TYPESCRIPT_GENERATIONS.filter(");
    const contributing = section("CONTRIBUTING.md", "Compatibility matrix");
    expect(contributing).toContain(`\n${typescriptTable()}\n`);
    for (const version of [OLDEST_PULUMI, TYPES_NODE, POLICY_SDK]) expect(contributing).toContain(version);
    const readme = compatibilitySection();
    expect(readme).toContain(`\`typescript\` ${TYPESCRIPT_FLOOR}`);
    expect(readme).toContain("3.8.3");
    expect(readme).toContain("`skipLibCheck`");
  });

  it("those test files take their versions from the matrix", () => {
    expect(read(PACKED_PACKAGE_TEST)).toMatch(/import \{[^}]*\bPACKED_PACKAGE_MATRIX\b[^}]*\} from "\.\.\/support\/compat-matrix"/);
    expect(read(PACKED_PACKAGE_TEST)).toContain("describe.each(PACKED_PACKAGE_MATRIX)");
    expect(read(NATIVE_PLUGIN_TEST)).toMatch(/import \{[^}]*\bNATIVE_PLUGIN_NODES\b[^}]*\} from "\.\.\/support\/compat-matrix"/);
    expect(read(NATIVE_PLUGIN_TEST)).toContain("describe.each(NATIVE_PLUGIN_NODES)");
  });

  it("package.json: engines names the tested Node lines, the peer range starts at the oldest SDK tested, the repository's SDK is the one named", () => {
    expect(pkg.engines["node"]).toBe(enginesNode());
    expect(pkg.peerDependencies["@pulumi/pulumi"]).toBe(`^${OLDEST_PULUMI}`);
    expect(pkg.devDependencies["@pulumi/pulumi"]).toBe(REPOSITORY_PULUMI);
  });

  it("the matrix runs both ends of the peer range, the newest on every Node line but 20, and only pinned Node releases", () => {
    expect(NEWEST_PULUMI.split(".")[0]).toBe(OLDEST_PULUMI.split(".")[0]);
    const pinned = Object.values(NODE_RELEASES);
    for (const { node } of PACKED_PACKAGE_MATRIX) expect(pinned).toContain(node);
    for (const node of NATIVE_PLUGIN_NODES) expect(pinned).toContain(node);
    expect(PACKED_PACKAGE_MATRIX).toContainEqual({ node: NODE_RELEASES[20], pulumi: OLDEST_PULUMI });
    expect(PACKED_PACKAGE_MATRIX).toContainEqual({ node: NODE_RELEASES[22], pulumi: NEWEST_PULUMI });
    expect(PACKED_PACKAGE_MATRIX).toContainEqual({ node: NODE_RELEASES[24], pulumi: NEWEST_PULUMI });
  });
});
