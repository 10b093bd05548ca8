/**
 * The image digest resolver: a tag-form image reference resolved to the
 * digest its tag names now, through the OCI distribution API of the image's
 * registry (see digest-resolver.ts). The package's own files import the
 * folder's files directly; this lists what a caller outside the package's
 * layers needs to start a resolver and read its failures.
 */
export { ImageDigestResolver } from "./digest-resolver";
export type { ImageDigestResolverOptions, ResolvedImage } from "./digest-resolver";
export { defaultDockerConfigFile } from "./registry-credentials";
export { ImageRegistryError } from "./registry-errors";
export type { ImageRegistryErrorKind } from "./registry-errors";
