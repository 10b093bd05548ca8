/** Delete: DELETE /agents/{name}; an agent already gone counts as deleted. */
import { NotFoundError } from "../client/errors";
import type { VerbContext } from "./context";

export async function deleteVerb(id: string, context: VerbContext): Promise<void> {
  try {
    await context.client.deleteAgent(id, { signal: context.signal });
  } catch (error) {
    if (error instanceof NotFoundError) return;
    throw error;
  }
}
