import { readFileSync } from "node:fs";
import { MAX_ROBOTS_BYTES, type RobotsSource, type RobotsVersions } from "../../shared/robots-schemas.js";
import { enc, intOption, need, print, projectOf, type CommandContext } from "../command-context.js";
import { CliError } from "../errors.js";
import { table } from "../format.js";
import type { NounRuns } from "./command-usage.js";

type Version = RobotsVersions["versions"][number];

/** The file's text: a path, or `-` for stdin. */
async function bodyOf(ctx: CommandContext): Promise<string> {
  const file = need(ctx.args[0], "robots.txt file (or - for stdin)");
  let body: string;
  try {
    body = file === "-" ? await ctx.io.readStdin() : readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
  // The server's limit, said before the upload: RFC 9309 asks parsers to read 500 KiB, and a version keeps no more.
  const bytes = Buffer.byteLength(body);
  if (bytes > MAX_ROBOTS_BYTES) throw new CliError(`${file === "-" ? "The robots.txt on stdin" : file} is ${bytes} bytes; a robots.txt version is at most 500 KiB (${MAX_ROBOTS_BYTES} bytes), as much as RFC 9309 asks crawlers to read`, 2);
  return body;
}

const sourceText = (report: RobotsSource) =>
  [
    report.source ? `Fetched from ${report.source.url} every ${report.source.everyMinutes} minutes; next ${report.source.nextFetchAt}` : "Not fetched from the site (set a URL: inkwell robots source --project ID <url>)",
    report.fetches.length === 0
      ? ""
      : `\n${table(["FETCHED", "OUTCOME", "STATUS", "VERSION", "ERROR"], report.fetches.map((f) => [f.fetchedAt, f.outcome, f.status ?? "", f.versionId ?? "", f.error ?? ""]))}`,
  ].join("\n");

/** The robots.txt history (operator commands): versions sent by hand, and where the site's file is fetched from. */
export const robots: NounRuns<"robots"> = {
  async add(ctx) {
    const projectId = projectOf(ctx);
    const body = await bodyOf(ctx);
    const effectiveAt = ctx.values["effective-at"];
    const version = await ctx.client.request<Version>("POST", `/admin/projects/${enc(projectId)}/robots/versions`, ctx.operator, { body: { body, ...(effectiveAt ? { effectiveAt } : {}) } });
    print(ctx, version, () => `robots.txt version ${version.id} (${version.bytes} bytes) in force since ${version.effectiveAt}`);
  },

  async source(ctx) {
    const projectId = projectOf(ctx);
    const path = `/admin/projects/${enc(projectId)}/robots/source`;
    if (ctx.values.remove) {
      await ctx.client.request<unknown>("DELETE", path, ctx.operator);
      return print(ctx, { removed: true }, () => "robots.txt is no longer fetched; its versions stay.");
    }
    const url = ctx.args[0];
    const everyMinutes = intOption(ctx.values.every, "every");
    const report = url
      ? await ctx.client.request<RobotsSource>("PUT", path, ctx.operator, { body: { url, ...(everyMinutes === undefined ? {} : { everyMinutes }) } })
      : await ctx.client.request<RobotsSource>("GET", path, ctx.operator);
    print(ctx, report, () => sourceText(report));
  },
};
