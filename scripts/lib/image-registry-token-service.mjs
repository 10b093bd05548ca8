// @ts-check
// The token service a registry behind `auth: token` sends clients to: an
// HTTP server on 127.0.0.1, port 0, that answers `GET /token?service=…&scope=…`
// with a JWT the registry trusts. Its signing key is an EC P-256 key with a
// self-signed certificate, both made by openssl for each service; the
// certificate is the registry's `rootcertbundle`, and each token carries it
// in its `x5c` header.
//
// Grants: a client with a user's right password gets every action it asks
// for; an anonymous client gets `pull` on the public repositories and no
// access elsewhere (a token that the registry then refuses, as Docker Hub
// does for a private repository); a wrong password gets 401. Every request
// is recorded, without its credentials. The tests (test/support/image-registry-token-service.ts)
// and the bench's registry figure use it.
import { execFileSync } from "node:child_process";
import { X509Certificate, createPrivateKey, randomUUID, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

/**
 * @typedef {{ dir: string, service: string, users: Readonly<Record<string, string>>, publicRepositories: readonly string[] }} TokenServiceOptions
 *   dir: where the key and certificate are written; service: the registry's `service` name, the tokens' audience;
 *   publicRepositories: repositories anonymous clients may pull.
 * @typedef {{ who: string, scopes: string[] }} TokenRequestRecord  who: the user whose password was right, "anonymous", or "refused".
 * @typedef {{ realm: string, issuer: string, certificateFile: string, requests: TokenRequestRecord[], close(): Promise<void> }} TokenService
 *   certificateFile: the certificate the registry trusts (its rootcertbundle).
 */

const ISSUER = "agent-hosting-test-token-service";

/** @param {Buffer | string} data */
const base64url = (data) => Buffer.from(data).toString("base64url");

/** @param {string | undefined} authorization @param {TokenServiceOptions["users"]} users @returns {string} */
function whoIsAsking(authorization, users) {
  if (!authorization?.startsWith("Basic ")) return "anonymous";
  const text = Buffer.from(authorization.slice("Basic ".length), "base64").toString("utf8");
  const colon = text.indexOf(":");
  const user = text.slice(0, colon);
  return colon > 0 && users[user] === text.slice(colon + 1) ? user : "refused";
}

/**
 * `repository:<name>:<actions>` → the access claim entry the identity may have.
 * @param {string} scope @param {string} who @param {readonly string[]} publicRepositories
 * @returns {{ type: string, name: string, actions: string[] } | undefined}
 */
function granted(scope, who, publicRepositories) {
  const match = /^repository:(.+):([a-z,*]+)$/.exec(scope);
  if (!match) return undefined;
  const [, name = "", wanted = ""] = match;
  const actions = wanted.split(",");
  if (who !== "anonymous") return { type: "repository", name, actions };
  return publicRepositories.includes(name) && actions.includes("pull") ? { type: "repository", name, actions: ["pull"] } : undefined;
}

/** @param {TokenServiceOptions} options @returns {Promise<TokenService>} */
export async function startTokenService(options) {
  const keyFile = join(options.dir, "token-signer.key");
  const certificateFile = join(options.dir, "token-signer.crt");
  // openssl writes the self-signed certificate the registry's x509 verification needs.
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyFile, "-out", certificateFile, "-days", "2", "-subj", "/CN=token-signer"], { stdio: "ignore" });
  const key = createPrivateKey(readFileSync(keyFile));
  const x5c = new X509Certificate(readFileSync(certificateFile)).raw.toString("base64");
  /** @type {TokenRequestRecord[]} */
  const requests = [];

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://token.test");
    const who = whoIsAsking(request.headers.authorization, options.users);
    const scopes = url.searchParams.getAll("scope").flatMap((s) => s.split(" ")).filter((s) => s !== "");
    requests.push({ who, scopes });
    if (url.pathname !== "/token" || url.searchParams.get("service") !== options.service || who === "refused") {
      response.writeHead(who === "refused" ? 401 : 400, { "content-type": "application/json" });
      response.end(JSON.stringify({ errors: [{ code: who === "refused" ? "UNAUTHORIZED" : "BAD_REQUEST" }] }));
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: ISSUER,
      sub: who,
      aud: options.service,
      iat: now,
      nbf: now - 10,
      exp: now + 300,
      jti: randomUUID(),
      access: scopes.map((scope) => granted(scope, who, options.publicRepositories)).filter((a) => a !== undefined),
    };
    const signingInput = `${base64url(JSON.stringify({ alg: "ES256", typ: "JWT", x5c: [x5c] }))}.${base64url(JSON.stringify(claims))}`;
    const signature = sign("sha256", Buffer.from(signingInput), { key, dsaEncoding: "ieee-p1363" });
    const token = `${signingInput}.${base64url(signature)}`;
    response.writeHead(200, { "content-type": "application/json" });
    // Both spellings, as Docker Hub answers; the resolver takes either.
    response.end(JSON.stringify({ token, access_token: token, expires_in: 300, issued_at: new Date(now * 1000).toISOString() }));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    // A name, not an IP literal: crane refuses a realm whose host is a private address literal.
    realm: `http://localhost:${port}/token`,
    issuer: ISSUER,
    certificateFile,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
