/** Reads a request body up to a cap; a larger body is read to its end and discarded. */
import type { IncomingMessage } from "node:http";

export const MAX_BODY_BYTES = 1024 * 1024;

/** The body as UTF-8, or undefined when it is larger than `max` bytes. */
export function readBody(req: IncomingMessage, max = MAX_BODY_BYTES): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on("end", () => resolve(size > max ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
