/** Delete: DELETE /agents/{name}, within the engine's customTimeouts.delete when given; an agent already gone counts as deleted. */
import { NotFoundError } from "../../client/errors";
import { signalWithin } from "../../core/engine-limit";
import type { DeleteRequest } from "../../core/resource-entry";

export async function deleteVerb(request: DeleteRequest): Promise<void> {
  const { id, service, log } = request;
  const deadline = request.timeoutMs === undefined ? undefined : Date.now() + request.timeoutMs;
  try {
    await (await service.client()).deleteAgent(id, { signal: signalWithin(request, deadline, "delete"), onRetry: log.retry });
  } catch (error) {
    if (error instanceof NotFoundError) return;
    throw error;
  }
}
