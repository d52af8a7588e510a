import { epochDay } from "../../../shared/epoch-days.js";
import { readerSuggestions } from "../../analytics/reports/suggestions.js";
import { suggestionOutcomes } from "../../impact/suggestion-outcomes.js";
import { createAutomation, listAutomations, setAutomationPaused } from "../../domain/automations/automations.js";
import { createAutomationSchema } from "../../../shared/automation-schemas.js";
import { linkSource } from "../../forges/source-link.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import type { DashboardController } from "../controller.js";
import { layout, projectPath } from "../layout.js";
import { automationsBody } from "./page.js";
import { htmlReply, parseFields, redirect } from "../request.js";
import { randomToken } from "../sessions.js";
import type { Router } from "../../http-kit/router.js";
import { countingHeader } from "../../http-kit/counting-header.js";

/** A project's automations and its readers' suggestions on the dashboard. */
export function registerAutomationPages(router: Router, dashboard: DashboardController): void {
  const { db, analytics } = dashboard.services;

  router.on(
    "GET",
    "/dashboard/projects/:projectId/automations",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const [automations, { report: suggestions, pending }] = await Promise.all([
        listAutomations(db, project.id),
        analytics.fresh((reader) => readerSuggestions(reader, project.id, epochDay(dashboard.services.clock()))),
      ]);
      const keys = new Map<number, string>();
      const idempotencyKey = (index: number) => keys.get(index) ?? (keys.set(index, randomToken()), keys.get(index) as string);
      const outcomes = await suggestionOutcomes(db, project.id, [...suggestions.missing, ...suggestions.mostRead].map((s) => s.path), dashboard.services.clock());
      const body = automationsBody({ session: r.session, project, access, automations, suggestions, outcomes, idempotencyKey });
      return htmlReply(200, layout({ title: "Automations", session: r.session, project: { project, access, tab: "automations" }, missing: dashboard.services.forges[project.forge].missing, body }), countingHeader(pending));
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/automations",
    dashboard.action(async (r, form) => {
      const { project } = await dashboard.project(r, "admin");
      const config = parseFields(createAutomationSchema, automationFromForm(form));
      const user = r.session.user.kind === "github" ? r.session.user.login : null;
      const sourceRepo = config.kind === "source" ? await linkSource(dashboard.services.forges, project, config.repository, user) : null;
      await db.transaction((tx) => createAutomation(tx, project.id, config, new Date(), sourceRepo));
      return redirect(projectPath(project.id, "automations"));
    }),
  );

  for (const change of ["pause", "resume"] as const) {
    router.on(
      "POST",
      `/dashboard/projects/:projectId/automations/:automationId/${change}`,
      dashboard.action(async (r) => {
        const { project } = await dashboard.project(r, "write");
        const automationId = wellFormedIdOf(r.ctx.params.automationId, "Automation");
        await db.transaction((tx) => setAutomationPaused(tx, project.id, automationId, change === "pause", new Date()));
        return redirect(projectPath(project.id, "automations"));
      }),
    );
  }
}

/** The add forms' fields as the API's request: empty optional fields left out, checkboxes as booleans, one glob per line. */
function automationFromForm(form: Record<string, string | undefined>): Record<string, unknown> {
  const given = (name: string) => (form[name]?.trim() ? form[name]?.trim() : undefined);
  const checked = (name: string) => form[name] === "on";
  if (form.kind === "source") {
    const paths = (form.paths ?? "").split(/\r?\n|,/).map((glob) => glob.trim()).filter(Boolean);
    return { kind: "source", repository: form.repository ?? "", label: given("label"), paths: paths.length ? paths : undefined, followUps: checked("followUps"), instruction: given("instruction") };
  }
  if (form.kind === "issues") return { kind: "issues", label: given("label"), mention: checked("mention") };
  return { kind: form.kind ?? "", cron: form.cron ?? "", instruction: form.instruction ?? "" };
}
