/** The project and stack a document is about: given on the command line, or read from its URNs. */
import { parseUrn } from "./urn";

export interface StackIdentity {
  project: string;
  stack: string;
}

/** What a comment names when neither the command line nor the document says. */
export const UNKNOWN_NAME = "unknown";

export function stackIdentity(steps: readonly { urn: string }[], given: Partial<StackIdentity> = {}): StackIdentity {
  const first = steps.map((step) => parseUrn(step.urn)).find((urn) => urn !== undefined);
  return { project: given.project ?? first?.project ?? UNKNOWN_NAME, stack: given.stack ?? first?.stack ?? UNKNOWN_NAME };
}
