import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchForm, patternMatches } from "../../../../../src/app/analytics/robots/robots-match.js";
import { PATTERN_FORMS } from "../../../../fixtures/robotstxt-reference.js";
import { rfcEncode } from "../../../../helpers/robots-rfc.js";

describe("matchForm", () => {
  // google/robotstxt's TestMaybeEscapePattern.
  it.each(PATTERN_FORMS)("$pattern is compared as $form", ({ pattern, form }) => {
    expect(matchForm(pattern)).toBe(form);
  });

  it("decodes unreserved characters and keeps reserved ones encoded (RFC 9309 2.2.2, RFC 3986 2.3)", () => {
    expect(matchForm("/foo/bar/%62%61%7A")).toBe("/foo/bar/baz");
    expect(matchForm("/a%2fb%2A%24/ツ?q=%7e%")).toBe("/a%2Fb%2A%24/%E3%83%84?q=~%");
  });

  it("agrees with the RFC brute force's encoding", () => {
    const piece = fc.constantFrom("a", "/", "%", "%6", "%61", "%2f", "%E3", "ツ", "é", "~", "*", "$", "?", "😀");
    fc.assert(fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        expect(matchForm(pieces.join(""))).toBe(rfcEncode(pieces.join("")));
      }), { numRuns: 2_000 });
  });
});

describe("patternMatches", () => {
  it("anchors at the start, * any run, $ the end only as the last character", () => {
    expect(patternMatches("/fish", "/fish.html")).toBe(true);
    expect(patternMatches("/fish", "/catfish")).toBe(false);
    expect(patternMatches("/*.php$", "/a/b.php")).toBe(true);
    expect(patternMatches("/*.php$", "/a/b.php?x")).toBe(false);
    expect(patternMatches("/a$b", "/a$b")).toBe(true);
    expect(patternMatches("", "/anything")).toBe(true);
  });

  it("answers a pattern of many wildcards against a long URL (no backtracking)", () => {
    expect(patternMatches(`/${"*a".repeat(200)}$`, `/${"a".repeat(2_000)}b`)).toBe(false);
    expect(patternMatches(`/${"*a".repeat(200)}$`, `/${"a".repeat(2_000)}`)).toBe(true);
  });
});
