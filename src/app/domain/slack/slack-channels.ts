import type { Queryable } from "../../store/db.js";
import { lockProject } from "../projects.js";

// Slack channels mapped to projects (docs/slack.md, "Channels"): a mention in a mapped channel
// works on its project; who may ask is the channel's members, narrowed by user groups.

export interface SlackChannel {
  projectId: string;
  channelId: string;
  /** Slack user group ids; empty: every member of the channel may start and steer jobs. */
  userGroups: string[];
  /** Any reply in a job's thread is a follow-up, not only one that mentions the bot. */
  anyReply: boolean;
  createdAt: string;
}

interface ChannelRow {
  project_id: string;
  channel_id: string;
  user_groups: string;
  any_reply: boolean;
  created_at: Date | string;
}

const toChannel = (row: ChannelRow): SlackChannel => ({
  projectId: row.project_id,
  channelId: row.channel_id,
  userGroups: row.user_groups.split(",").filter(Boolean),
  anyReply: row.any_reply,
  createdAt: new Date(row.created_at).toISOString(),
});

const COLUMNS = "project_id, channel_id, user_groups, any_reply, created_at";

/** A project's channels, in the order they were added. */
export async function projectSlackChannels(db: Queryable, projectId: string): Promise<SlackChannel[]> {
  const rows = await db.query<ChannelRow>(`SELECT ${COLUMNS} FROM slack_channels WHERE project_id = $1 ORDER BY created_at, channel_id`, [projectId]);
  return rows.map(toChannel);
}

/** The projects a channel is mapped to (none: an unmapped channel), each with its rules. */
export async function mappingsOfChannel(db: Queryable, channelId: string): Promise<SlackChannel[]> {
  const rows = await db.query<ChannelRow>(`SELECT ${COLUMNS} FROM slack_channels WHERE channel_id = $1 ORDER BY created_at, project_id`, [channelId]);
  return rows.map(toChannel);
}

/** Every mapping: where a direct message or an unmapped channel may choose a project from. */
export async function allSlackChannels(db: Queryable): Promise<SlackChannel[]> {
  const rows = await db.query<ChannelRow>(`SELECT ${COLUMNS} FROM slack_channels ORDER BY project_id, created_at`);
  return rows.map(toChannel);
}

export interface SlackChannelChange {
  channelId: string;
  userGroups: string[];
  anyReply: boolean;
}

/** Maps a channel to the project, or changes its rules (NotFoundError for an unknown project). */
export async function putSlackChannel(tx: Queryable, projectId: string, change: SlackChannelChange): Promise<SlackChannel> {
  await lockProject(tx, projectId);
  const rows = await tx.query<ChannelRow>(
    `INSERT INTO slack_channels (project_id, channel_id, user_groups, any_reply) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, channel_id) DO UPDATE SET user_groups = EXCLUDED.user_groups, any_reply = EXCLUDED.any_reply
     RETURNING ${COLUMNS}`,
    [projectId, change.channelId, change.userGroups.join(","), change.anyReply],
  );
  return toChannel(rows[0] as ChannelRow);
}

/** Unmaps a channel from the project; false when it was not mapped. */
export async function deleteSlackChannel(tx: Queryable, projectId: string, channelId: string): Promise<boolean> {
  const deleted = await tx.query(`DELETE FROM slack_channels WHERE project_id = $1 AND channel_id = $2 RETURNING channel_id`, [projectId, channelId]);
  return deleted.length > 0;
}
