import { readFileSync } from "node:fs";
import { signatureHeaders } from "web-bot-auth";
import { signerFromJWK } from "web-bot-auth/crypto";

/** The fixture key directory an agent operator publishes, and the private keys behind it (plus one it does not publish). */
const FIXTURES = new URL("../fixtures/web-bot-auth/", import.meta.url);
export const KEY_DIRECTORY = JSON.parse(readFileSync(new URL("directory.json", FIXTURES), "utf8"));
const SIGNING_KEYS: Record<"current" | "retired" | "stranger", Parameters<typeof signerFromJWK>[0]> = JSON.parse(readFileSync(new URL("signing-keys.json", FIXTURES), "utf8"));

export const CHATGPT_AGENT_ORIGIN = "https://chatgpt.com";
/** What ChatGPT agent sends as its User-Agent: a desktop Chrome's. */
export const CHROME_UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36";

export interface SignOptions {
  key?: keyof typeof SIGNING_KEYS;
  host?: string;
  path?: string;
  /** Epoch ms; the signature is valid from here for `validForMs`. */
  created?: number;
  validForMs?: number;
  signatureAgent?: string;
}

/** The headers a Web Bot Auth agent sends, made by the reference implementation (cloudflare/web-bot-auth), as hit fields. */
export async function signedRequestFields(options: SignOptions = {}) {
  const host = options.host ?? "docs.example.com";
  const signatureAgent = options.signatureAgent ?? `"${CHATGPT_AGENT_ORIGIN}"`;
  const created = new Date(options.created ?? Date.now() - 1_000);
  const request = { method: "GET", url: `https://${host}${options.path ?? "/guide"}`, headers: { "signature-agent": signatureAgent } };
  const headers = await signatureHeaders(request, await signerFromJWK(SIGNING_KEYS[options.key ?? "current"]), {
    created,
    expires: new Date(created.getTime() + (options.validForMs ?? 60_000)),
  });
  return { host, signature: headers.Signature, signatureInput: headers["Signature-Input"], signatureAgent };
}
