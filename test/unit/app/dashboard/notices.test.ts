import { describe, expect, it } from "vitest";
import { noticeOf } from "../../../../src/app/dashboard/notices.js";

describe("noticeOf", () => {
  it("shows only the fixed texts, never text from the URL", () => {
    expect(noticeOf(new URL("http://x/dashboard/sign-in?notice=signed-out"))).toEqual({ kind: "ok", text: "You are signed out." });
    expect(noticeOf(new URL("http://x/dashboard/projects/p/keys?notice=key-revoked"))?.text).toBe("The key is revoked: requests with it now get 401.");
    expect(noticeOf(new URL("http://x/dashboard?notice=<b>hacked</b>"))).toBeNull();
    expect(noticeOf(new URL("http://x/dashboard"))).toBeNull();
  });

  it("finds nothing under the names every object has", () => {
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]) expect(noticeOf(new URL(`http://x/dashboard?notice=${name}`))).toBeNull();
  });
});
