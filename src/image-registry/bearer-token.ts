/**
 * The `Bearer` challenge flow of the distribution API's token
 * authentication: a GET of the challenge's `realm` with its `service` and
 * `scope` (or `repository:<name>:pull`), with `Basic` credentials when the
 * registry has some configured, else anonymously; the answer's `token` (or
 * its OAuth2 spelling `access_token`) goes in `Authorization: Bearer` on the
 * manifest request.
 */
import type { Dispatcher } from "undici";
import { authError, unexpectedAnswerError } from "./answer-errors";
import type { AuthChallenge } from "./auth-challenge";
import type { ImageReference } from "./oci-reference";
import type { CredentialLookup, FoundCredential } from "./registry-credentials";
import { ImageRegistryError, UNPINNED_FIX, describeReference } from "./registry-errors";
import { mayUsePlainHttp, registryRequest } from "./registry-http";
import type { InsecureHttpAllowance } from "./registry-http";

export interface TokenRequest {
  challenge: AuthChallenge;
  reference: ImageReference;
  lookup: CredentialLookup;
  signal: AbortSignal;
}

export interface TokenSettings {
  dispatcher: Dispatcher;
  allowInsecureHttp: InsecureHttpAllowance;
  timeoutMs: number;
}

/** `Authorization: Basic` of a credential. */
export function basicAuthorization(credential: FoundCredential): string {
  return `Basic ${Buffer.from(`${credential.username}:${credential.password}`, "utf8").toString("base64")}`;
}

/** The token endpoint's URL for the challenge, checked against the scheme rule. */
export function tokenUrl(request: TokenRequest, allowInsecureHttp: InsecureHttpAllowance): URL {
  const { challenge, reference } = request;
  let url: URL;
  try {
    url = new URL(challenge.params.realm ?? "");
  } catch {
    throw unexpectedAnswerError(reference, undefined, "sent a Bearer challenge without a usable realm URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && mayUsePlainHttp(url.host, allowInsecureHttp))) {
    throw new ImageRegistryError(
      `${describeReference(reference)}: the registry's token service ${url.origin} is not https and not on this machine; ` +
        `the provider sends no credentials or token requests over it unless allowInsecureHttp names ${url.host}, ${UNPINNED_FIX}`,
      { kind: "insecure-http", reference },
    );
  }
  if (challenge.params.service) url.searchParams.set("service", challenge.params.service);
  const scopes = (challenge.params.scope ?? `repository:${reference.repository}:pull`).split(" ").filter((s) => s !== "");
  for (const scope of scopes) url.searchParams.append("scope", scope);
  return url;
}

/** Asks the token service for a token; throws an ImageRegistryError naming the token service on a refusal. */
export async function fetchBearerToken(request: TokenRequest, settings: TokenSettings): Promise<string> {
  const { reference, lookup, signal } = request;
  const url = tokenUrl(request, settings.allowInsecureHttp);
  const headers: Record<string, string> = { accept: "application/json" };
  if (lookup.credential) headers.authorization = basicAuthorization(lookup.credential);
  const answer = await registryRequest(settings.dispatcher, { method: "GET", url, headers, reference, signal }, settings.timeoutMs);
  const by = `the token service ${url.origin}${url.pathname}`;
  if (answer.status === 401 || answer.status === 403) throw authError(reference, answer, lookup, by);
  if (answer.status !== 200) throw unexpectedAnswerError(reference, answer, "gave no token", by);
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body.toString("utf8"));
  } catch {
    throw unexpectedAnswerError(reference, answer, "answered with a body that is not JSON", by);
  }
  const { token, access_token: accessToken } = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const value = typeof token === "string" && token !== "" ? token : accessToken;
  if (typeof value !== "string" || value === "") throw unexpectedAnswerError(reference, answer, "answered without a token or access_token", by);
  return value;
}
