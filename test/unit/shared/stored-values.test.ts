import { describe, expect, it } from "vitest";
import { INT32_MAX, isStorableText, storedInt, storedText } from "../../../src/shared/stored-values.js";

describe("isStorableText", () => {
  it.each(["", "plain", "emoji 😀 pairs", "RTL ‏שלום‎", "zero\u200bwidth", "\uD83D\uDE00"])("accepts %j", (value) => {
    expect(isStorableText(value)).toBe(true);
  });

  it.each(["a\u0000b", "\u0000", "lone high \uD800", "lone low \uDC00 here", "\uDE00\uD83D", "ok 😀 then \uDBFF"])("refuses %j", (value) => {
    expect(isStorableText(value)).toBe(false);
  });
});

describe("storedText", () => {
  it("trims when asked, then counts code points, not UTF-16 units", () => {
    const schema = storedText(3, { trim: true, min: 1 });
    expect(schema.parse("  😀😀😀  ")).toBe("😀😀😀");
    expect(schema.safeParse("😀😀😀😀").error?.issues[0]?.message).toBe("must be at most 3 characters");
    expect(schema.safeParse("   ").error?.issues[0]?.message).toBe("must not be empty");
  });

  it("names what the store cannot hold", () => {
    expect(storedText(100).safeParse("x\u0000").error?.issues.map((i) => i.message)).toEqual(["must not contain NUL (U+0000) or unpaired surrogate characters"]);
  });

  it("says its bounds in the JSON Schema it publishes", () => {
    expect(storedText(300, { min: 1 }).meta()).toMatchObject({ maxLength: 300, minLength: 1 });
  });
});

describe("storedInt", () => {
  it("fits a PostgreSQL integer column", () => {
    expect(storedInt(1).safeParse(INT32_MAX).success).toBe(true);
    expect(storedInt(1).safeParse(INT32_MAX + 1).success).toBe(false);
    expect(storedInt(1).safeParse(0).success).toBe(false);
    expect(storedInt(1).safeParse(1.5).success).toBe(false);
  });
});
