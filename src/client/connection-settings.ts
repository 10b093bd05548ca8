/**
 * The rules for the connection settings, the base URL and the API key, shared
 * by the stack settings (config.ts) and the client's constructor. Each mistake
 * is one ConfigurationError, raised before any request (so never retried),
 * that names the setting as the user wrote it and says how to fix it. No
 * message carries the key or any part of it.
 */
import { ConfigurationError } from "./errors";

/** How the user spells each setting where it came from: stack config, environment or client option. */
export interface SettingNames {
  baseUrl: string;
  apiKey: string;
  /** How to opt in to plain http deliberately, as an instruction ("run ...", "pass ..."). */
  insecureHttpOptIn: string;
}

export const CLIENT_OPTION_NAMES: SettingNames = {
  baseUrl: "baseUrl",
  apiKey: "apiKey",
  insecureHttpOptIn: "pass the client option allowInsecureHttp: true",
};

/** How to set a setting again, by the shape of its name. */
export function howToSet(name: string, placeholder: string, secret = false): string {
  if (name.includes(":")) return `\`pulumi config set${secret ? " --secret" : ""} ${name} ${placeholder}\``;
  if (/^[A-Z][A-Z0-9_]*$/.test(name)) return `\`export ${name}=${placeholder}\``;
  return `the client option ${name}: ${placeholder}`;
}

/** Hosts that never leave the machine: the key may travel over plain http to them. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host === "[::1]") return true;
  return /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Returns the base URL without a trailing slash, or throws naming the setting
 * and the rule: http or https, no credentials, no query or fragment, the /v1
 * segment at the end, and https unless the host is loopback or plain http was
 * allowed deliberately.
 */
export function checkBaseUrl(raw: string, names: SettingNames, allowInsecureHttp = false): string {
  const from = names.baseUrl;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError(`${from}: "${raw}" is not a URL; expected for example https://api.example.com/v1`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`${from}: must use http or https, got "${url.protocol.replace(":", "")}"`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError(
      `${from}: must not carry credentials (user:password@); remove them, the API key belongs in ${names.apiKey}`,
    );
  }
  // `search` and `hash` are empty for a bare "?" or "#", so look at the whole URL.
  if (/[?#]/.test(url.href)) {
    throw new ConfigurationError(`${from}: must not carry a query or fragment; remove everything from "?" or "#" on`);
  }
  const trimmed = url.href.replace(/\/+$/, "");
  if (!trimmed.endsWith("/v1")) {
    throw new ConfigurationError(
      `${from}: must end with the version segment /v1, got "${trimmed}"; set it to for example ${url.origin}/v1`,
    );
  }
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    throw new ConfigurationError(
      `${from}: "${trimmed}" would send the API key unencrypted to ${url.hostname}; use https, ` +
        `or, to accept that deliberately (a network you trust), ${names.insecureHttpOptIn}`,
    );
  }
  return trimmed;
}

function describeCharacter(ch: string): string {
  if (ch === "\n" || ch === "\r") return "a line break";
  if (ch === "\t") return "a tab";
  if (ch === " ") return "a space";
  const code = `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  return (ch.codePointAt(0) ?? 0) < 0x80 ? `a control character (${code})` : `a non-ASCII character (${code})`;
}

/**
 * Client options whose base URL and key the provider checked where it
 * resolves its settings (src/core/settings.ts), with errors that name the
 * stack's settings: a client made from them does not check them again. A
 * client a program builds directly checks its own options
 * (src/client/transport.ts).
 */
const checkedConnections = new WeakSet<object>();

/** Marks `options` as checked by the provider's settings; returns them. */
export function checkedConnection<T extends object>(options: T): T {
  checkedConnections.add(options);
  return options;
}

export function isCheckedConnection(options: object): boolean {
  return checkedConnections.has(options);
}

/**
 * Throws unless the key can travel as a bearer token: not empty, no
 * surrounding whitespace (a copied line break, most often), only visible
 * ASCII characters (what an HTTP header can carry, spaces excluded).
 */
export function checkApiKey(raw: string, names: SettingNames): void {
  const from = names.apiKey;
  const again = howToSet(from, "<key>", true);
  if (raw === "") throw new ConfigurationError(`${from}: the API key is empty; set it with ${again}`);
  if (raw !== raw.trim()) {
    const edge = raw.trimStart() !== raw ? raw[0] : raw[raw.length - 1];
    const where = raw.trimStart() !== raw ? "starts" : "ends";
    throw new ConfigurationError(
      `${from}: the API key ${where} with ${describeCharacter(edge ?? " ")} (a copy-paste mistake?); ` +
        `set it again without surrounding whitespace: ${again}`,
    );
  }
  if (/^bearer\s/i.test(raw)) {
    throw new ConfigurationError(`${from}: give the key alone, without the "Bearer " prefix: ${again}`);
  }
  const chars = [...raw];
  const index = chars.findIndex((ch) => ch < "\x21" || ch > "\x7e");
  if (index >= 0) {
    throw new ConfigurationError(
      `${from}: the API key contains ${describeCharacter(chars[index] ?? "")} at position ${index + 1}, ` +
        `which cannot travel in the Authorization header (a key is visible ASCII characters only); ` +
        `copy the key again and set it with ${again}`,
    );
  }
}

/** Throws unless the user agent can travel in a header: tabs, spaces and visible ASCII characters. */
export function checkUserAgent(raw: string): void {
  const chars = [...raw];
  const index = chars.findIndex((ch) => ch !== "\t" && (ch < " " || ch > "\x7e"));
  if (index >= 0) {
    throw new ConfigurationError(
      `userAgent: contains ${describeCharacter(chars[index] ?? "")} at position ${index + 1}, which cannot travel in an HTTP header`,
    );
  }
}
