/**
 * The errors for a registry's refusals, each naming the registry, the
 * repository, the tag, the HTTP status (and the registry's error code when
 * its body gives one) and what to do. Built from the reference, the status
 * and the code only, so no credential or token can reach a message.
 */
import type { ImageReference } from "./oci-reference";
import { REGISTRY_AUTH_SETTING } from "./registry-credentials";
import type { CredentialLookup } from "./registry-credentials";
import { ImageRegistryError, UNPINNED_FIX, credentialsFix, describeReference } from "./registry-errors";
import type { RegistryAnswer } from "./registry-http";

/** The first error code of a distribution API error body (`{"errors":[{"code":"MANIFEST_UNKNOWN",...}]}`), if any. */
export function registryErrorCode(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { errors?: { code?: unknown }[] };
    const code = parsed.errors?.[0]?.code;
    return typeof code === "string" && /^[A-Z_]{1,64}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

function statusText(answer: RegistryAnswer): string {
  const code = registryErrorCode(answer.body);
  return `HTTP ${answer.status}${code ? ` ${code}` : ""}`;
}

/** The registry has no such repository or tag. */
export function notFoundError(reference: ImageReference, answer: RegistryAnswer): ImageRegistryError {
  return new ImageRegistryError(
    `${describeReference(reference)}: the registry has no such tag (${statusText(answer)}); ` +
      `push the image, or correct the image's tag, ${UNPINNED_FIX}`,
    { kind: "not-found", reference, status: answer.status },
  );
}

/**
 * The registry (or its token service, `by`) wants credentials: refused when
 * some were sent, missing when none were configured.
 */
export function authError(reference: ImageReference, answer: RegistryAnswer, lookup: CredentialLookup, by = "the registry"): ImageRegistryError {
  const status = statusText(answer);
  if (lookup.credential) {
    const fix =
      lookup.credential.source === REGISTRY_AUTH_SETTING
        ? `correct the entry for ${reference.registry} in ${REGISTRY_AUTH_SETTING}`
        : `log in again with \`docker login ${reference.registry}\` or give credentials in ${REGISTRY_AUTH_SETTING}`;
    return new ImageRegistryError(
      `${describeReference(reference)}: ${by} refused the credentials from ${lookup.credential.source} (${status}); ` +
        `they are wrong or may not read this repository: ${fix}, ${UNPINNED_FIX}`,
      { kind: "credentials-refused", reference, status: answer.status },
    );
  }
  const hint = lookup.hint ? ` (${lookup.hint})` : "";
  return new ImageRegistryError(
    `${describeReference(reference)}: ${by} asks for credentials (${status}) and none are configured for ${reference.registry}${hint}; ` +
      `the repository is private or does not exist: ${credentialsFix(reference.registry)}, ${UNPINNED_FIX}`,
    { kind: "credentials-missing", reference, status: answer.status },
  );
}

/** Any other answer the resolver cannot use. */
export function unexpectedAnswerError(reference: ImageReference, answer: RegistryAnswer | undefined, what: string, by = "the registry"): ImageRegistryError {
  const status = answer ? ` (${statusText(answer)})` : "";
  return new ImageRegistryError(`${describeReference(reference)}: ${by} ${what}${status}; ${UNPINNED_FIX}`, {
    kind: "registry-answer",
    reference,
    ...(answer ? { status: answer.status } : {}),
  });
}
