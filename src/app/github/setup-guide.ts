import type { Config } from "../config.js";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What `/` and the start-up log tell the operator about the GitHub App. */
export function setupGuide(config: Config) {
  const base = config.publicUrl ?? `http://localhost:${config.port}`;
  if (config.app) {
    return {
      status: { configured: true, appId: config.app.appId, webhookPath: "/api/github/webhooks" },
      steps: null,
      html: (version: string) => page(version, `<p>GitHub App ${escapeHtml(config.app?.appId ?? "")} is configured. Webhooks: <code>${escapeHtml(base)}/api/github/webhooks</code>.</p>`),
    };
  }
  const steps = [
    `Set PUBLIC_URL to the address GitHub can reach this server at (now: ${base}); for local development set WEBHOOK_PROXY_URL to a smee.io channel.`,
    `Register a GitHub App from app.yml with Probot's manifest flow: run \`npx probot run ./lib/app/github/manifest-setup.js\` in this directory (with Inkwell stopped, or with PORT set to a free port) and open the page it prints; it writes the credentials to .env. Or create the App by hand with the permissions and events listed in app.yml and the webhook URL ${base}/api/github/webhooks. Open the setup page through the address GitHub will use (PUBLIC_URL): Probot points the App's webhook at that address.`,
    "Put the App's APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET in the environment (or .env) and restart Inkwell.",
    "Install the App on your docs repository and add the Inkwell workflow to it (README, 'Install on your docs repo').",
  ];
  return {
    status: { configured: false, webhookPath: null },
    steps,
    html: (version: string) =>
      page(
        version,
        `<p><strong>No GitHub App is configured.</strong> The API and analytics work; agent jobs fail with a message saying so until the App is set up.</p><ol>${steps
          .map((s) => `<li>${escapeHtml(s)}</li>`)
          .join("")}</ol>`,
      ),
  };
}

function page(version: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Inkwell</title></head><body style="font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5"><h1>Inkwell ${escapeHtml(version)}</h1>${body}<p><a href="/dashboard">Open the dashboard</a> (API keys, analytics, jobs).</p><p>API description: <a href="/openapi.json">/openapi.json</a> · Health: <a href="/healthz">/healthz</a></p></body></html>`;
}
