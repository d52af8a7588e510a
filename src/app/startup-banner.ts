import path from "node:path";
import type { PublicUrlCheck } from "./forges/github/public-url-check.js";
import { PACKAGE_ROOT } from "./package-root.js";

export interface BannerFacts {
  version: string;
  /** Where a browser on this machine reaches the server. */
  url: string;
  /** The address and port the server is bound to (HOST, PORT). */
  bound: { host: string; port: number };
  store: { kind: "pglite"; dataDir: string } | { kind: "postgres" };
  /** The file the operator token is saved in; null when it comes from INKWELL_ADMIN_TOKEN. */
  adminTokenFile: string | null;
  app: { configured: true } | { configured: false; setupUrl: string };
  publicUrl: { value: string; check: PublicUrlCheck };
}

/**
 * What a person starting Inkwell on a terminal reads once: where it is, how to sign in, where the
 * data is, what is missing, and the next command. The JSON log says the same to machines.
 */
export function startupBanner(facts: BannerFacts): string {
  const row = (label: string, text: string) => `  ${label.padEnd(11)} ${text}`;
  const tokenFrom = facts.adminTokenFile ? `${relative(facts.adminTokenFile)} (the CLI on this machine reads it there)` : "INKWELL_ADMIN_TOKEN";
  const lines = [
    "",
    `  Inkwell ${facts.version} is running at ${facts.url}`,
    "",
    row("Listening", describeBinding(facts.bound)),
    row("Dashboard", `${facts.url}/dashboard   sign in with the operator token`),
    row("MCP", `${facts.url}/mcp   for AI assistants, with a project's API key`),
    row("Token", tokenFrom),
    row("Store", facts.store.kind === "pglite" ? `embedded (PGlite) in ${relative(facts.store.dataDir)}` : "PostgreSQL (DATABASE_URL)"),
    row("GitHub App", facts.app.configured ? "configured" : `not configured yet: ${facts.app.setupUrl}`),
  ];
  if (!facts.publicUrl.check.reachable) lines.push(row("Public URL", `${facts.publicUrl.value}: GitHub cannot reach it (${facts.publicUrl.check.reason}); the GitHub App page shows a tunnel recipe`));
  lines.push("", `  Next: ${cliCommand()} projects create your-org/docs`, "");
  return lines.join("\n");
}

/** What the bind address means for who can connect, and how to change it. */
export function describeBinding({ host, port }: { host: string; port: number }): string {
  if (host === "0.0.0.0" || host === "::") return `${host}:${port}, every interface (other machines can connect: put a TLS proxy in front)`;
  if (host === "127.0.0.1" || host === "::1" || host === "localhost") return `${host}:${port}, this machine only (HOST=0.0.0.0 listens on every interface)`;
  return `${host}:${port}`;
}

/**
 * The start-up in one line of words, for logs written to a file (systemd, docker logs, nohup),
 * where the banner is not printed: where it is, what it is bound to, how to sign in, what is next.
 */
export function listeningLine(facts: Pick<BannerFacts, "version" | "url" | "bound" | "adminTokenFile" | "app">): string {
  const token = facts.adminTokenFile ? `the operator token is in ${relative(facts.adminTokenFile)}` : "the operator token is INKWELL_ADMIN_TOKEN";
  const create = `${cliCommand()} projects create your-org/docs`;
  const next = facts.app.configured ? `next: ${create}` : `next: register the GitHub App at ${facts.app.setupUrl}, and ${create}`;
  return `Inkwell ${facts.version} is listening at ${facts.url} (${describeBinding(facts.bound)}); dashboard ${facts.url}/dashboard, ${token}; ${next}`;
}

const relative = (file: string) => {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? `./${rel}` : file;
};

/**
 * This installation's own CLI, as the manual spells it (`node bin/inkwell.js` from the checkout).
 * Never through npx: outside the checkout npx asks the npm registry for a package of that name.
 */
export function cliCommand(cwd = process.cwd()): string {
  return `node ${path.resolve(cwd) === PACKAGE_ROOT ? "bin/inkwell.js" : path.join(PACKAGE_ROOT, "bin", "inkwell.js")}`;
}
