/**
 * The token service a registry behind `auth: token` sends clients to, typed
 * for the tests: scripts/lib/image-registry-token-service.mjs (shared with
 * the bench's registry figure) says what it answers and grants.
 */
import { startTokenService as start } from "../../scripts/lib/image-registry-token-service.mjs";

export interface TokenServiceOptions {
  /** Where the key and certificate are written. */
  dir: string;
  /** The registry's `service` name, the tokens' audience. */
  service: string;
  users: Readonly<Record<string, string>>;
  /** Repositories anonymous clients may pull. */
  publicRepositories: readonly string[];
}

export interface TokenRequestRecord {
  /** The user whose password was right, "anonymous", or "refused". */
  who: string;
  scopes: string[];
}

export interface TokenService {
  realm: string;
  issuer: string;
  /** The certificate the registry trusts (its rootcertbundle). */
  certificateFile: string;
  requests: TokenRequestRecord[];
  close(): Promise<void>;
}

export const startTokenService: (options: TokenServiceOptions) => Promise<TokenService> = start;
