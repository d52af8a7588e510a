import type { WebClient } from "@slack/web-api";
import { allSlackChannels, mappingsOfChannel, type SlackChannel } from "../domain/slack/slack-channels.js";
import type { Db } from "../store/db.js";

// Who may start and steer a project's jobs from Slack (docs/slack.md, "Who may ask"): the members
// of a channel mapped to it, narrowed by the mapping's user groups when it lists any. Buttons
// (approve, stop) follow the same rule, as the API's key scopes do for its callers.

/** Answers whether a user may use a mapping, asking Slack at most once per group and channel per task run. */
export class SlackAccess {
  private readonly groups = new Map<string, Promise<Set<string>>>();
  private readonly members = new Map<string, Promise<boolean>>();
  constructor(private readonly client: WebClient) {}

  /** `where`: the channel the user is asking in (being there makes them its member). */
  async mayUse(mapping: SlackChannel, userId: string, where: string): Promise<boolean> {
    if (mapping.userGroups.length > 0) {
      for (const group of mapping.userGroups) if ((await this.groupMembers(group)).has(userId)) return true;
      return false;
    }
    return mapping.channelId === where || (await this.isMember(mapping.channelId, userId));
  }

  private groupMembers(group: string): Promise<Set<string>> {
    let members = this.groups.get(group);
    if (!members) {
      members = this.client.usergroups.users.list({ usergroup: group }).then((answer) => new Set(answer.users ?? []));
      this.groups.set(group, members);
    }
    return members;
  }

  private isMember(channel: string, userId: string): Promise<boolean> {
    const key = `${channel}:${userId}`;
    let member = this.members.get(key);
    if (!member) {
      member = (async () => {
        let cursor: string | undefined;
        // A channel's members, a thousand a page, up to ten pages.
        for (let page = 0; page < 10; page++) {
          const answer = await this.client.conversations.members({ channel, limit: 1000, ...(cursor ? { cursor } : {}) });
          if ((answer.members ?? []).includes(userId)) return true;
          cursor = answer.response_metadata?.next_cursor || undefined;
          if (!cursor) return false;
        }
        return false;
      })().catch(() => false);
      this.members.set(key, member);
    }
    return member;
  }
}

export interface ProjectChoice {
  /** The channel's own mappings (none: an unmapped channel or a direct message). */
  mapped: SlackChannel[];
  /** The mappings the user may use from here, one per project. */
  allowed: SlackChannel[];
}

/**
 * The projects a user may start a job on from a channel: the channel's own mappings they pass; in
 * an unmapped channel or a direct message, every mapped channel's project they pass (a member of
 * that channel, or of its user groups).
 */
export async function projectsFor(db: Db, access: SlackAccess, channelId: string, userId: string): Promise<ProjectChoice> {
  const mapped = await mappingsOfChannel(db, channelId);
  const candidates = mapped.length > 0 ? mapped : await allSlackChannels(db);
  const allowed: SlackChannel[] = [];
  for (const mapping of candidates) {
    if (allowed.some((other) => other.projectId === mapping.projectId)) continue;
    if (await access.mayUse(mapping, userId, channelId)) allowed.push(mapping);
  }
  return { mapped, allowed };
}

/** The mapping that lets a user steer a job of `projectId` from `channelId`, or null (refused). */
export async function mappingToSteer(db: Db, access: SlackAccess, projectId: string, channelId: string, userId: string): Promise<SlackChannel | null> {
  const mapped = (await mappingsOfChannel(db, channelId)).filter((mapping) => mapping.projectId === projectId);
  const candidates = mapped.length > 0 ? mapped : (await allSlackChannels(db)).filter((mapping) => mapping.projectId === projectId);
  for (const mapping of candidates) if (await access.mayUse(mapping, userId, channelId)) return mapping;
  return null;
}
