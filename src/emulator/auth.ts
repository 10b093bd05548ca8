/** `Authorization: Bearer <key>`, compared in constant time. */
import { timingSafeEqual } from "node:crypto";

export function bearerKeyMatches(header: string | undefined, apiKey: string): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1] as string);
  const expected = Buffer.from(apiKey);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
