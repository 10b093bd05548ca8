/**
 * A warning, in the program, when `agent-hosting:apiKey` was set without
 * `--secret`. The engine records the stack's whole configuration as inputs of
 * the default provider, so such a key sits in plain text in the stack's
 * config file and in the state.
 *
 * Only the program can tell: the dynamic provider's `configure` receives bare
 * values (the Node SDK unwraps secrets before calling it). The program's
 * runtime knows the secret keys; the SDK exports that check at run time
 * without declaring it, so it is looked up and skipped where absent.
 */
import * as pulumi from "@pulumi/pulumi";
import { API_KEY_CONFIG, API_KEY_ENV } from "./settings";

type SecretCheck = (key: string) => boolean;

const isSecretCheck = (value: unknown): value is SecretCheck => typeof value === "function";

/** Stacks already looked at in this process (an Automation API host may run several). */
const checked = new Set<string>();

export const PLAIN_KEY_WARNING =
  `${API_KEY_CONFIG} is set without --secret, so the API key sits in plain text in the stack's configuration ` +
  `and in its state; set it again with \`pulumi config set --secret ${API_KEY_CONFIG} <key>\`, ` +
  `or leave it out of the stack and set ${API_KEY_ENV}`;

/** Warns at most once per stack and process; every later call costs a set lookup. */
export function warnIfKeyInPlainText(): void {
  const stack = `${pulumi.getProject()}/${pulumi.getStack()}`;
  if (checked.has(stack)) return;
  checked.add(stack);
  const runtime: object = pulumi.runtime;
  const isSecret: unknown = "isConfigSecret" in runtime ? runtime.isConfigSecret : undefined;
  if (!isSecretCheck(isSecret)) return;
  const value = pulumi.runtime.getConfig(API_KEY_CONFIG);
  if (value === undefined || value.trim() === "" || isSecret(API_KEY_CONFIG)) return;
  void pulumi.log.warn(`agent-hosting: ${PLAIN_KEY_WARNING}`);
}
