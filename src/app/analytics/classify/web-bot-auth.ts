import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { verifySignature } from "http-message-sig";
import { parseDictionary, parseItem, type Dictionary, type InnerList } from "structured-headers";
import { z } from "zod";
import { AI_CATEGORIES } from "../../../shared/analytics-vocabulary.js";
import { packageUrl } from "../../package-root.js";
import type { KeyDirectories } from "./key-directory.js";

/**
 * Web Bot Auth (draft-meunier-web-bot-auth-architecture): an agent signs each request (RFC 9421,
 * tag `web-bot-auth`, covering `@authority` and its `Signature-Agent` header) with a key its
 * operator publishes. A valid signature proves which agent sent the view whatever its User-Agent;
 * a claim that fails is a spoofed one. docs/architecture.md, "Agents and verification".
 */
export const signatureAgentSchema = z.object({
  origin: z.url({ protocol: /^https$/ }).transform((url) => new URL(url).origin),
  agent: z.string().min(1).max(200),
  operator: z.string().min(1).max(200),
  category: z.enum(AI_CATEGORIES),
  source: z.url(),
});
export type SignatureAgent = z.output<typeof signatureAgentSchema>;

const VENDORED = packageUrl("vendor/web-bot-auth/signature-agents.json");

/** The signing agents this release knows (vendor/web-bot-auth), each with where its operator documents it. */
export function vendoredSignatureAgents(file: URL | string = VENDORED): SignatureAgent[] {
  return z.array(signatureAgentSchema.loose()).parse(JSON.parse(readFileSync(file, "utf8")));
}

/** What a site saw of a request, as the hits API carries it. */
export interface SignedRequest {
  method: string;
  /** The request's full URL: its host is the `@authority` the agent signed. */
  url: string;
  signature?: string | undefined;
  signatureInput?: string | undefined;
  signatureAgent: string;
}

/**
 * `verified`: the signature checks out with a current key of the agent's directory.
 * `invalid`: it does not (wrong key, altered request, unknown key id, replayed), so the claim is spoofed.
 * `expired` or `unavailable` (the directory could never be fetched): nothing is proven either
 * way, and the view is classified as if unsigned.
 */
export type SignatureOutcome = "verified" | "invalid" | "expired" | "unavailable";

export interface SignatureCheck {
  agent: SignatureAgent;
  outcome: SignatureOutcome;
  reason: string;
  /** Verified only: what identifies this signature, so a second use of it is caught as a replay. */
  replay?: { key: string; expiresAt: number };
}

const TAG = "web-bot-auth";
/** Seconds of clock difference tolerated between the agent, the site and this server. */
const CLOCK_SKEW_S = 60;
/** A signature valid for longer than this is not a per-request proof. */
const MAX_VALIDITY_S = 24 * 60 * 60;

export class WebBotAuth {
  readonly #agents: Map<string, SignatureAgent>;

  constructor(
    agents: readonly SignatureAgent[],
    private readonly directories: KeyDirectories,
  ) {
    this.#agents = new Map(agents.map((agent) => [agent.origin, agent]));
  }

  /** Null when the request names no signing agent this server knows (an unknown origin's directory is never fetched). */
  async check(request: SignedRequest, at: number): Promise<SignatureCheck | null> {
    const agent = this.#knownAgent(request.signatureAgent);
    if (!agent) return null;
    const invalid = (reason: string): SignatureCheck => ({ agent, outcome: "invalid", reason });
    if (!request.signature || !request.signatureInput) return invalid("Signature-Agent without a signature");
    const label = webBotAuthLabel(request.signatureInput);
    if (!label) return invalid(`no signature tagged ${TAG}`);
    const now = Math.floor(at / 1000);
    const { created, expires } = label;
    if (typeof created !== "number" || typeof expires !== "number") return invalid("created and expires are required");
    if (expires < now - CLOCK_SKEW_S) return { agent, outcome: "expired", reason: "the signature had expired when the page was served" };
    if (expires - created > MAX_VALIDITY_S) return invalid("the signature is valid for too long");
    const keys = await this.directories.keysOf(agent.origin);
    if (!keys) return { agent, outcome: "unavailable", reason: `the key directory of ${agent.origin} could not be fetched` };
    try {
      const verified = await verifySignature(
        {
          kind: "request",
          method: request.method,
          targetUri: request.url,
          fields: [
            { name: "signature", value: request.signature },
            { name: "signature-input", value: request.signatureInput },
            { name: "signature-agent", value: request.signatureAgent },
          ],
        },
        {
          label: label.name,
          policy: {
            algorithms: ["ed25519", "rsa-pss-sha512"],
            requiredComponents: ["@authority"],
            requiredParameters: ["created", "expires", "keyid", "tag"],
            clockSkew: CLOCK_SKEW_S,
            now,
            validate: (signature) => signature.components.some((component) => component.name === "signature-agent"),
          },
          resolveVerifier: (candidate) => {
            const keyid = candidate.parameters.keyid;
            const key = keys.find(
              (k) => (k.thumbprint === keyid || k.kid === keyid) && (k.notBefore === undefined || k.notBefore <= now + CLOCK_SKEW_S) && (k.expires === undefined || k.expires >= now - CLOCK_SKEW_S),
            );
            if (!key) throw new Error("no current key of the directory has this keyid");
            return key.verifier;
          },
        },
      );
      const key = createHash("sha256").update(verified.signature).digest("base64url");
      return { agent, outcome: "verified", reason: "signature verified", replay: { key, expiresAt: expires * 1000 } };
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      return invalid(`${error instanceof Error ? error.message : String(error)}${cause}`);
    }
  }

  /** The known agent a Signature-Agent header names: an sf-string (`"https://chatgpt.com"`) or a dictionary of them. */
  #knownAgent(header: string): SignatureAgent | undefined {
    for (const value of signatureAgentUrls(header)) {
      const origin = URL.parse(value.replace(/^<|>$/g, ""))?.origin;
      const agent = origin ? this.#agents.get(origin) : undefined;
      if (agent) return agent;
    }
    return undefined;
  }
}

function signatureAgentUrls(header: string): string[] {
  try {
    const [value] = parseItem(header);
    if (typeof value === "string") return [value];
  } catch {
    // Not a single item: the dictionary form below.
  }
  try {
    return [...parseDictionary(header).values()].map(([value]) => value).filter((value): value is string => typeof value === "string");
  } catch {
    return [];
  }
}

/** The first signature of Signature-Input tagged web-bot-auth, with its time parameters. */
function webBotAuthLabel(signatureInput: string): { name: string; created: unknown; expires: unknown } | null {
  let inputs: Dictionary;
  try {
    inputs = parseDictionary(signatureInput);
  } catch {
    return null;
  }
  for (const [name, member] of inputs) {
    if (!Array.isArray(member[0])) continue;
    const params = (member as InnerList)[1];
    if (params.get("tag") === TAG) return { name, created: params.get("created"), expires: params.get("expires") };
  }
  return null;
}

/** The request a hit describes, when it names a signing agent (hitSchema has checked its authority is known). */
export function signedRequestOf(hit: { path: string; method?: string | undefined; host?: string | undefined; signature?: string | undefined; signatureInput?: string | undefined; signatureAgent?: string | undefined }): SignedRequest | undefined {
  if (hit.signatureAgent === undefined) return undefined;
  const url = URL.parse(/^https?:\/\//i.test(hit.path) ? hit.path : `https://${hit.host ?? "invalid"}${hit.path}`);
  if (!url) return undefined;
  if (hit.host !== undefined) url.host = hit.host;
  return { method: hit.method ?? "GET", url: url.href, signature: hit.signature, signatureInput: hit.signatureInput, signatureAgent: hit.signatureAgent };
}
