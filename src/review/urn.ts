/** Pulumi URNs: `urn:pulumi:<stack>::<project>::<qualified type>::<name>`. */

export interface ParsedUrn {
  stack: string;
  project: string;
  /** The resource's own type: the last `$`-separated part of the qualified type. */
  type: string;
  name: string;
}

/** Splits a URN; undefined when it is not one. */
export function parseUrn(urn: string): ParsedUrn | undefined {
  const prefix = "urn:pulumi:";
  if (!urn.startsWith(prefix)) return undefined;
  const parts = urn.slice(prefix.length).split("::");
  if (parts.length < 4) return undefined;
  const [stack, project, qualifiedType] = parts as [string, string, string];
  // A name may itself contain "::"; everything after the type is the name.
  const name = parts.slice(3).join("::");
  const type = qualifiedType.split("$").pop() ?? qualifiedType;
  return { stack, project, type, name };
}
