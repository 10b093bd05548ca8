/**
 * getImageDigest: the digest an image's tag names now, asked of its registry
 * from the program's own process, with the stack's settings (the docker
 * config file, agent-hosting:registryAuth, agent-hosting:allowInsecureHttp)
 * as the providers' pinning reads them (src/image-registry/run-lookup.ts).
 * The answers are kept for the process's life: one registry request per
 * image however often a program asks. The registry connections are closed
 * whenever no call is in flight, so they never keep the program running.
 */
import * as pulumi from "@pulumi/pulumi";
import { imageDigestLookup } from "../image-registry/run-lookup";
import { programImageDigestsStandIn } from "../core/program-client-stand-in";
import type { ConfigSource } from "../core/settings";
import { outputCall } from "./output-call";
import type { OutputCallOptions } from "./output-call";
import { programCallError } from "./program-call-error";

import type { GetImageDigestArgs, GetImageDigestOutputArgs, GetImageDigestResult } from "./function-types";

export type { GetImageDigestArgs, GetImageDigestOutputArgs, GetImageDigestResult } from "./function-types";

const answers = new Map<string, Promise<GetImageDigestResult>>();
let lookup: ReturnType<typeof imageDigestLookup> | undefined;
let inFlight = 0;

async function resolveOnce(image: string): Promise<GetImageDigestResult> {
  const config: ConfigSource = { get: (key) => pulumi.runtime.getConfig(key) };
  const digests = (lookup ??= imageDigestLookup(config, process.env));
  inFlight++;
  try {
    const resolved = await digests.resolve(image);
    return { image, digest: resolved.digest, pinnedImage: resolved.pinnedImage };
  } finally {
    inFlight--;
    if (inFlight === 0 && lookup === digests) {
      lookup = undefined;
      await digests.close();
    }
  }
}

export async function getImageDigest(args: GetImageDigestArgs): Promise<GetImageDigestResult> {
  const { image } = args;
  // Under the package's unit-test mocks (src/testing), their digests answer instead of a registry.
  const mocked = programImageDigestsStandIn();
  if (mocked !== undefined) {
    const { digest, pinnedImage } = await mocked.resolve(image);
    return { image, digest, pinnedImage };
  }
  let answer = answers.get(image);
  if (answer === undefined) {
    answer = resolveOnce(image);
    answers.set(image, answer);
    // A failure is not kept: the next call asks the registry again.
    answer.catch(() => answers.delete(image));
  }
  try {
    return await answer;
  } catch (error) {
    throw programCallError(`getImageDigest("${image}")`, error, "", "");
  }
}

/** getImageDigest with `pulumi.Input` arguments; unknown in a preview while a resource its image comes from is being created. */
export function getImageDigestOutput(args: GetImageDigestOutputArgs, opts?: OutputCallOptions): pulumi.Output<GetImageDigestResult> {
  return outputCall(args, (resolved) => getImageDigest({ image: resolved.image }), opts);
}
