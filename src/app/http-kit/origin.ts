import type { IncomingMessage } from "node:http";
import type { BlockList } from "node:net";
import { isTrustedPeer } from "./client-ip.js";

/** Whether the browser reached us over HTTPS: PUBLIC_URL says so, the socket is TLS, or a trusted proxy says so. */
export function isSecure(req: IncomingMessage, publicUrl: string | undefined, trustedProxies: BlockList): boolean {
  if (publicUrl) return publicUrl.startsWith("https:");
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(",")[0]?.trim().toLowerCase();
  return first === "https" && isTrustedPeer(req, trustedProxies);
}

/** The origin the browser uses for this server. */
export function ownOrigin(req: IncomingMessage, publicUrl: string | undefined, secure: boolean): string {
  if (publicUrl) return new URL(publicUrl).origin;
  return `${secure ? "https" : "http"}://${req.headers.host ?? "localhost"}`;
}
