import type { Project } from "../domain/projects.js";
import type { ProjectAccess } from "./access.js";
import { html, type SafeHtml } from "./html.js";
import type { Session } from "./sessions.js";
import type { MissingAccess } from "../forges/forge.js";

export type ProjectTab = "keys" | "analytics" | "agents" | "jobs" | "automations" | "setup";

const TABS: { tab: ProjectTab; label: string }[] = [
  { tab: "keys", label: "API keys" },
  { tab: "analytics", label: "Analytics" },
  { tab: "agents", label: "AI agents" },
  { tab: "jobs", label: "Jobs" },
  { tab: "automations", label: "Automations" },
  { tab: "setup", label: "Setup" },
];

export interface PageFrame {
  title: string;
  session: Session | null;
  project?: { project: Project; access: ProjectAccess; tab: ProjectTab };
  /** A message shown above the content (role=status), e.g. after a redirect. */
  notice?: { kind: "ok" | "error" | "info"; text: string | SafeHtml } | null;
  /** Pages about jobs say when the server cannot run them on the project's forge (no GitHub App yet): its forge's `missing`. */
  missing?: MissingAccess | null;
  body: SafeHtml;
}

export const projectPath = (projectId: string, tab?: string) => `/dashboard/projects/${encodeURIComponent(projectId)}${tab ? `/${tab}` : ""}`;

export const projectLabel = (project: Project) => project.name ?? project.repoName;

/** The document around every dashboard page: no inline script or style (the CSP forbids both). */
export function layout(frame: PageFrame): SafeHtml {
  const { session, project } = frame;
  const who = session ? (session.user.kind === "github" ? `@${session.user.login}` : "operator") : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title} · Inkwell</title>
${session ? html`<meta name="csrf-token" content="${session.csrfToken}">` : ""}
<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script type="module" src="/dashboard/assets/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/dashboard">Inkwell</a>
  ${
    session
      ? html`<form method="post" action="/dashboard/sign-out" class="signout">
    <span class="who">Signed in as <strong>${who}</strong></span>
    <input type="hidden" name="csrf" value="${session.csrfToken}">
    <button type="submit" class="link-button">Sign out</button>
  </form>`
      : ""
  }
</header>
${
  project
    ? html`<nav class="project-nav" aria-label="Project">
  <a class="project-name" href="/dashboard">${projectLabel(project.project)}</a>
  <ul>${TABS.map(
    ({ tab, label }) =>
      html`<li><a href="${projectPath(project.project.id, tab)}"${tab === project.tab ? html` aria-current="page"` : ""}>${label}</a></li>`,
  )}</ul>
</nav>`
    : ""
}
<main id="main" tabindex="-1">
<h1>${frame.title}</h1>
${frame.notice ? html`<p class="notice notice-${frame.notice.kind}" role="${frame.notice.kind === "error" ? "alert" : "status"}">${frame.notice.text}</p>` : ""}
${frame.missing ? html`<p class="notice notice-error" role="alert">This server has no ${frame.missing.what} yet, so jobs fail without running. The operator sets it up on the <a href="${frame.missing.setupPath}">${frame.missing.what} page</a>.</p>` : ""}
${frame.body}
</main>
</body>
</html>`;
}

/** A hidden CSRF field for a form. */
export const csrfField = (session: Session) => html`<input type="hidden" name="csrf" value="${session.csrfToken}">`;

export function formatTime(iso: string | null): SafeHtml | string {
  if (!iso) return "—";
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>`;
}

/** "5 min ago"-style age, with the exact time on hover. */
export function formatAge(iso: string, now = Date.now()): SafeHtml {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  const text =
    seconds < 60 ? "just now" : seconds < 3600 ? `${Math.floor(seconds / 60)} min ago` : seconds < 86_400 ? `${Math.floor(seconds / 3600)} h ago` : `${Math.floor(seconds / 86_400)} d ago`;
  return html`<time datetime="${iso}" title="${iso}">${text}</time>`;
}

export const number = (n: number) => n.toLocaleString("en-US");
