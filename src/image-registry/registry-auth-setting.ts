/**
 * The rules of the secret setting agent-hosting:registryAuth: a list of
 * `{server, username, password}`, as the stack config gives it (a JSON
 * string, or the parsed list). Each mistake is a ConfigurationError naming
 * the setting, the entry's index and the field; no message repeats a value,
 * so none carries a password.
 */
import { ConfigurationError } from "../client/errors";
import { REGISTRY_AUTH_SETTING } from "./registry-credentials";
import type { RegistryCredential } from "./registry-credentials";

const EXAMPLE = `[{"server": "ghcr.io", "username": "USER", "password": "TOKEN"}]`;

function refuse(settingName: string, what: string): ConfigurationError {
  // A stack setting is set with the CLI; the environment variable (AGENT_HOSTING_REGISTRY_AUTH) as a variable.
  const how = settingName.includes(":") ? `set with \`pulumi config set --secret ${settingName} '<json>'\`` : `as the value of ${settingName}`;
  return new ConfigurationError(`${settingName}: ${what}; expected a list such as ${EXAMPLE}, ${how}`);
}

/** The entries of the setting (none when it is unset or empty); throws naming the first mistake. */
export function parseRegistryAuth(raw: unknown, settingName: string = REGISTRY_AUTH_SETTING): RegistryCredential[] {
  if (raw === undefined || raw === null || raw === "") return [];
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw refuse(settingName, "is not JSON");
    }
  }
  if (!Array.isArray(value)) throw refuse(settingName, "is not a list");
  const seen = new Set<string>();
  return value.map((entry: unknown, index) => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) throw refuse(settingName, `entry ${index} is not an object`);
    const fields = entry as Record<string, unknown>;
    for (const field of ["server", "username", "password"]) {
      if (typeof fields[field] !== "string" || fields[field] === "") throw refuse(settingName, `entry ${index} has no ${field} (a non-empty string)`);
    }
    const unknown = Object.keys(fields).filter((key) => !["server", "username", "password"].includes(key));
    if (unknown.length > 0) throw refuse(settingName, `entry ${index} has unknown field(s) ${unknown.join(", ")}`);
    const server = fields.server as string;
    if (seen.has(server.trim().toLowerCase())) throw refuse(settingName, `entry ${index} repeats the server ${server}`);
    seen.add(server.trim().toLowerCase());
    return { server, username: fields.username as string, password: fields.password as string };
  });
}
