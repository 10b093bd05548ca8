/** getSecretSet: the field names of a secret set (values are never returned). */
import * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../client/errors";
import { outputCall } from "./output-call";
import type { OutputCallOptions } from "./output-call";
import { withProgramClient } from "./program-client";

import type { GetSecretSetArgs, GetSecretSetOutputArgs, GetSecretSetResult } from "./function-types";

export type { GetSecretSetArgs, GetSecretSetOutputArgs, GetSecretSetResult } from "./function-types";

export async function getSecretSet(args: GetSecretSetArgs): Promise<GetSecretSetResult> {
  return withProgramClient(`getSecretSet("${args.name}")`, async (client) => {
    try {
      const set = await client.getSecretSet(args.name);
      return { name: args.name, fieldNames: set.secrets.map((s) => s.fieldName) };
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new NotFoundError({
          status: error.status,
          code: error.code,
          message: `secret set "${args.name}" does not exist`,
          method: error.method,
          path: error.path,
        });
      }
      throw error;
    }
  });
}

/** getSecretSet with `pulumi.Input` arguments; unknown in a preview while a resource its name comes from is being created. */
export function getSecretSetOutput(args: GetSecretSetOutputArgs, opts?: OutputCallOptions): pulumi.Output<GetSecretSetResult> {
  return outputCall(args, (resolved) => getSecretSet({ name: resolved.name }), opts);
}
