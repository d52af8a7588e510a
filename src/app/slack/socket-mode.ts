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
 * Each instance keeps its own connection; Slack gives each envelope to one of them. Every instance
 * looks at the saved settings every few seconds, so a change made anywhere (the API, the dashboard,
 * another instance) reconnects them all.
 */
export class SlackSocket {
  private client: SocketModeClient | null = null;
  private token: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly apiUrl: string,
    private readonly onQueued: () => void,
    private readonly log: Logger,
  ) {}

  /** Connects as the settings say, and keeps following them. */
  async start(everyMs = 10_000): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.log.warn({ err: error }, "could not read the Slack settings"));
    }, everyMs);
    this.timer.unref();
  }

  /** Connects (in the background), reconnects with a new token, or disconnects, as the saved settings now say; one at a time. */
  refresh(): Promise<void> {
    const next = this.queue.then(() => this.follow());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async follow(): Promise<void> {
    const settings = await slackSettings(this.db);
    const token = settings?.mode === "socket" && settings.appToken ? settings.appToken : null;
    if (token === this.token) return;
    await this.disconnect();
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
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.disconnect();
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.token = null;
    if (client) await client.disconnect().catch(() => undefined);
  }
}
