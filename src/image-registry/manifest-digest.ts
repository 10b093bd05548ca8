/**
 * The digest a tag names now, from the registry: `HEAD
 * /v2/<repository>/manifests/<tag>` accepting the OCI index, OCI manifest,
 * Docker manifest list and Docker v2 manifest types, so a multi-arch image
 * answers with its index and resolves to the index's digest. The answer's
 * `Docker-Content-Digest` is the digest; a registry that leaves it out is
 * asked again with a GET and the digest is the sha256 of the manifest's
 * bytes. A 401 is answered once: with the `Bearer` challenge flow, or with
 * `Basic` credentials when the registry asks for those.
 */
import { createHash } from "node:crypto";
import type { Dispatcher } from "undici";
import { authError, notFoundError, unexpectedAnswerError } from "./answer-errors";
import { parseAuthChallenges } from "./auth-challenge";
import { basicAuthorization, fetchBearerToken } from "./bearer-token";
import { isDigest } from "./oci-reference";
import type { ImageReference } from "./oci-reference";
import type { CredentialLookup, RegistryCredentials } from "./registry-credentials";
import { headerValue, registryOrigin, registryRequest } from "./registry-http";
import type { InsecureHttpAllowance, RegistryAnswer } from "./registry-http";

export const MANIFEST_MEDIA_TYPES = [
  "application/vnd.oci.image.index.v1+json",
  "application/vnd.oci.image.manifest.v1+json",
  "application/vnd.docker.distribution.manifest.list.v2+json",
  "application/vnd.docker.distribution.manifest.v2+json",
] as const;

export const MANIFEST_ACCEPT = MANIFEST_MEDIA_TYPES.join(", ");

export interface ManifestSettings {
  dispatcher: Dispatcher;
  credentials: RegistryCredentials;
  allowInsecureHttp: InsecureHttpAllowance;
  timeoutMs: number;
}

/** The URL of a tag's manifest. */
export function manifestUrl(reference: ImageReference, allowInsecureHttp: InsecureHttpAllowance): URL {
  const tag = encodeURIComponent(reference.tag ?? "latest");
  return new URL(`${registryOrigin(reference.apiHost, allowInsecureHttp)}/v2/${reference.repository}/manifests/${tag}`);
}

/** The Authorization header answering a 401's challenge, or the error to throw when there is none to give. */
async function answerChallenge(
  answer: RegistryAnswer,
  reference: ImageReference,
  lookup: CredentialLookup,
  settings: ManifestSettings,
  signal: AbortSignal,
): Promise<string> {
  const challenges = parseAuthChallenges(answer.headers["www-authenticate"]);
  const bearer = challenges.find((c) => c.scheme === "bearer");
  if (bearer) return `Bearer ${await fetchBearerToken({ challenge: bearer, reference, lookup, signal }, settings)}`;
  if (challenges.some((c) => c.scheme === "basic") && lookup.credential) return basicAuthorization(lookup.credential);
  // Basic without credentials, or a challenge the resolver does not speak.
  throw authError(reference, answer, lookup);
}

function failure(reference: ImageReference, answer: RegistryAnswer, lookup: CredentialLookup): Error {
  if (answer.status === 404) return notFoundError(reference, answer);
  if (answer.status === 401 || answer.status === 403) return authError(reference, answer, lookup);
  return unexpectedAnswerError(reference, answer, "did not give the manifest");
}

/** Resolves a tag-form reference to the digest its tag names now; throws an ImageRegistryError otherwise. */
export async function fetchManifestDigest(reference: ImageReference, settings: ManifestSettings, signal: AbortSignal): Promise<string> {
  const url = manifestUrl(reference, settings.allowInsecureHttp);
  let headers: Record<string, string> = { accept: MANIFEST_ACCEPT };
  const send = (method: "HEAD" | "GET") => registryRequest(settings.dispatcher, { method, url, headers, reference, signal }, settings.timeoutMs);
  const lookup = settings.credentials.lookup(reference.registry);
  let answer = await send("HEAD");
  if (answer.status === 401) {
    headers = { ...headers, authorization: await answerChallenge(answer, reference, lookup, settings, signal) };
    answer = await send("HEAD");
  }
  if (answer.status !== 200) throw failure(reference, answer, lookup);
  const digest = headerValue(answer.headers, "docker-content-digest");
  if (digest !== undefined && isDigest(digest)) return digest;
  if (digest !== undefined) throw unexpectedAnswerError(reference, answer, `sent a Docker-Content-Digest that is not a digest`);
  const full = await send("GET");
  if (full.status !== 200) throw failure(reference, full, lookup);
  if (full.body.length === 0) throw unexpectedAnswerError(reference, full, "sent an empty manifest");
  return `sha256:${createHash("sha256").update(full.body).digest("hex")}`;
}
