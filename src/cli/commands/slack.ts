import type { SLACK_MODES } from "../../shared/slack-schemas.js";
import { enc, need, print, projectOf } from "../command-context.js";
import { CliError } from "../errors.js";
import { table } from "../format.js";
import type { NounRuns } from "./command-usage.js";

interface SlackSettingsView {
  configured: boolean;
  mode: (typeof SLACK_MODES)[number] | null;
  botUserId: string | null;
  teamId: string | null;
  socketMode: boolean;
  requestUrl: string | null;
}
interface SlackChannelView {
  channelId: string;
  userGroups: string[];
  anyReply: boolean;
  createdAt: string;
}

/** The Slack app and a project's channels (docs/slack.md); the tokens are saved on the dashboard or with PUT /admin/slack. */
export const slack: NounRuns<"slack"> = {
  async status(ctx) {
    const settings = await ctx.client.request<SlackSettingsView>("GET", "/admin/slack", ctx.operator);
    print(ctx, settings, () =>
      settings.configured
        ? `Slack app: bot ${settings.botUserId} in ${settings.teamId}, ${settings.mode === "socket" ? "Socket Mode" : `Events API at ${settings.requestUrl ?? "PUBLIC_URL/api/slack/events"}`}.`
        : "No Slack app yet: create one from `inkwell slack manifest`, then save its tokens on the dashboard's Slack page.",
    );
  },

  async manifest(ctx) {
    const mode = ctx.values.mode ?? "http";
    if (mode !== "http" && mode !== "socket") throw new CliError("--mode must be http or socket", 2);
    const manifest = await ctx.client.request<Record<string, unknown>>("GET", `/admin/slack/manifest?mode=${mode}`, ctx.operator);
    print(ctx, manifest, () => JSON.stringify(manifest, null, 2));
  },

  async channels(ctx) {
    const projectId = projectOf(ctx);
    const { channels } = await ctx.client.request<{ channels: SlackChannelView[] }>("GET", `/admin/projects/${enc(projectId)}/slack/channels`, ctx.operator);
    print(ctx, channels, () =>
      channels.length === 0
        ? `No Slack channels. Map one: inkwell slack map --project ${projectId} <channelId>`
        : table(["CHANNEL", "USER GROUPS", "ANY REPLY", "ADDED"], channels.map((c) => [c.channelId, c.userGroups.join(",") || "(channel members)", c.anyReply ? "yes" : "no", c.createdAt])),
    );
  },

  async map(ctx) {
    const projectId = projectOf(ctx);
    const channelId = need(ctx.args[0], "channel id");
    const body = { userGroups: ctx.values.group ?? [], anyReply: ctx.values["any-reply"] === true };
    const mapped = await ctx.client.request<SlackChannelView>("PUT", `/admin/projects/${enc(projectId)}/slack/channels/${enc(channelId)}`, ctx.operator, { body });
    print(ctx, mapped, () => `Mapped ${mapped.channelId} to ${projectId}: ${mapped.userGroups.length > 0 ? `members of ${mapped.userGroups.join(", ")}` : "every member of the channel"} may ask${mapped.anyReply ? "; any reply in a job's thread is a follow-up" : ""}.`);
  },

  async unmap(ctx) {
    const projectId = projectOf(ctx);
    const channelId = need(ctx.args[0], "channel id");
    await ctx.client.request<unknown>("DELETE", `/admin/projects/${enc(projectId)}/slack/channels/${enc(channelId)}`, ctx.operator);
    print(ctx, { unmapped: channelId }, () => `Unmapped ${channelId}: mentions there no longer start jobs on ${projectId}.`);
  },
};
