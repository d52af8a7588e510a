import { describe, expect, it } from "vitest";
import { MAX_CONTEXT_CHARS, MAX_CONTEXT_MESSAGES, messagePermalink, readableText, SlackNames, threadContext, type ThreadMessage } from "../../../../src/app/slack/thread-context.js";

/** Names as users.info would give them, without a Web API. */
const names = new SlackNames({ users: { info: async ({ user }: { user: string }) => ({ ok: true, user: { profile: { display_name: `name-${user}` } } }) } } as never);

describe("readableText", () => {
  it("turns Slack's markup into what a reader sees, drops the bot's own mention and hidden content", async () => {
    const text = "<@UBOT> ask <@U1> about <#C9|releases> and <https://example.com/a|the RFC> or <https://example.com/b>, cc <!subteam^S1|@writers> <!here> &lt;b&gt; &amp; \u200Bdone<!-- secret -->";
    expect(await readableText(text, names, "UBOT")).toBe("ask @name-U1 about #releases and the RFC (https://example.com/a) or https://example.com/b, cc @writers @here <b> & done");
  });

  it("is storable: no NUL, a lone surrogate replaced", async () => {
    expect(await readableText("a\u0000b \uD83D", names, null)).toBe("ab \uFFFD");
  });
});

describe("messagePermalink", () => {
  it("is the thread's permalink with the message's ts, keeping its query", () => {
    expect(messagePermalink("https://acme.slack.com/archives/C1/p1700000000000100?thread_ts=1700000000.000100&cid=C1", "1700000000.000200")).toBe(
      "https://acme.slack.com/archives/C1/p1700000000000200?thread_ts=1700000000.000100&cid=C1",
    );
    expect(messagePermalink(null, "1.2")).toBeNull();
  });
});

describe("threadContext", () => {
  const message = (n: number, text = `message ${n}`, user = "U1"): ThreadMessage => ({ ts: `1700000000.${String(n).padStart(6, "0")}`, user, botId: undefined, text });

  it("carries the earlier messages oldest first with author and permalink, leaving out the bot's and later ones", async () => {
    const messages = [message(1), { ...message(2), user: "UBOT", botId: "B1" }, message(3, "hi", "U2"), message(4, "<@UBOT> write it"), message(5)];
    const context = await threadContext(messages, { beforeTs: "1700000000.000004", botUserId: "UBOT", names, threadPermalink: "https://acme.slack.com/archives/C1/p1700000000000001" });
    expect(context).toBe(
      [
        "Earlier messages in the Slack thread this was asked in, oldest first:",
        "<slack-thread>",
        "- name-U1 (https://acme.slack.com/archives/C1/p1700000000000001): message 1",
        "- name-U2 (https://acme.slack.com/archives/C1/p1700000000000003): hi",
        "</slack-thread>",
      ].join("\n"),
    );
    expect(await threadContext([message(1)], { beforeTs: "1700000000.000001", botUserId: "UBOT", names, threadPermalink: null })).toBeNull();
  });

  it("is bounded: the latest messages, each cut, the whole within its limit, saying how many were left out", async () => {
    const many = Array.from({ length: MAX_CONTEXT_MESSAGES + 20 }, (_, i) => message(i + 1, "x".repeat(5_000)));
    const context = (await threadContext(many, { beforeTs: "1700000001.000000", botUserId: null, names, threadPermalink: null })) as string;
    expect(context.length).toBeLessThan(MAX_CONTEXT_CHARS + 500);
    expect(context).toMatch(/^Earlier messages in the Slack thread this was asked in, oldest first \(\d+ older ones left out\):/);
    expect(context).toContain(`${"x".repeat(2_000)}…`);
    expect(context).not.toContain("x".repeat(2_001));
    // The last message before the mention is always there; the oldest are the ones left out.
    expect(context).toContain("name-U1: x");
    const kept = context.split("\n").filter((line) => line.startsWith("- ")).length;
    expect(kept).toBeGreaterThan(0);
    expect(context).toContain(`(${MAX_CONTEXT_MESSAGES + 20 - kept} older ones left out)`);
    expect(context.trimEnd().endsWith("</slack-thread>")).toBe(true);
  });
});
