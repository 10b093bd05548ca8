/**
 * A failed data-source call (getSecretSet, getAgentLogs) in the program, as
 * one line. Pulumi prints a RunError's message alone, without the "unhandled
 * exception" banner and the stack trace into this package's sources it gives
 * any other error. The client's typed error stays available as `cause`.
 */
import * as pulumi from "@pulumi/pulumi";
import { AgentHostingError, AuthenticationError, ConnectionError, TimeoutError } from "../client/errors";
import { API_KEY_CONFIG, API_KEY_ENV } from "../core/settings";

export class ProgramCallError extends pulumi.RunError {
  override readonly name = "ProgramCallError";
}

/**
 * The error a data-source call raises for `error`, met by `call` against
 * `baseUrl` (taken from the setting `baseUrlSetting`). An unreachable service
 * names the base URL and the setting to check; a refused key names the key's
 * settings. The key itself is never part of it: the client's errors never
 * carry it. Anything that is not the client's error (a bug) passes unchanged.
 */
export function programCallError(call: string, error: unknown, baseUrl: string, baseUrlSetting: string): unknown {
  if (!(error instanceof AgentHostingError)) return error;
  let message = `agent-hosting: ${call}: ${error.message}`;
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    message =
      `agent-hosting: ${call} could not reach the service at ${baseUrl} (${error.message}); ` +
      `check ${baseUrlSetting} and that the service is running`;
  } else if (error instanceof AuthenticationError) {
    message = `agent-hosting: ${call}: the service at ${baseUrl} refused the API key (${error.message}); check ${API_KEY_CONFIG} or ${API_KEY_ENV}`;
  }
  return new ProgramCallError(message, { cause: error });
}
