/**
 * A field the program no longer declares is left out of the update, which
 * clears it at a service that replaces the spec. A service that merges
 * updates keeps it instead; then the field is sent once more as null, which
 * such a service reads as "none". Whatever is still kept is reported.
 */
import type { AgentHostingClient } from "../client/client";
import { AGENT_FIELDS, reportedValues, type AgentField, type ServiceAgent } from "../model";
import type { Props, VerbContext } from "./context";

type UpdateBody = Parameters<AgentHostingClient["updateAgent"]>[1];

/** The fields `answer` still reports although `body` left them out to clear them. */
function keptIn(answer: ServiceAgent, body: Props): AgentField[] {
  const reported = reportedValues(answer);
  return (AGENT_FIELDS as readonly AgentField[]).filter(
    (f) => f.undeclared === "clear" && f.sentTo === "service" && body[f.name] === undefined && reported[f.name] !== undefined,
  );
}

/** The agent after clearing what the update left out, sending the nulls only to a service that kept something. */
export async function clearKeptFields(name: string, sent: { body: Props; answer: ServiceAgent }, context: VerbContext): Promise<ServiceAgent> {
  const kept = keptIn(sent.answer, sent.body);
  if (kept.length === 0) return sent.answer;
  const nulls = Object.fromEntries(kept.map((f) => [f.name, null]));
  let answer = sent.answer;
  try {
    answer = await context.client.updateAgent(name, { ...sent.body, ...nulls } as unknown as UpdateBody, { signal: context.signal });
  } catch {
    // Reported below, with what the service still holds.
  }
  const still = keptIn(answer, sent.body);
  if (still.length > 0) {
    await context.log.warning(
      `agent-hosting: agent "${name}": the service kept ${still.map((f) => f.name).join(", ")} although the program no longer declares it; the next preview shows it again`,
    );
  }
  return answer;
}
