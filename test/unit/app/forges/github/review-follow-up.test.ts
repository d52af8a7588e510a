import { describe, expect, it } from "vitest";
import { MAX_PROMPT_CHARS } from "../../../../../src/shared/api-schemas.js";
import type { ReviewComment } from "../../../../../src/app/forges/github/api.js";
import { reviewParts, reviewPrompt } from "../../../../../src/app/forges/github/review-follow-up.js";

const comment = (id: number, body: string, path = "docs/a.mdx", line: number | null = 10): ReviewComment => ({
  id,
  body,
  path,
  line,
  diffHunk: `@@ -1,3 +1,3 @@\n-old ${id}\n+new ${id}`,
});
const parts = (body: string, comments: ReviewComment[], taken: number[] = []) => reviewParts(body, comments, new Set(taken), "inkwell-docs", "/inkwell");

describe("what a submitted review asks of the agent", () => {
  it("a review addressed to the agent carries all its inline comments, in order", () => {
    const got = parts("@inkwell-docs please fix these", [comment(1, "typo here"), comment(2, "use sentence case", "docs/b.mdx", 4)]);
    expect(got.body).toBe("please fix these");
    expect(got.comments.map((c) => [c.comment.id, c.instruction])).toEqual([
      [1, "typo here"],
      [2, "use sentence case"],
    ]);
  });

  it("a review that does not address the agent carries only the comments that do", () => {
    const got = parts("Looks mostly fine", [comment(1, "nit for the author"), comment(2, "/inkwell link the API page"), comment(3, "@inkwell-docs drop this line")]);
    expect(got.body).toBeNull();
    expect(got.comments.map((c) => [c.comment.id, c.instruction])).toEqual([
      [2, "link the API page"],
      [3, "drop this line"],
    ]);
    expect(parts("LGTM", [comment(1, "nice")])).toEqual({ body: null, comments: [] });
  });

  it("leaves out comments already taken on their own, and empty ones", () => {
    const got = parts("@inkwell-docs go", [comment(1, "/inkwell first"), comment(2, "second"), comment(3, "   ")], [1]);
    expect(got.comments.map((c) => c.comment.id)).toEqual([2]);
  });
});

describe("the one message a review becomes", () => {
  it("names the reviewer, then each comment with its file, line and hunk", () => {
    const prompt = reviewPrompt("bob", parts("@inkwell-docs please fix these", [comment(1, "typo here"), comment(2, "too long", "docs/b.mdx", null)]));
    expect(prompt).toBe(
      [
        "Review by @bob:\nplease fix these",
        "Review comment on `docs/a.mdx` line 10:\n```diff\n@@ -1,3 +1,3 @@\n-old 1\n+new 1\n```\ntypo here",
        "Review comment on `docs/b.mdx` (a line this branch has since changed):\n```diff\n@@ -1,3 +1,3 @@\n-old 2\n+new 2\n```\ntoo long",
      ].join("\n\n"),
    );
  });

  it("shortens the hunks of a long review until it fits one prompt, and gives up only when the words alone do not", () => {
    const longHunk = Array.from({ length: 40 }, (_, i) => `+${"x".repeat(90)} ${i}`).join("\n");
    const many = Array.from({ length: 12 }, (_, i) => ({ ...comment(i, `fix ${i}`), diffHunk: longHunk }));
    const prompt = reviewPrompt("bob", parts("@inkwell-docs all of these", many));
    expect(prompt).not.toBeNull();
    expect(prompt!.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS);
    expect(prompt!.match(/^Review comment on/gm)).toHaveLength(12);
    const huge = [comment(1, "y".repeat(MAX_PROMPT_CHARS))];
    expect(reviewPrompt("bob", parts("@inkwell-docs this", huge))).toBeNull();
  });
});
