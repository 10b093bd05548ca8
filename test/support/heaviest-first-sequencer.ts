/**
 * The order vitest starts test files in: the end-to-end files that take the
 * longest start first, so none of them starts near the end of a run and
 * holds it up alone while the other workers stand idle; every other file
 * follows in vitest's own order (a cached run's longest first, otherwise the
 * largest file first), the unit and integration files, each a few seconds,
 * filling the tail. Vitest's own order knows nothing of a fresh clone's
 * first run, where a small file of many stack operations (schema-examples)
 * would start last.
 */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The end-to-end files of many stack operations, longest first (their file time in a whole run on the
 * 2-core machine: each over a minute and a half of the run's four workers).
 */
export const HEAVIEST_FIRST = [
  "test/e2e/schema-examples.test.ts",
  "test/e2e/examples.test.ts",
  "test/e2e/deployment-failures.test.ts",
  "test/e2e/safety.test.ts",
  "test/e2e/packed-package.test.ts",
  "test/e2e/campaign.test.ts",
  "test/e2e/lifecycle.test.ts",
  "test/e2e/image-digests.test.ts",
  "test/e2e/readme-programs.test.ts",
  "test/e2e/java-program.test.ts",
  "test/e2e/docs-programs.test.ts",
  "test/e2e/typescript-generations.test.ts",
  "test/e2e/yaml-deployment-failures.test.ts",
  "test/e2e/reliability.test.ts",
  "test/e2e/config-mistakes.test.ts",
  "test/e2e/resource-errors.test.ts",
];

export class HeaviestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const gone = HEAVIEST_FIRST.filter((file) => !existsSync(join(root, file)));
    if (gone.length > 0) throw new Error(`test/support/heaviest-first-sequencer.ts names files that do not exist: ${gone.join(", ")}`);
    const rank = (spec: TestSpecification): number => {
      const at = HEAVIEST_FIRST.indexOf(relative(root, spec.moduleId).split("\\").join("/"));
      return at === -1 ? HEAVIEST_FIRST.length : at;
    };
    const ordered = await super.sort(files);
    return ordered.map((spec, index) => ({ spec, index })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index).map(({ spec }) => spec);
  }
}
