import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendJsonValue, setJsonValue } from "../../../../src/action/docs/json-edits.js";

describe("minimal JSON edits", () => {
  it("appends to a multi-line list in the file's own indentation and line ends, and to an inline list inline", () => {
    const crlf = `{\r\n\t"redirects": [\r\n\t\t{ "source": "/a", "destination": "/b" }\r\n\t]\r\n}\r\n`;
    expect(appendJsonValue(crlf, ["redirects"], { source: "/c", destination: "/d" })).toBe(
      `{\r\n\t"redirects": [\r\n\t\t{ "source": "/a", "destination": "/b" },\r\n\t\t{\r\n\t\t\t"source": "/c",\r\n\t\t\t"destination": "/d"\r\n\t\t}\r\n\t]\r\n}\r\n`,
    );
    expect(appendJsonValue(`{"pages": ["a", "b"]}`, ["pages"], "c")).toBe(`{"pages": ["a", "b", "c"]}`);
    expect(appendJsonValue(`{\n  "redirects": []\n}\n`, ["redirects"], { source: "/a", destination: "/b" })).toBe(`{\n  "redirects": [\n    {\n      "source": "/a",\n      "destination": "/b"\n    }\n  ]\n}\n`);
  });

  it("replaces a value in its own bytes, keeps comments, and refuses a path whose parent is missing", () => {
    const jsonc = `{\n  // the site's pages\n  "pages": [ "a",   "b" ] /* kept */\n}\n`;
    expect(setJsonValue(jsonc, ["pages", 1], "c")).toBe(`{\n  // the site's pages\n  "pages": [ "a",   "c" ] /* kept */\n}\n`);
    expect(() => setJsonValue(`{"a": 1}`, ["b", "c"], 1)).toThrow(/parent is not an object/);
  });

  it("changes nothing but the inserted member: the text before and after it is the original's, and the result parses to the intended value", () => {
    const value = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(fc.array(value, { maxLength: 5 }), value, fc.constantFrom("  ", "    ", "\t"), fc.boolean(), (items, added, unit, multiline) => {
        const text = multiline ? `{\n${unit}"list": ${JSON.stringify(items, null, unit).split("\n").join(`\n${unit}`)},\n${unit}"other": true\n}\n` : `{"list": ${JSON.stringify(items)}, "other": true}`;
        const edited = appendJsonValue(text, ["list"], added);
        expect(JSON.parse(edited)).toEqual({ list: [...items, added].map((item) => JSON.parse(JSON.stringify(item))), other: true });
        const close = text.indexOf(`,${multiline ? "\n" : " "}${multiline ? unit : ""}"other"`);
        const listEnd = text.lastIndexOf("]", close);
        expect(edited.endsWith(text.slice(listEnd))).toBe(true);
      }),
    );
  });
});
