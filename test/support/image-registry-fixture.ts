/**
 * A real OCI registry for the image-digest tests, typed:
 * scripts/lib/image-registry-server.mjs (shared with the bench's registry
 * figure) runs the CNCF distribution registry on 127.0.0.1, port 0, in one
 * of three modes ("anonymous", htpasswd "basic", "bearer" behind the token
 * service of test/support/image-registry-token-service.ts), pushes and
 * re-tags images with crane, and counts requests through a loopback proxy
 * that can drop `Docker-Content-Digest`.
 */
import { startImageRegistry as start } from "../../scripts/lib/image-registry-server.mjs";
import type { TokenService } from "./image-registry-token-service";

export type RegistryAuthMode = "anonymous" | "basic" | "bearer";

export interface ImageRegistryOptions {
  auth: RegistryAuthMode;
  /** In "bearer" mode, the repositories anonymous clients may pull (others need credentials). */
  publicRepositories?: readonly string[];
}

export interface ProxiedRequest {
  method: string;
  path: string;
  /** The scheme of the Authorization header sent, or "none". */
  authorization: string;
}

export interface RegistryProxy {
  /** `127.0.0.1:<port>`, the registry host to name in images. */
  host: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

export interface RunningImageRegistry {
  /** `127.0.0.1:<port>`. */
  host: string;
  /** The user crane pushes as; tests give these to the resolver to read private repositories. */
  username: string;
  password: string;
  /** The token service, in "bearer" mode. */
  tokenService: TokenService | undefined;
  /** Pushes a new image (one random layer) to repository:tag; returns its manifest digest. */
  pushImage(repository: string, tag: string, platform?: string): Promise<string>;
  /** Pushes an index of the given references (`repository:tag`) as repository:tag; returns the index digest. */
  pushIndex(repository: string, tag: string, manifests: readonly string[]): Promise<string>;
  /** Points `toTag` at what `fromTag` names now. */
  retag(repository: string, fromTag: string, toTag: string): Promise<void>;
  /** The digest the tag names, as crane reads it. */
  digest(repository: string, tag: string): Promise<string>;
  /** The manifest's media type, as crane reads it. */
  mediaType(repository: string, tag: string): Promise<string>;
  proxy(options?: { withoutDigestHeader?: boolean }): Promise<RegistryProxy>;
  /** The registry's log so far (stderr). */
  log(): string;
  close(): Promise<void>;
}

/** Starts a registry in the given mode; the caller closes it. */
export const startImageRegistry: (options: ImageRegistryOptions) => Promise<RunningImageRegistry> = start;
