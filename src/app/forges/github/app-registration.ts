import { createHmac, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { WEBHOOK_PATH } from "./webhook-endpoint.js";

/** Where the dashboard's registration saves the App's credentials; `npm start` reads it at start. */
export const APP_ENV_FILE = "github-app.env";
export const REGISTERED_PATH = "/dashboard/github-app/registered";
const OAUTH_CALLBACK_PATH = "/dashboard/auth/github/callback";

/** GitHub's rules for an App name (at most 34 characters) and an organization login. */
export const registrationSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: "is required" })
    .max(34, { error: "must be at most 34 characters (GitHub's limit)" })
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, { error: "may hold letters, digits, spaces, dots, dashes and underscores, starting with a letter or digit" }),
  organization: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, { error: "must be a GitHub organization's login" })
    .optional(),
});
export type Registration = z.infer<typeof registrationSchema>;

const appYmlSchema = z.object({
  description: z.string().optional(),
  default_events: z.array(z.string()),
  default_permissions: z.record(z.string(), z.string()),
});

/**
 * The manifest GitHub registers the App from (GitHub's manifest flow): app.yml's permissions and
 * events, the name the operator chose, and every URL on PUBLIC_URL, whatever port this runs on.
 */
export function appManifest(appYml: string, registration: Registration, publicUrl: string): Record<string, unknown> {
  const app = appYmlSchema.parse(parseYaml(appYml));
  return {
    name: registration.name,
    url: publicUrl,
    description: app.description,
    public: false,
    hook_attributes: { url: `${publicUrl}${WEBHOOK_PATH}`, active: true },
    redirect_url: `${publicUrl}${REGISTERED_PATH}`,
    callback_urls: [`${publicUrl}${OAUTH_CALLBACK_PATH}`],
    request_oauth_on_install: false,
    default_events: app.default_events,
    default_permissions: app.default_permissions,
  };
}

/** Where the browser posts the manifest: the operator's account, or an organization's. */
export function registrationFormUrl(githubServerUrl: string, organization: string | undefined, state: string): string {
  const where = organization ? `organizations/${encodeURIComponent(organization)}/settings/apps/new` : "settings/apps/new";
  return `${githubServerUrl}/${where}?state=${encodeURIComponent(state)}`;
}

/** The manifest flow's `state`, bound to the operator's dashboard session so only they can finish it. */
export const registrationState = (sessionCsrfToken: string) => createHmac("sha256", sessionCsrfToken).update("inkwell github-app registration").digest("base64url");

export function isRegistrationState(state: string, sessionCsrfToken: string): boolean {
  const expected = Buffer.from(registrationState(sessionCsrfToken));
  const given = Buffer.from(state);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const conversionSchema = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  html_url: z.string(),
  pem: z.string(),
  webhook_secret: z.string().nullable(),
  client_id: z.string(),
  client_secret: z.string(),
});
export type RegisteredApp = z.infer<typeof conversionSchema>;

/** Exchanges the code GitHub redirected back with for the new App's credentials (valid for one hour, once). */
export async function convertManifestCode(githubApiUrl: string, code: string, fetchImpl: typeof fetch = fetch): Promise<RegisteredApp> {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(code)) throw new Error("GitHub sent back a code that is not one; start the registration again");
  const response = await fetchImpl(`${githubApiUrl}/app-manifests/${code}/conversions`, {
    method: "POST",
    headers: { Accept: "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "inkwell" },
  });
  if (!response.ok) {
    throw new Error(`GitHub refused to finish the registration (${response.status}); a code works once and for one hour, so start the registration again`);
  }
  const app = conversionSchema.parse(await response.json());
  if (!app.webhook_secret) throw new Error("GitHub registered the App without a webhook secret; delete it on GitHub and register again");
  return app;
}

/** Writes the App's credentials as a 0600 env file under DATA_DIR (atomically), and returns its path. */
export function saveAppCredentials(dataDir: string, app: RegisteredApp): string {
  const quote = (value: string) => JSON.stringify(value);
  const lines = [
    `# The GitHub App "${app.name}" (${app.html_url}), registered from Inkwell's dashboard on ${new Date().toISOString()}.`,
    "# Read by `npm start`; variables already set in the environment win.",
    `APP_ID=${app.id}`,
    `INKWELL_APP_SLUG=${app.slug}`,
    `WEBHOOK_SECRET=${quote(app.webhook_secret ?? "")}`,
    `PRIVATE_KEY=${quote(app.pem)}`,
    `GITHUB_CLIENT_ID=${app.client_id}`,
    `GITHUB_CLIENT_SECRET=${quote(app.client_secret)}`,
  ];
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, APP_ENV_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${lines.join("\n")}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
  return file;
}

/** app.yml, next to package.json. */
export const readAppYml = (root: string) => readFileSync(path.join(root, "app.yml"), "utf8");
