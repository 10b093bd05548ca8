/**
 * Reads a `WWW-Authenticate` header (RFC 7235): one or more challenges, each
 * a scheme and `name=value` or `name="quoted value"` parameters, as
 * registries send `Basic realm="..."` or
 * `Bearer realm="...",service="...",scope="..."`.
 */

export interface AuthChallenge {
  /** The scheme, lower-case: `basic`, `bearer`. */
  scheme: string;
  /** Parameters by lower-case name. */
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/** The challenges of one or more `WWW-Authenticate` header values, in order. */
export function parseAuthChallenges(header: string | readonly string[] | undefined): AuthChallenge[] {
  const values = header === undefined ? [] : typeof header === "string" ? [header] : header;
  const challenges: AuthChallenge[] = [];
  for (const value of values) challenges.push(...parseOne(value));
  return challenges;
}

function parseOne(value: string): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  let rest = value;
  let current: AuthChallenge | undefined;
  for (;;) {
    rest = rest.replace(/^[\s,]+/, "");
    const name = TOKEN.exec(rest)?.[0];
    if (name === undefined) return challenges;
    rest = rest.slice(name.length);
    const equals = /^\s*=\s*/.exec(rest);
    if (!equals || current === undefined) {
      // A token not followed by "=" starts a challenge (token68 credentials after it are skipped).
      current = { scheme: name.toLowerCase(), params: {} };
      challenges.push(current);
      if (equals) rest = rest.slice(equals[0].length).replace(/^[^,]*/, "");
      continue;
    }
    rest = rest.slice(equals[0].length);
    let paramValue: string;
    if (rest.startsWith('"')) {
      let end = 1;
      paramValue = "";
      while (end < rest.length && rest[end] !== '"') {
        if (rest[end] === "\\" && end + 1 < rest.length) end += 1;
        paramValue += rest[end];
        end += 1;
      }
      rest = rest.slice(end + 1);
    } else {
      paramValue = /^[^,\s]*/.exec(rest)?.[0] ?? "";
      rest = rest.slice(paramValue.length);
    }
    current.params[name.toLowerCase()] = paramValue;
  }
}
