/** The plugin bundle's legal comments are kept, spelled in ASCII (scripts/lib/release/plugin-package.mjs). */
import { describe, expect, it } from "vitest";
import { asciiLegalComments } from "../../scripts/lib/release/plugin-package.mjs";

const ascii = asciiLegalComments;

describe("asciiLegalComments", () => {
  it("escapes non-ASCII characters inside /*! */ comments only", () => {
    const text = 'const a = "\\u00e4";\n/*! polyfill. MIT License. Jimmy W\u00e4rting */\nconst b = 1;';
    expect(ascii(text)).toBe('const a = "\\u00e4";\n/*! polyfill. MIT License. Jimmy W\\u00e4rting */\nconst b = 1;');
    expect(ascii("/* plain \u00fc */")).toBe("/* plain \u00fc */");
  });
});
