/**
 * A failure of the service or the settings on the resource path, said so
 * that it names the fix: a refused key names the setting the key came from
 * (never the key), an unreachable service names the URL tried and the
 * setting it came from, after the client's retries. The functions run in the
 * program say the same (src/functions/program-call-error.ts).
 */
import { AuthenticationError, ConnectionError, TimeoutError } from "../client/errors";
import { isPartialFailure } from "./partial-failure";
import { API_KEY_CONFIG } from "./settings";

export interface ErrorContext {
  /** The base URL the client talked to ("" when the settings did not resolve). */
  baseUrl: string;
  /** The settings the key and the URL came from. */
  apiKeySetting: string;
  baseUrlSetting: string;
}

/** How to set the key again, for the setting it came from. */
function keyFix(setting: string): string {
  return setting === API_KEY_CONFIG ? `\`pulumi config set --secret ${API_KEY_CONFIG} <key>\`` : `the environment variable ${setting}`;
}

/** `error` with a message that names the fix, or `error` itself when it needs none. */
export function explainServiceError(error: unknown, context: ErrorContext): unknown {
  if (isPartialFailure(error)) return error;
  const service = context.baseUrl ? `the service at ${context.baseUrl}` : "the service";
  if (error instanceof AuthenticationError) {
    return error.withMessage(
      `${service} refused the API key taken from ${context.apiKeySetting} (${error.serviceMessage}); ` +
        `check that key and set the right one with ${keyFix(context.apiKeySetting)}`,
    );
  }
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    error.message =
      `could not reach ${service} (${error.message}, after the client's retries); ` +
      `check ${context.baseUrlSetting} and that the service is running`;
  }
  return error;
}
