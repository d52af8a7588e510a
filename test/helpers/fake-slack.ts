import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One call the app made to the fake Web API: the method and its arguments. */
export interface SlackCall {
  method: string;
  args: Record<string, any>;
}

export interface ThreadMessageFixture {
  ts: string;
  user?: string;
  bot_id?: string;
  text: string;
  thread_ts?: string;
}

/**
 * Slack's Web API on loopback, for the methods Inkwell calls: it records every call, keeps the
 * messages the bot posts (so `conversations.replies` returns them beside the fixtures), and can
 * answer one call of a method with 429 and `Retry-After`, as Slack's rate limits do.
 */
export async function startFakeSlack(options: { botUserId?: string; teamId?: string; socketUrl?: () => string } = {}) {
  const botUserId = options.botUserId ?? "UBOT";
  const teamId = options.teamId ?? "T1";
  const calls: SlackCall[] = [];
  const threads = new Map<string, ThreadMessageFixture[]>();
  const members = new Map<string, string[]>();
  const groups = new Map<string, string[]>();
  const rateLimited = new Map<string, number>();
  let clock = 1_800_000_000;
  const nextTs = () => `${++clock}.000100`;

  const answer = (method: string, args: Record<string, any>): Record<string, unknown> => {
    switch (method) {
      case "auth.test":
        return args.token === "xoxb-refused-000000000" ? { ok: false, error: "invalid_auth" } : { ok: true, user_id: botUserId, team_id: teamId, bot_id: "BBOT", user: "inkwell" };
      case "chat.postMessage": {
        const ts = nextTs();
        const root = args.thread_ts ?? ts;
        const key = `${args.channel}:${root}`;
        threads.set(key, [...(threads.get(key) ?? []), { ts, bot_id: "BBOT", user: botUserId, text: args.text, ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}) }]);
        return { ok: true, channel: args.channel, ts, message: { text: args.text, ts } };
      }
      case "chat.update":
        return { ok: true, channel: args.channel, ts: args.ts };
      case "chat.postEphemeral":
        return { ok: true, message_ts: nextTs() };
      case "chat.getPermalink":
        return { ok: true, channel: args.channel, permalink: `https://acme.slack.com/archives/${args.channel}/p${String(args.message_ts).replace(".", "")}` };
      case "conversations.replies":
        return { ok: true, messages: threads.get(`${args.channel}:${args.ts}`) ?? [], has_more: false };
      case "conversations.members":
        return { ok: true, members: members.get(args.channel) ?? [], response_metadata: { next_cursor: "" } };
      case "usergroups.users.list":
        return { ok: true, users: groups.get(args.usergroup) ?? [] };
      case "users.info":
        return { ok: true, user: { id: args.user, name: args.user.toLowerCase(), real_name: `Person ${args.user}`, profile: { display_name: `person-${args.user.toLowerCase()}` } } };
      case "reactions.add":
        return { ok: true };
      case "apps.connections.open":
        return options.socketUrl ? { ok: true, url: options.socketUrl() } : { ok: false, error: "not_allowed" };
      default:
        return { ok: false, error: "unknown_method" };
    }
  };

  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const method = (req.url ?? "").replace(/^\/api\//, "").split("?")[0] as string;
      let args: Record<string, any>;
      if ((req.headers["content-type"] ?? "").includes("json")) args = JSON.parse(body || "{}");
      else {
        args = Object.fromEntries(new URLSearchParams(body));
        for (const field of ["blocks", "attachments"]) if (typeof args[field] === "string") args[field] = JSON.parse(args[field]);
      }
      const auth = req.headers.authorization;
      if (auth && !args.token) args.token = auth.replace(/^Bearer /, "");
      const left = rateLimited.get(method) ?? 0;
      if (left > 0) {
        rateLimited.set(method, left - 1);
        calls.push({ method: `${method} (429)`, args });
        res.writeHead(429, { "Retry-After": "1", "Content-Type": "application/json" }).end(JSON.stringify({ ok: false, error: "ratelimited" }));
        return;
      }
      calls.push({ method, args });
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(answer(method, args)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    apiUrl: `${url}/api/`,
    botUserId,
    teamId,
    calls,
    callsOf: (method: string) => calls.filter((call) => call.method === method),
    /** Messages of a thread as Slack would list them (the first is the thread's root). */
    setThread(channel: string, rootTs: string, messages: ThreadMessageFixture[]) {
      threads.set(`${channel}:${rootTs}`, messages);
    },
    thread: (channel: string, rootTs: string) => threads.get(`${channel}:${rootTs}`) ?? [],
    setMembers: (channel: string, users: string[]) => members.set(channel, users),
    setGroup: (group: string, users: string[]) => groups.set(group, users),
    rateLimitNext: (method: string, times = 1) => rateLimited.set(method, times),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakeSlack = Awaited<ReturnType<typeof startFakeSlack>>;

/** Slack's request signature (v0) over a body at a time, as Slack signs its requests. */
export function slackSignature(secret: string, timestamp: number, body: string): Record<string, string> {
  return { "X-Slack-Request-Timestamp": String(timestamp), "X-Slack-Signature": `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}` };
}
