import { describe, expect, it } from "vitest";
import { draftTitle } from "../../../../../src/app/forges/gitlab/api.js";

describe("draftTitle", () => {
  it("marks a draft by GitLab's title prefix and takes any of its prefixes off when it is not one", () => {
    expect(draftTitle("Document export", true)).toBe("Draft: Document export");
    expect(draftTitle("Draft: Document export", true)).toBe("Draft: Document export");
    for (const prefix of ["Draft:", "draft: ", "[Draft]", "(Draft) "]) expect(draftTitle(`${prefix}Document export`, false)).toBe("Document export");
  });
});
