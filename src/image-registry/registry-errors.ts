/**
 * The resolver's one error: why an image's digest could not be found, with
 * the registry, repository, tag and HTTP status it concerns (when known) and
 * a message that names the fix. No message, field or `toJSON` carries a
 * credential or a token: the messages are built from the reference, the
 * status and the registry's error codes only.
 */
import { AgentHostingError } from "../client/errors";

export type ImageRegistryErrorKind =
  /** The image is not a reference at all. */
  | "invalid-reference"
  /** No answer: DNS, connection, TLS, timeout. */
  | "unreachable"
  /** The registry has no such repository or tag. */
  | "not-found"
  /** The registry asks for credentials and none are configured for it. */
  | "credentials-missing"
  /** The registry (or its token service) refused the configured credentials. */
  | "credentials-refused"
  /** Plain http to a registry that is not on this machine, without allowInsecureHttp. */
  | "insecure-http"
  /** Any other answer: an unexpected status, a missing or malformed digest, a malformed token answer. */
  | "registry-answer";

/** What an error is about: the parts of a parsed reference (oci-reference.ts's ImageReference has them). */
export interface ReferenceNames {
  registry: string;
  repository: string;
  tag?: string;
}

export interface ImageRegistryErrorDetails {
  kind: ImageRegistryErrorKind;
  reference?: ReferenceNames;
  status?: number;
}

export class ImageRegistryError extends AgentHostingError {
  override readonly name = "ImageRegistryError";
  readonly kind: ImageRegistryErrorKind;
  readonly registry: string | undefined;
  readonly repository: string | undefined;
  readonly tag: string | undefined;
  /** The HTTP status of the answer that failed, when there was one. */
  readonly status: number | undefined;

  constructor(message: string, details: ImageRegistryErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = details.kind;
    this.registry = details.reference?.registry;
    this.repository = details.reference?.repository;
    this.tag = details.reference?.tag;
    this.status = details.status;
  }

  override toJSON(): Record<string, unknown> {
    const { kind, registry, repository, tag, status } = this;
    return { ...super.toJSON(), kind, registry, repository, tag, status };
  }
}

/** The way out every resolution error offers: send the image as written (pinning is on by default, so the stack's setting is named too). */
export const UNPINNED_FIX =
  "or set pinImageDigest: false on the agent (or `pulumi config set agent-hosting:pinImageDigests false` for the whole stack) to send the image as written, unresolved";

/** How to give the provider credentials for `registry`. */
export function credentialsFix(registry: string): string {
  return `run \`docker login ${registry}\` where the preview runs, or add {server: "${registry}", username, password} to the secret setting agent-hosting:registryAuth`;
}

/** "registry R, repository P, tag T": what the error is about, as the user looks it up. */
export function describeReference(reference: ReferenceNames): string {
  return `registry ${reference.registry}, repository ${reference.repository}, tag ${reference.tag ?? "latest"}`;
}
