/**
 * Resolves images to digests, one registry exchange per distinct reference
 * for the resolver's whole life (a run: one preview or up): every caller
 * asking for the same reference (`nginx`, `docker.io/library/nginx:latest`)
 * while it is in flight or after it settled gets the same answer, a digest or
 * the same error. A digest-form image is answered without any request. Each
 * call may pass an AbortSignal: an aborted call rejects at once with the
 * signal's reason, and the request itself is aborted (and forgotten, so a
 * later call asks again) when every caller waiting on it has aborted.
 */
import type { Dispatcher } from "undici";
import { Agent } from "../client/undici-agent";
import { canonicalName, parseImageReference } from "./oci-reference";
import type { ImageReference } from "./oci-reference";
import { fetchManifestDigest } from "./manifest-digest";
import type { ManifestSettings } from "./manifest-digest";
import { RegistryCredentials } from "./registry-credentials";
import type { CredentialOptions } from "./registry-credentials";
import type { InsecureHttpAllowance } from "./registry-http";
import { pinImage } from "./reference-parts";

export interface ImageDigestResolverOptions extends CredentialOptions {
  /** Plain http beyond loopback registries: `true` for all, or the registries (host[:port]) allowed. Default false. */
  allowInsecureHttp?: InsecureHttpAllowance;
  /** Time limit of each request's answer and body, in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /** The undici dispatcher to send with; default an Agent of the resolver's own, closed by close(). */
  dispatcher?: Dispatcher;
}

export interface ResolvedImage {
  /** The image as the caller wrote it. */
  image: string;
  /** The digest the image's tag names now (`sha256:…`), or the digest it names itself. */
  digest: string;
  /** What to send to the service: the image's name as written, `@`, the digest; a digest-form image as written. */
  pinnedImage: string;
  reference: ImageReference;
  /** Whether the digest came from the registry (false for a digest-form image). */
  fromRegistry: boolean;
}

interface InFlight {
  digest: Promise<string>;
  controller: AbortController;
  /** Callers still waiting with a signal; callers without one keep the request alive. */
  abortableWaiters: number;
  keptAlive: boolean;
  settled: boolean;
}

export class ImageDigestResolver {
  private readonly settings: ManifestSettings;
  private readonly ownsDispatcher: boolean;
  private readonly inFlight = new Map<string, InFlight>();

  constructor(options: ImageDigestResolverOptions = {}) {
    this.ownsDispatcher = options.dispatcher === undefined;
    this.settings = {
      dispatcher: options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 8 }),
      credentials: new RegistryCredentials(options),
      allowInsecureHttp: options.allowInsecureHttp ?? false,
      timeoutMs: options.timeoutMs ?? 30_000,
    };
  }

  /** The digest `image` names; rejects with an ImageRegistryError (or the signal's reason). */
  async resolve(image: string, signal?: AbortSignal): Promise<ResolvedImage> {
    signal?.throwIfAborted();
    const reference = parseImageReference(image);
    if (reference.digest !== undefined) return { image, digest: reference.digest, pinnedImage: image, reference, fromRegistry: false };
    const digest = await this.wait(this.entryFor(reference), canonicalName(reference), signal);
    return { image, digest, pinnedImage: pinImage(image, digest), reference, fromRegistry: true };
  }

  /** Closes the resolver's own connections (not a dispatcher the caller gave). */
  async close(): Promise<void> {
    for (const entry of this.inFlight.values()) if (!entry.settled) entry.controller.abort(new Error("the image digest resolver was closed"));
    this.inFlight.clear();
    if (this.ownsDispatcher) await this.settings.dispatcher.close();
  }

  private entryFor(reference: ImageReference): InFlight {
    const key = canonicalName(reference);
    const known = this.inFlight.get(key);
    if (known) return known;
    const controller = new AbortController();
    const entry: InFlight = { digest: fetchManifestDigest(reference, this.settings, controller.signal), controller, abortableWaiters: 0, keptAlive: false, settled: false };
    const settle = () => {
      entry.settled = true;
    };
    // The rejection is each waiter's to see; this handler only marks the entry settled.
    entry.digest.then(settle, settle);
    this.inFlight.set(key, entry);
    return entry;
  }

  private wait(entry: InFlight, key: string, signal: AbortSignal | undefined): Promise<string> {
    if (signal === undefined) {
      entry.keptAlive = true;
      return entry.digest;
    }
    entry.abortableWaiters += 1;
    let waiting = true;
    const leave = () => {
      if (waiting) entry.abortableWaiters -= 1;
      waiting = false;
    };
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        leave();
        if (entry.abortableWaiters === 0 && !entry.keptAlive && !entry.settled) {
          entry.controller.abort(signal.reason);
          if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
        }
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      entry.digest.then(
        (digest) => {
          signal.removeEventListener("abort", onAbort);
          leave();
          resolve(digest);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          leave();
          reject(error);
        },
      );
    });
  }
}
