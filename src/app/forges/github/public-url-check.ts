import { addressRange, rangeLabel, urlHost } from "../../address-ranges.js";
import { DEFAULT_PORT } from "../../config.js";

/** Address ranges GitHub's hosted runners and webhooks cannot reach (RFC 1918, loopback, link-local, CGNAT, ULA …). */
const UNREACHABLE_RANGES = new Set(["private", "loopback", "linkLocal", "uniqueLocal", "carrierGradeNat", "unspecified", "reserved"]);

/** Host names that only mean something on this machine or network. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|lan|home\.arpa|test|invalid)$/i;

export type PublicUrlCheck = { reachable: true } | { reachable: false; reason: string };

/**
 * Whether GitHub (its webhooks and the hosted Actions runners that claim jobs) can plausibly reach
 * this server at `publicUrl`. A static check of the address, not a probe: a name can still fail to
 * resolve or a firewall can still block it, but localhost and private ranges never work.
 */
export function checkPublicUrl(publicUrl: string | undefined): PublicUrlCheck {
  if (!publicUrl) return { reachable: false, reason: "PUBLIC_URL is not set, so this server only knows itself as localhost" };
  const host = urlHost(publicUrl);
  const range = addressRange(host);
  if (range !== null) {
    return UNREACHABLE_RANGES.has(range) ? { reachable: false, reason: `${host} is a ${rangeLabel(range)} address` } : { reachable: true };
  }
  if (LOCAL_NAME.test(host)) return { reachable: false, reason: `${host} is a name only this machine or network knows` };
  if (!host.includes(".")) return { reachable: false, reason: `${host} is a single-label name, which public DNS does not serve` };
  return { reachable: true };
}

/**
 * How to give a server on a laptop a public address for a trial, shown wherever the check fails.
 * The restart keeps the port the tunnel points at: `npm start` alone would come back on 3000.
 */
export function tunnelRecipe(port: number): string[] {
  const env = port === DEFAULT_PORT ? "" : `PORT=${port} `;
  return [
    `cloudflared tunnel --url http://localhost:${port}   # prints https://<random>.trycloudflare.com`,
    `# or: ngrok http ${port}`,
    `${env}PUBLIC_URL=https://<that address> npm start   # restart with it; the App's webhook and the workflow's inkwell-url use it`,
  ];
}
