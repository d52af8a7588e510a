import type { Automation, AutomationConfig } from "../../shared/automation-schemas.js";
import { enc, need, print, projectOf } from "../command-context.js";
import type { CommandRun, NounRuns } from "./command-usage.js";
import { CliError } from "../errors.js";
import { table } from "../format.js";

/** The automation `create`'s options describe: exactly one of --source, --issues, --schedule. */
function configOf(values: Record<string, unknown>): Record<string, unknown> {
  const kinds = [values.source !== undefined, values.issues === true, values.schedule !== undefined].filter(Boolean).length;
  if (kinds !== 1) throw new CliError("Say what starts the jobs: exactly one of --source owner/repo (GitLab: group/project), --issues, --schedule CRON", 2);
  const label = values.label as string | undefined;
  const instruction = values.instruction as string | undefined;
  if (values.source !== undefined) {
    const paths = values.path as string[] | undefined;
    return { kind: "source", repository: values.source, ...(label ? { label } : {}), ...(paths?.length ? { paths } : {}), followUps: values["no-follow-ups"] !== true, ...(instruction ? { instruction } : {}) };
  }
  if (values.issues === true) return { kind: "issues", ...(label ? { label } : {}), mention: values["no-mention"] !== true };
  return { kind: "schedule", cron: values.schedule, instruction: need(instruction, "--instruction (what each firing asks the agent)") };
}

const describe = (c: AutomationConfig) =>
  c.kind === "source"
    ? `merges into ${c.repository}${c.label ? ` labelled ${c.label}` : ""}${c.paths?.length ? ` changing ${c.paths.join(", ")}` : ""}${c.followUps ? "" : " (no follow-ups)"}`
    : c.kind === "issues"
      ? `issues labelled ${c.label}${c.mention ? " or addressing the agent" : ""}`
      : `${c.cron} (UTC): ${c.instruction.split("\n")[0]}`;

const changeCommand =
  (method: string, path: (id: string) => string, body: unknown, said: (a: Automation) => string): CommandRun =>
  async (ctx) => {
    const projectId = projectOf(ctx);
    const id = need(ctx.args[0], "automation id");
    const automation = await ctx.client.request<Automation>(method, `/admin/projects/${enc(projectId)}/automations/${enc(id)}${path(id)}`, ctx.operator, body === undefined ? {} : { body });
    print(ctx, automation, () => said(automation));
  };

export const automations: NounRuns<"automations"> = {
  async create(ctx) {
    const projectId = projectOf(ctx);
    const created = await ctx.client.request<Automation>("POST", `/admin/projects/${enc(projectId)}/automations`, ctx.operator, { body: configOf(ctx.values) });
    print(ctx, created, () => `Automation ${created.id}: jobs start on ${describe(created.config)}${created.nextRunAt ? `; next ${created.nextRunAt}` : ""}.`);
  },
  async list(ctx) {
    const projectId = projectOf(ctx);
    const { automations: list } = await ctx.client.request<{ automations: Automation[] }>("GET", `/admin/projects/${enc(projectId)}/automations`, ctx.operator);
    print(ctx, list, () =>
      list.length === 0
        ? `No automations. Add one: inkwell automations create --project ${projectId} --source owner/repo`
        : table(["ID", "STARTS A JOB ON", "STATE", "LAST", "NEXT"], list.map((a) => [a.id, describe(a.config), a.paused ? "paused" : "on", a.lastOutcome, a.nextRunAt])),
    );
  },
  pause: changeCommand("PATCH", () => "", { paused: true }, (a) => `Paused ${a.id}: it starts no job until resumed.`),
  resume: changeCommand("PATCH", () => "", { paused: false }, (a) => `Resumed ${a.id}${a.nextRunAt ? `; next ${a.nextRunAt}` : ""}.`),
  run: changeCommand("POST", () => "/run", undefined, (a) => `Schedule ${a.id} is due now: an instance fires it within a second (inkwell automations list shows what it did).`),
  async delete(ctx) {
    const projectId = projectOf(ctx);
    const id = need(ctx.args[0], "automation id");
    await ctx.client.request<unknown>("DELETE", `/admin/projects/${enc(projectId)}/automations/${enc(id)}`, ctx.operator);
    print(ctx, { deleted: id }, () => `Deleted automation ${id}; its jobs keep their trigger.`);
  },
};
