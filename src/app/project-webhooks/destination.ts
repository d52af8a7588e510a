import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { checkDestination as checkOutbound, guardedLookup, literalRefusal, type OutboundPurpose } from "../outbound-guard.js";

export { refusedAddress, RefusedDestinationError } from "../outbound-guard.js";

const WEBHOOKS: OutboundPurpose = { what: "webhooks go", allowSetting: "INKWELL_WEBHOOKS_ALLOW_PRIVATE" };
const webhookLookup = guardedLookup(WEBHOOKS);

/** Whether the URL may be delivered to, resolving its host now (at creation; every delivery checks again as it connects). */
export const checkDestination = (url: string, allowPrivate: boolean): Promise<string | null> => checkOutbound(url, allowPrivate, WEBHOOKS);

/** One POST to a webhook endpoint: no redirects followed, refused destinations never connected to. Resolves with the status. */
export function postToDestination(url: string, init: { headers: Record<string, string>; body: string; timeoutMs: number; allowPrivate: boolean }): Promise<number> {
  const target = new URL(url);
  const refused = init.allowPrivate ? null : literalRefusal(target, WEBHOOKS);
  if (refused) return Promise.reject(refused);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: "POST",
        headers: { ...init.headers, "Content-Length": Buffer.byteLength(init.body) },
        signal: AbortSignal.timeout(init.timeoutMs),
        ...(init.allowPrivate ? {} : { lookup: webhookLookup as never }),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}
