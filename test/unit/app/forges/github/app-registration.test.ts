import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import {
  appManifest,
  convertManifestCode,
  isRegistrationState,
  registrationFormUrl,
  registrationSchema,
  registrationState,
  saveAppCredentials,
} from "../../../../../src/app/forges/github/app-registration.js";
import { loadConfig } from "../../../../../src/app/config.js";

const APP_YML = readFileSync(path.resolve("app.yml"), "utf8");

describe("the App's manifest", () => {
  it("takes the operator's name, app.yml's permissions and events, and puts every URL on PUBLIC_URL", () => {
    const manifest = appManifest(APP_YML, { name: "Acme Docs Agent" }, "https://inkwell.acme.dev");
    expect(manifest).toMatchObject({
      name: "Acme Docs Agent",
      url: "https://inkwell.acme.dev",
      public: false,
      hook_attributes: { url: "https://inkwell.acme.dev/api/github/webhooks", active: true },
      redirect_url: "https://inkwell.acme.dev/dashboard/github-app/registered",
      callback_urls: ["https://inkwell.acme.dev/dashboard/auth/github/callback"],
      default_permissions: { contents: "write", pull_requests: "write", issues: "write", actions: "write", metadata: "read" },
    });
    expect(manifest.default_events).toEqual(expect.arrayContaining(["issue_comment", "pull_request", "pull_request_review", "pull_request_review_comment", "workflow_run"]));
  });

  it("is posted to the operator's account or to an organization", () => {
    expect(registrationFormUrl("https://github.com", undefined, "s t")).toBe("https://github.com/settings/apps/new?state=s%20t");
    expect(registrationFormUrl("https://ghe.acme.dev", "acme", "s")).toBe("https://ghe.acme.dev/organizations/acme/settings/apps/new?state=s");
  });

  it("refuses names GitHub would refuse, saying why", () => {
    expect(registrationSchema.safeParse({ name: "  Inkwell for Acme  " }).data?.name).toBe("Inkwell for Acme");
    expect(registrationSchema.safeParse({ name: "x".repeat(35) }).error?.issues[0]?.message).toMatch(/at most 34/);
    expect(registrationSchema.safeParse({ name: "<script>" }).success).toBe(false);
    expect(registrationSchema.safeParse({ name: "ok", organization: "not an org!" }).success).toBe(false);
  });

  it("binds its state to the dashboard session", () => {
    const state = registrationState("csrf-a");
    expect(isRegistrationState(state, "csrf-a")).toBe(true);
    expect(isRegistrationState(state, "csrf-b")).toBe(false);
    expect(isRegistrationState("", "csrf-a")).toBe(false);
  });
});

describe("finishing the registration", () => {
  const registered = {
    id: 123456,
    slug: "acme-docs-agent",
    name: "Acme Docs Agent",
    html_url: "https://github.com/apps/acme-docs-agent",
    pem: "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n",
    webhook_secret: "whsec-from-github",
    client_id: "Iv23liABC",
    client_secret: "secret-from-github",
    owner: { login: "acme" },
  };

  it("exchanges the code once for the App's credentials", async () => {
    const calls: string[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push(`${init.method} ${url}`);
      return new Response(JSON.stringify(registered), { status: 201, headers: { "content-type": "application/json" } });
    }) as unknown as typeof fetch;
    const app = await convertManifestCode("https://api.github.com", "abc123", fakeFetch);
    expect(calls).toEqual(["POST https://api.github.com/app-manifests/abc123/conversions"]);
    expect(app).toMatchObject({ id: 123456, slug: "acme-docs-agent", webhook_secret: "whsec-from-github" });
    const refused = (async () => new Response("{}", { status: 404 })) as unknown as typeof fetch;
    await expect(convertManifestCode("https://api.github.com", "abc123", refused)).rejects.toThrow(/start the registration again/);
    await expect(convertManifestCode("https://api.github.com", "../../x", fakeFetch)).rejects.toThrow(/not one/);
  });

  it("saves them as a 0600 env file that the start-up reads back into a configured App", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "inkwell-app-env-"));
    const file = saveAppCredentials(dir, registered);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const env = parseEnv(readFileSync(file, "utf8"));
    const config = loadConfig(env, () => "");
    expect(config.app).toEqual({ appId: "123456", privateKey: registered.pem, webhookSecret: "whsec-from-github" });
    expect(config.appSlug).toBe("acme-docs-agent");
    expect(config.dashboard.oauth).toEqual({ clientId: "Iv23liABC", clientSecret: "secret-from-github" });
  });
});
