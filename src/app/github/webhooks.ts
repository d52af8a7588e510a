import type { IncomingMessage, ServerResponse } from "node:http";
import { createNodeMiddleware, Probot, type ApplicationFunction } from "probot";
import type { Logger } from "pino";
import type { Config } from "../config.js";

export const WEBHOOK_PATH = "/api/github/webhooks";

export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: (err?: Error) => void) => unknown;

/** Probot with the App's credentials, and its webhook middleware (mounted only on WEBHOOK_PATH). */
export async function createGitHubApp(app: NonNullable<Config["app"]>, config: Config, log: Logger) {
  const probot = new Probot({
    appId: app.appId,
    privateKey: app.privateKey,
    secret: app.webhookSecret,
    baseUrl: config.githubApiUrl,
    log: log.child({ component: "probot" }) as never,
  });
  const webhookLog = log.child({ component: "webhooks" });
  const appFn: ApplicationFunction = (probotApp) => {
    probotApp.onAny(async (event) => {
      webhookLog.debug({ event: event.name, deliveryId: event.id }, "webhook received");
    });
  };
  const middleware: NodeMiddleware = await createNodeMiddleware(appFn, { probot, webhooksPath: WEBHOOK_PATH });
  return { probot, middleware };
}
