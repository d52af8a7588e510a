import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { decodeJsString, JS_STRING, moduleWithLocalImports } from "../../../../src/action/docs/js-text.js";

describe("a JavaScript string literal's value (ECMA-262 string escapes)", () => {
  it("a backslash before a character with no escape of its own is that character (NonEscapeCharacter): Prettier's `\\_` is `_`", () => {
    expect(decodeJsString("./\\_shared/mouse-button.mdx")).toBe("./_shared/mouse-button.mdx");
    expect(decodeJsString("\\'quoted\\' \\\"too\\\" back\\\\slash")).toBe("'quoted' \"too\" back\\slash");
  });

  it("character escapes, hex and Unicode escapes, \\0, and a line continuation", () => {
    expect(decodeJsString("a\\tb\\nc")).toBe("a\tb\nc");
    expect(decodeJsString("\\x5fshared/\\u0061.md \\u{1F600}")).toBe("_shared/a.md \u{1F600}");
    expect(decodeJsString("nul\\0")).toBe("nul\0");
    expect(decodeJsString("one \\\ntwo")).toBe("one two");
  });

  it("JS_STRING matches a whole literal, an escaped quote inside it included", () => {
    const [match] = "from './it\\'s.mdx';".matchAll(new RegExp(JS_STRING, "g"));
    expect(match?.[2]).toBe("./it\\'s.mdx");
  });
});

describe("a config module with the local modules it imports", () => {
  it("follows ./ imports transitively (TypeScript's .js for .ts, index files), skips packages and missing files", () => {
    const repoRoot = writeRepo({
      ".vitepress/config/index.ts": "import { defineConfig } from 'vitepress'\nimport { shared } from './shared.js'\nimport { en } from \"./en\"\nimport { gone } from './gone'\nexport default defineConfig({ ...shared, locales: { root: en } })\n",
      ".vitepress/config/shared.ts": "import { slugify } from './slug'\nexport const shared = { markdown: { anchor: { slugify } } }\n",
      ".vitepress/config/slug/index.ts": "export const slugify = (s: string) => s\n",
      ".vitepress/config/en.ts": "export const en = { label: 'English' }\n",
    });
    expect(moduleWithLocalImports(repoRoot, ".vitepress/config/index.ts").map((module) => module.file)).toEqual([
      ".vitepress/config/index.ts",
      ".vitepress/config/shared.ts",
      ".vitepress/config/en.ts",
      ".vitepress/config/slug/index.ts",
    ]);
  });
});
