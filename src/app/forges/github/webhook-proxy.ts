import { SmeeClient } from "smee-client";
import type { Logger } from "pino";

/**
 * Local development: relays webhooks from a smee.io channel (WEBHOOK_PROXY_URL) to this server's
 * webhook path, signatures untouched. A channel that cannot be reached is logged, not fatal.
 */
export async function startWebhookProxy(source: string, target: string, log: Logger): Promise<() => Promise<void>> {
  const proxyLog = log.child({ component: "webhook-proxy" });
  const logger = {
    info: (...args: unknown[]) => proxyLog.debug(args.map(String).join(" ")),
    error: (...args: unknown[]) => proxyLog.warn(args.map(String).join(" ")),
  };
  const client = new SmeeClient({ source, target, logger: logger as unknown as Console, maxConnectionTimeout: 10_000 });
  try {
    await client.start();
    proxyLog.info({ source: new URL(source).origin, target }, "relaying webhooks from the proxy channel");
  } catch (error) {
    proxyLog.warn({ err: error }, "could not connect to WEBHOOK_PROXY_URL; webhooks will not arrive until it is reachable");
  }
  return () => client.stop();
}
