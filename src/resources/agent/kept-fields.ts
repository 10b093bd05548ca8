/**
 * A field the program no longer declares is left out of the update, which
 * clears it at a service that replaces the spec. A service that merges
 * updates keeps it instead; then the field is sent once more as null, which
 * such a service reads as "none". Whatever is still kept is reported.
 */
import type { UpdateAgentBody } from "../../client/bodies";
import type { Call } from "../../core/resource-entry";
import { AGENT_FIELDS } from "./fields";
import type { AgentField } from "./fields";
import { reportedValues } from "./manifest";
import type { ServiceAgent } from "./service-agent";

/** The fields `answer` still reports although `body` left them out to clear them. */
function keptIn(answer: ServiceAgent, body: UpdateAgentBody): AgentField[] {
  const reported = reportedValues(answer.deployment?.manifest);
  const sent: Record<string, unknown> = { ...body };
  return AGENT_FIELDS.filter(
    (f) => f.undeclared === "clear" && f.sentTo === "service" && sent[f.name] === undefined && reported[f.name] !== undefined,
  );
}

/** The agent after clearing what the update left out, sending the nulls only to a service that kept something. */
export async function clearKeptFields(name: string, sent: { body: UpdateAgentBody; answer: ServiceAgent }, call: Call): Promise<ServiceAgent> {
  const kept = keptIn(sent.answer, sent.body);
  if (kept.length === 0) return sent.answer;
  const nulls = Object.fromEntries(kept.map((f) => [f.name, null]));
  let answer = sent.answer;
  try {
    answer = await call.client.updateAgent(name, { ...sent.body, ...nulls }, { signal: call.signal, onRetry: call.log.retry });
  } catch {
    // Reported below, with what the service still holds.
  }
  const still = keptIn(answer, sent.body);
  if (still.length > 0) {
    await call.log.warning(
      `agent-hosting: agent "${name}": the service kept ${still.map((f) => f.name).join(", ")} although the program no longer declares it; the next preview shows it again`,
    );
  }
  return answer;
}
