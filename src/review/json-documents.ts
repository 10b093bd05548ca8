/**
 * The JSON documents of a text that holds several one after another, as
 * `pulumi up --json` prints them: the preview's digest, then one engine event
 * per line.
 */
export function jsonDocuments(text: string): unknown[] {
  const documents: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") {
      if (depth === 0) start = i;
      depth++;
    } else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0 && start !== -1) {
        documents.push(JSON.parse(text.slice(start, i + 1)));
        start = -1;
      }
    } else if (depth === 0 && c !== undefined && !/\s/.test(c)) {
      throw new SyntaxError(`unexpected ${JSON.stringify(c)} at position ${i} between JSON documents`);
    }
  }
  if (depth !== 0) throw new SyntaxError("the last JSON document is cut off");
  return documents;
}
