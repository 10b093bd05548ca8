/** Delete: DELETE /agents/{name}; an agent already gone counts as deleted. */
import { NotFoundError } from "../../client/errors";
import type { DeleteRequest } from "../../core/resource-entry";

export async function deleteVerb({ id, service, signal, log }: DeleteRequest): Promise<void> {
  try {
    await (await service.client()).deleteAgent(id, { signal, onRetry: log.retry });
  } catch (error) {
    if (error instanceof NotFoundError) return;
    throw error;
  }
}
