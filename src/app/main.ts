import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ConfigError, loadConfig } from "./config.js";
import { resolveAdminToken } from "./admin-token.js";
import { GitHubApi } from "./forges/github/api.js";
import { startWebhookProxy } from "./forges/github/webhook-proxy.js";
import { createProbot, WEBHOOK_PATH } from "./forges/github/webhook-endpoint.js";
import { appSetupUrl } from "./forges/github/app-urls.js";
import { APP_ENV_FILE } from "./forges/github/app-registration.js";
import { checkPublicUrl } from "./forges/github/public-url-check.js";
import { listeningLine, startupBanner } from "./startup-banner.js";
import { createLogger } from "./logger.js";
import { bindHttpServer, createHttpServer, createInkwellServer } from "./server.js";
import { DataDirInUseError, DataDirLock } from "./store/data-dir-lock.js";
import { openStore } from "./store/open-store.js";
import { packageVersion } from "./version.js";

/** `npm start`: one process serving the API, webhooks and (later) the dashboard. */
async function main(): Promise<void> {
  if (existsSync(".env")) process.loadEnvFile(".env");
  // Saved by the dashboard's App registration; what the environment already sets wins.
  const registeredApp = path.join(process.env.DATA_DIR || "./data", APP_ENV_FILE);
  if (existsSync(registeredApp)) process.loadEnvFile(registeredApp);
  const config = loadConfig(process.env, (file) => readFileSync(file, "utf8"));
  const log = createLogger(config.logLevel, config.logFormat);
  // PGlite is one process's database: refuse a second process before it touches the store.
  const dataDirLock = config.databaseUrl ? null : DataDirLock.acquire(config.dataDir);
  // The port before the store: a port that is taken must fail the start before anything opens the data.
  const httpServer = createHttpServer();
  try {
    await bindHttpServer(httpServer, config.port, config.host);
  } catch (error) {
    dataDirLock?.lock.abandon();
    throw new Error(`Cannot listen on ${config.host ?? "all interfaces"}, port ${config.port}: ${(error as Error).message}. Is another server using it? Set PORT to a free port.`);
  }
  // Only now, with the port ours: a start that fails on a taken port leaves DATA_DIR as it found it.
  const admin = resolveAdminToken(config.adminToken, config.dataDir);
  if (admin.source === "generated") log.warn({ file: admin.file }, "generated an operator token and saved it with mode 0600; the CLI reads it from there on this machine");
  if (admin.source === "file") log.info({ file: admin.file }, "using the operator token saved under DATA_DIR");
  if (dataDirLock?.tookOverFrom) log.warn({ previous: dataDirLock.tookOverFrom }, "took over the data directory's lock from a process that is gone");
  const db = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  log.info({ store: db.kind, ...(db.kind === "pglite" ? { dataDir: config.dataDir } : {}) }, "store ready");

  let github = null;
  if (config.app) {
    const probot = createProbot(config.app, config, log);
    github = { probot, api: new GitHubApi(probot, config.appSlug) };
    log.info({ appId: config.app.appId }, "GitHub App configured; webhooks at /api/github/webhooks");
    if (!config.publicUrl) log.warn("PUBLIC_URL is not set: runners cannot claim jobs (it is the audience of their OIDC tokens)");
  }

  const inkwell = await createInkwellServer({ config, db, log, adminToken: admin.token, github, version: packageVersion(), httpServer });
  const { url, port } = await inkwell.listen(config.port, config.host);
  dataDirLock?.lock.recordPort(port);
  const browserUrl = url.replace("://0.0.0.0:", "://localhost:").replace("://[::]:", "://localhost:");
  const setupUrl = appSetupUrl({ publicUrl: config.publicUrl ?? browserUrl, port });
  const facts = {
    version: packageVersion(),
    url: browserUrl,
    bound: { host: config.host, port },
    adminTokenFile: admin.source === "env" ? null : (admin.file ?? null),
    app: config.app ? ({ configured: true } as const) : ({ configured: false, setupUrl } as const),
  };
  log.info({ url, host: config.host, port, version: packageVersion() }, listeningLine(facts));
  if (!config.app) log.warn({ setup: setupUrl }, "no GitHub App yet: the API and analytics work; agent jobs fail until the App is registered on the setup page");
  const reach = checkPublicUrl(config.publicUrl);
  if (!reach.reachable) log.warn({ reason: reach.reason }, "GitHub cannot reach this server: runners cannot claim jobs and webhooks cannot arrive; the GitHub App page shows a tunnel recipe");
  if (process.stdout.isTTY) {
    process.stdout.write(
      `${startupBanner({
        ...facts,
        store: db.kind === "pglite" ? { kind: "pglite", dataDir: config.dataDir } : { kind: "postgres" },
        publicUrl: { value: config.publicUrl ?? browserUrl, check: reach },
      })}\n`,
    );
  }
  const stopProxy = config.app && config.webhookProxyUrl ? await startWebhookProxy(config.webhookProxyUrl, `${url}${WEBHOOK_PATH}`, log) : null;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down: finishing in-flight requests");
    await stopProxy?.();
    await inkwell.close();
    await db.close();
    dataDirLock?.lock.release();
    log.info("stopped");
    process.exit(0);
  };
  // SIGHUP too: a closed terminal, or `nohup`-less sessions ending, stop it as cleanly as a process manager does.
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void stop(signal));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error("Inkwell failed to start:", error instanceof Error ? error.message : error);
    if (process.env.LOG_LEVEL === "debug" || process.env.LOG_LEVEL === "trace") console.error(error);
  }
  process.exit(1);
});
