// Types of maven-repository.mjs, for the TypeScript tests.
export interface MavenArtifactPaths {
  dir: string;
  jar: string;
  sources: string;
  javadoc: string;
  pom: string;
}
export declare function mavenArtifactPaths(version: string): MavenArtifactPaths;
export declare function mavenRepositoryFiles(version: string): string[];
export declare function writeMavenRepository(outDir: string, version: string, mtime: number): string[];
