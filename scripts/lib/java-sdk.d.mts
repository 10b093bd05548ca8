// Types of java-sdk.mjs, for the TypeScript tests.
export interface PackageSchemaForJava {
  name: string;
  version: string;
  pluginDownloadURL?: string;
  language: { java: { basePackage: string } };
}
export declare function mavenCoordinates(schema: PackageSchemaForJava): { groupId: string; artifactId: string; version: string };
export declare function githubRepository(schema: PackageSchemaForJava): { owner: string; repo: string };
export declare function javaPackage(schema: PackageSchemaForJava): string;
export declare function resourceDir(schema: PackageSchemaForJava): string;
export declare function pomXml(schema: PackageSchemaForJava): string;
export declare function pluginJson(schema: PackageSchemaForJava): string;
export declare function generateJavaSdk(schemaPath: string, outDir: string): void;
