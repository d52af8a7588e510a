import { describe, expect, it } from "vitest";
import { preserveUntouched } from "../../../../src/action/sandbox/minimal-diff.js";

const changedLines = (before: string, after: string) => {
  const a = before.split("\n");
  const b = after.split("\n");
  return b.filter((line, i) => line !== a[i]).length + Math.max(0, a.length - b.length);
};

describe("an edit touches only what it changes", () => {
  const page = "---\ntitle: 'Install'\ndescription: \"How to install\"\n---\n\n# Install   \n\nRun the installer.\n\nThen restart.\t\n";

  it("a rewrite of one paragraph keeps every other byte: trailing blanks, quoting, frontmatter order", () => {
    const rewritten = "---\ndescription: How to install\ntitle: Install\n---\n\n# Install\n\nRun the installer as root.\n\nThen restart.\n";
    const result = preserveUntouched(page, rewritten);
    expect(result).toBe(page.replace("Run the installer.", "Run the installer as root."));
    expect(changedLines(page, result)).toBe(1);
  });

  it("CRLF files stay CRLF, new lines included", () => {
    const crlf = page.replace(/\n/g, "\r\n");
    const rewritten = "---\ntitle: Install\ndescription: How to install\n---\n\n# Install\n\nRun the installer.\n\nA new line.\n\nThen restart.\n";
    const result = preserveUntouched(crlf, rewritten);
    expect(result).toBe(crlf.replace("Run the installer.\r\n\r\n", "Run the installer.\r\n\r\nA new line.\r\n\r\n"));
    expect(result.replace(/\r\n/g, "")).not.toContain("\n");
  });

  it("a changed frontmatter value is a changed line, and only that line", () => {
    const result = preserveUntouched(page, "---\ntitle: 'Install Acme'\ndescription: \"How to install\"\n---\n\n# Install\n\nRun the installer.\n\nThen restart.\n");
    expect(result).toBe(page.replace("title: 'Install'", "title: 'Install Acme'"));
  });

  it("the file decides whether it ends with a newline", () => {
    expect(preserveUntouched("a\nb\n", "a\nc")).toBe("a\nc\n");
    expect(preserveUntouched("a\nb", "a\nc\n")).toBe("a\nc");
  });

  it("removed lines go, and a new file is written as given", () => {
    expect(preserveUntouched("one\ntwo\nthree\n", "one\nthree\n")).toBe("one\nthree\n");
    expect(preserveUntouched("", "new\r\n")).toBe("new\r\n");
  });
});
