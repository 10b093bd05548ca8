/**
 * The image digest resolver: a tag-form image reference resolved to the
 * digest its tag names now, through the OCI distribution API of the image's
 * registry (see digest-resolver.ts).
 */
export { ImageDigestResolver } from "./digest-resolver";
export { imageName, pinImage } from "./reference-parts";
export type { ImageDigestResolverOptions, ResolvedImage } from "./digest-resolver";
export { canonicalName, isDigest, parseImageReference } from "./oci-reference";
export type { ImageReference } from "./oci-reference";
export { MANIFEST_MEDIA_TYPES } from "./manifest-digest";
export { parseRegistryAuth } from "./registry-auth-setting";
export { REGISTRY_AUTH_SETTING, defaultDockerConfigFile } from "./registry-credentials";
export type { RegistryCredential } from "./registry-credentials";
export { ImageRegistryError } from "./registry-errors";
export type { ImageRegistryErrorKind } from "./registry-errors";
export type { InsecureHttpAllowance } from "./registry-http";
export { imageDigestLookup } from "./run-lookup";
export type { RunImageDigestLookup } from "./run-lookup";
