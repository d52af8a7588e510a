import { LogLevel, WebClient, type Logger as SlackLogger } from "@slack/web-api";
import type { Logger } from "pino";

/**
 * Slack's Web API as the bot (docs/slack.md). A rate-limited call waits for the `Retry-After` Slack
 * sends and is tried again (the SDK's own handling, `rejectRateLimitedCalls: false`); a call that
 * still fails fails the task, which the task queue retries with backoff. `retries`: fewer where a
 * person waits for the answer (saving the settings).
 */
export function slackWebClient(token: string, apiUrl: string, log: Logger, retries = 3): WebClient {
  return new WebClient(token, {
    slackApiUrl: apiUrl,
    logger: slackLogger(log),
    logLevel: LogLevel.WARN,
    rejectRateLimitedCalls: false,
    retryConfig: { retries, maxRetryTime: 60_000 },
    timeout: 15_000,
  });
}

/** The SDK's logger interface over pino. */
export function slackLogger(log: Logger): SlackLogger {
  let level = LogLevel.WARN;
  return {
    debug: (...msg: unknown[]) => log.debug(msg.map(String).join(" ")),
    info: (...msg: unknown[]) => log.info(msg.map(String).join(" ")),
    warn: (...msg: unknown[]) => log.warn(msg.map(String).join(" ")),
    error: (...msg: unknown[]) => log.error(msg.map(String).join(" ")),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
