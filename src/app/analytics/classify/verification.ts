/**
 * Whether an AI agent's claim (its User-Agent) is backed by where the view came from. `verified`:
 * the address is in the ranges its operator publishes (or a Web Bot Auth signature checked out);
 * `spoofed`: the operator publishes ranges and the address is in none of them, so the view is
 * counted as an unknown bot, not as the agent; `unverifiable`: the operator publishes nothing to
 * check against.
 */
export const VERIFICATIONS = ["verified", "spoofed", "unverifiable"] as const;
export type Verification = (typeof VERIFICATIONS)[number];
export const VERIFICATION_CODE: Record<Verification, number> = { unverifiable: 0, verified: 1, spoofed: 2 };

export interface AgentVerifier {
  /** `ip` is normalized (visitor-id.ts's normalizeIp): IPv4-mapped IPv6 already unwrapped. */
  verify(agent: string, ip: string): Verification;
}
