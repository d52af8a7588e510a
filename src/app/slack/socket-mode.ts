import { SocketModeClient } from "@slack/socket-mode";
import type { Logger } from "pino";
import { slackSettings } from "../domain/slack/slack-settings.js";
import type { Db } from "../store/db.js";
import { acceptSlackPayload } from "./receiver.js";
import { slackLogger } from "./slack-api.js";

const KINDS = new Set(["events_api", "interactive", "slash_commands"]);

/**
 * Socket Mode (docs/slack.md, "Receivers"): for a server Slack cannot reach, a WebSocket the server
 * opens to Slack with the app-level token. Each envelope is taken exactly as an HTTP request is
 * (`acceptSlackPayload`: queued as a task in one transaction) and acknowledged with its
 * `envelope_id` only after that commit, so an envelope lost to a restart is sent again by Slack.
 * Each instance keeps its own connection; Slack gives each envelope to one of them.
 */
export class SlackSocket {
  private client: SocketModeClient | null = null;
  private token: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly apiUrl: string,
    private readonly onQueued: () => void,
    private readonly log: Logger,
  ) {}

  /** Connects (in the background), reconnects with a new token, or disconnects, as the saved settings now say. */
  async refresh(): Promise<void> {
    const settings = await slackSettings(this.db);
    const token = settings?.mode === "socket" && settings.appToken ? settings.appToken : null;
    if (token === this.token) return;
    await this.stop();
    if (!token) return;
    const client = new SocketModeClient({ appToken: token, logger: slackLogger(this.log), clientOptions: { slackApiUrl: this.apiUrl } });
    client.on("slack_event", ({ ack, type, body }: { ack: (response?: Record<string, unknown>) => Promise<void>; type: string; body: unknown }) => {
      if (!KINDS.has(type)) return;
      acceptSlackPayload(this.db, type as "events_api" | "interactive" | "slash_commands", body)
        .then(async (accepted) => {
          await ack(accepted.answer);
          if (accepted.queued) this.onQueued();
        })
        // Not acknowledged: Slack sends the envelope again.
        .catch((error: unknown) => this.log.error({ err: error }, "a Slack envelope could not be queued"));
    });
    this.client = client;
    this.token = token;
    // Not awaited: the client keeps trying to connect (and reconnects) on its own; the server starts meanwhile.
    client.start().then(
      () => this.log.info("Slack Socket Mode connected"),
      (error: unknown) => this.log.error({ err: error }, "Slack Socket Mode could not connect (the app-level token needs connections:write)"),
    );
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.token = null;
    if (client) await client.disconnect().catch(() => undefined);
  }
}
