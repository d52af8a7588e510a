import { request, type IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dayToIso, epochDay } from "../../src/shared/epoch-days.js";
import { EXPORT_BATCH_ROWS } from "../../src/app/analytics/reports/report-rows.js";
import type { Db, Queryable } from "../../src/app/store/db.js";
import { runCli, type CliIo } from "../../src/cli/run-cli.js";
import { cliFor } from "../helpers/cli.js";
import { parseCsv } from "../helpers/csv.js";
import { openApiContract } from "../helpers/openapi-contract.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { generateTraffic, USER_AGENTS, wireHit } from "../helpers/traffic.js";
import { eventually } from "../helpers/eventually.js";
import { volume } from "../helpers/tier.js";

/** CSV exports of the analytics reports (docs/analytics/reports.md), over loopback on the store under test. */

const now = new Date();
const lastMonth = epochDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const firstDay = lastMonth - 5;
const DAYS = 10;
const hits = generateTraffic({ seed: 20, people: 150, paths: 45, firstDay, days: DAYS, views: 1_500 });

/** Paths a spreadsheet would trip on, each read by a few people (paths always start with /, so a formula can only hide after it). */
const HOSTILE_PATHS = ['/=HYPERLINK("https://evil.example","click,me")', "/+SUM(1,2)", "/@cmd|x!A0", "/-2+3", '/docs/"quoted"', "/日本語/ドキュメント", "/emoji-😀"];
const hostileHits = HOSTILE_PATHS.flatMap((path, i) =>
  [0, 1, 2].map((n) => ({ timestamp: new Date((lastMonth + 1) * 86_400_000 + (i * 3 + n) * 60_000).toISOString(), path, ip: `192.0.2.${i * 3 + n + 1}`, userAgent: USER_AGENTS.human[n]! })),
);

let t: TestServer;
let project: { projectId: string; key: string };
let other: { projectId: string; key: string };

beforeAll(async () => {
  t = await startTestServer();
  project = await t.newProject();
  other = await t.newProject();
  const wire = [...hits.map(wireHit), ...hostileHits];
  for (let i = 0; i < wire.length; i += 500) {
    const answer = await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits: wire.slice(i, i + 500) } });
    expect(answer.status).toBe(202);
    expect(answer.body.rejected).toEqual([]);
  }
}, 120_000);
afterAll(() => t.close());

const base = (report: string) => `/v1/analytics/${project.projectId}/${report}`;
const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);

async function csvOf(report: string, query: string, init: { headers?: Record<string, string>; token?: string } = {}) {
  const response = await fetch(t.url + withQuery(base(report), query), { headers: { Authorization: `Bearer ${init.token ?? project.key}`, ...init.headers } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString("utf8") };
}

/** Every row of the JSON report, page by page (small pages, so paging is part of what is compared). */
async function jsonRows(report: string, query: string, rowsKey: string): Promise<any[]> {
  const rows: any[] = [];
  for (let offset = 0; ; offset += 7) {
    const page = await t.call("GET", withQuery(base(report), [query, `limit=7&offset=${offset}`].filter(Boolean).join("&")), { token: project.key });
    expect(page.status).toBe(200);
    rows.push(...page.body[rowsKey]);
    if (!page.body.hasMore) return rows;
  }
}

/** A cell as the CSV must show it: text that starts like a formula gets a leading '. */
const shown = (value: string | number) => (typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value));

const REPORTS = {
  counts: { header: ["path", "human", "ai", "bot", "total"], cells: (r: any) => [r.path, r.human, r.ai, r.bot, r.total] },
  agents: {
    header: ["agent", "operator", "category", "verified", "spoofed", "unverifiable", "views", "visitors", "pages", "robotsDisallowed"],
    cells: (a: any) => [a.agent, a.operator, a.category, a.verification.verified, a.verification.spoofed, a.verification.unverifiable, a.views, a.visitors, a.pages, a.robotsDisallowed],
  },
  pages: { header: ["path", "views", "visitors", "failed"], cells: (p: any) => [p.path, p.views, p.visitors, p.failed] },
  failures: { header: ["path", "status", "views", "agents"], cells: (f: any) => [f.path, f.status, f.views, f.agents.join("; ")] },
};

const ranges: [string, string][] = [
  ["open range", ""],
  ["a bounded range", `dateFrom=${dayToIso(lastMonth - 2)}&dateTo=${dayToIso(lastMonth + 3)}`],
];

async function expectCsvEqualsJson(report: string, query: string, rowsKey: string, shape: { header: string[]; cells: (row: any) => (string | number)[] }) {
  const expected = (await jsonRows(report, query, rowsKey)).map((row) => shape.cells(row).map(shown));
  const csv = await csvOf(report, [query, "output=csv"].filter(Boolean).join("&"));
  expect(csv.status, csv.text).toBe(200);
  expect(parseCsv(csv.text)).toEqual([shape.header, ...expected]);
  return expected.length;
}

describe("every report as CSV: the JSON report's rows across all its pages, exactly", () => {
  it.each(ranges)("%s: visitors and views, all formats and one", async (_name, range) => {
    expect(await expectCsvEqualsJson("visitors", range, "visitors", REPORTS.counts)).toBeGreaterThan(20);
    expect(await expectCsvEqualsJson("visitors", [range, "format=markdown"].filter(Boolean).join("&"), "visitors", REPORTS.counts)).toBeGreaterThan(0);
    expect(await expectCsvEqualsJson("views", range, "views", REPORTS.counts)).toBeGreaterThan(20);
    await expectCsvEqualsJson("views", [range, "format=llms.txt"].filter(Boolean).join("&"), "views", REPORTS.counts);
  });

  it.each(ranges)("%s: agents, each agent's pages, failures", async (_name, range) => {
    expect(await expectCsvEqualsJson("agents", range, "agents", REPORTS.agents)).toBeGreaterThan(2);
    await expectCsvEqualsJson("agents", [range, "category=crawler"].filter(Boolean).join("&"), "agents", REPORTS.agents);
    for (const agent of await jsonRows("agents", "", "agents")) {
      expect(await expectCsvEqualsJson(`agents/${encodeURIComponent(agent.agent)}/pages`, range, "pages", REPORTS.pages)).toBeGreaterThanOrEqual(range ? 0 : 1);
    }
    expect(await expectCsvEqualsJson("failures", range, "failures", REPORTS.failures)).toBeGreaterThan(range ? 0 : 2);
  });

  it("an explicit limit or offset exports that page of the rows, as the JSON page", async () => {
    const page = await t.call("GET", `${base("visitors")}?limit=5&offset=3`, { token: project.key });
    const csv = await csvOf("visitors", "output=csv&limit=5&offset=3");
    expect(parseCsv(csv.text)).toEqual([REPORTS.counts.header, ...page.body.visitors.map((r: any) => REPORTS.counts.cells(r).map(shown))]);
    expect(parseCsv((await csvOf("failures", "output=csv&offset=1000")).text)).toEqual([REPORTS.failures.header]);
  });
});

describe("the CSV file", () => {
  it("is UTF-8 text/csv with CRLF line ends, an attachment named after the report, project and days, and the report's headers", async () => {
    const csv = await csvOf("visitors", `output=csv&dateFrom=${dayToIso(lastMonth - 2)}&dateTo=${dayToIso(lastMonth + 3)}T12:00:00Z`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="visitors-${project.projectId}-${dayToIso(lastMonth - 2)}-${dayToIso(lastMonth + 3)}.csv"`);
    expect(csv.headers.get("vary")).toBe("Accept");
    const json = await t.call("GET", `${base("visitors")}?dateFrom=${dayToIso(lastMonth - 2)}`, { token: project.key });
    expect(csv.headers.get("inkwell-counting")).toBe(json.headers.get("inkwell-counting"));
    expect(csv.text.startsWith("path,human,ai,bot,total\r\n")).toBe(true);
    expect(csv.text.endsWith("\r\n")).toBe(true);
    expect(csv.text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(csv.bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    const open = await csvOf(`agents/${encodeURIComponent("GPTBot")}/pages`, "output=csv");
    expect(open.headers.get("content-disposition")).toBe(`attachment; filename="agent-GPTBot-pages-${project.projectId}-start-end.csv"`);
  });

  it("quotes hostile paths so they read back exactly, and no cell a spreadsheet opens starts a formula", async () => {
    const csv = await csvOf("visitors", "output=csv");
    expect(csv.text).toContain('"/=HYPERLINK(""https://evil.example"",""click,me"")"');
    expect(csv.text).toContain('"/docs/""quoted"""');
    const records = parseCsv(csv.text);
    const paths = records.slice(1).map((r) => r[0]);
    for (const path of HOSTILE_PATHS) expect(paths).toContain(path);
    for (const cell of records.flat()) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    // Encoded as UTF-8, byte for byte.
    expect(csv.bytes.includes(Buffer.from("/日本語/ドキュメント,", "utf8"))).toBe(true);
  });

  it("is chosen by output=csv or by an Accept header preferring text/csv; the query parameter wins", async () => {
    const cases: [string, Record<string, string>, boolean][] = [
      ["", {}, false],
      ["", { Accept: "text/csv" }, true],
      ["", { Accept: "application/json" }, false],
      ["", { Accept: "*/*" }, false],
      ["", { Accept: "text/csv;q=0.5, application/json" }, false],
      ["", { Accept: "application/json;q=0.5, text/csv" }, true],
      ["output=csv", {}, true],
      ["output=csv", { Accept: "application/json" }, true],
      ["output=json", { Accept: "text/csv" }, false],
    ];
    const json = await t.call("GET", base("views"), { token: project.key });
    for (const [query, headers, csv] of cases) {
      const answer = await csvOf("views", query, { headers });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type"), `${query} ${JSON.stringify(headers)}`).toBe(csv ? "text/csv; charset=utf-8" : "application/json; charset=utf-8");
      if (csv) expect(answer.text.startsWith("path,human,ai,bot,total\r\n")).toBe(true);
      else expect(JSON.parse(answer.text)).toEqual(json.body);
    }
  });

  it("leaves format its meaning (the read format): format=csv is refused as before, and combines with output=csv", async () => {
    const refused = await csvOf("visitors", "format=csv", { headers: { Accept: "text/csv" } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(JSON.parse(refused.text).error).toMatch(/^Invalid query parameters: format: /);
    const markdown = await jsonRows("visitors", "format=markdown", "visitors");
    const csv = await csvOf("visitors", "format=markdown", { headers: { Accept: "text/csv" } });
    expect(parseCsv(csv.text).slice(1)).toEqual(markdown.map((r) => REPORTS.counts.cells(r).map(shown)));
  });

  it("answers errors found before the first byte as the usual JSON errors", async () => {
    const asCsv = { Accept: "text/csv" };
    const cases: [string, string, string | undefined, number][] = [
      ["visitors", "output=csv", "ink_nope", 401],
      ["visitors", "output=csv", other.key, 403],
      ["agents", "output=csv&limit=0", undefined, 400],
      ["failures", "output=xml", undefined, 400],
      ["views", "output=csv&dateFrom=2026-02-01&dateTo=2026-01-01", undefined, 400],
      [`agents/${encodeURIComponent("NoSuchBot")}/pages`, "output=csv", undefined, 404],
    ];
    for (const [report, query, token, status] of cases) {
      const answer = await csvOf(report, query, { headers: asCsv, ...(token ? { token } : {}) });
      expect(answer.status, `${report}?${query}`).toBe(status);
      expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(JSON.parse(answer.text).error).toEqual(expect.any(String));
    }
  });

  it("is what /openapi.json states for each report: an output parameter and a 200 text/csv answer with the report's header line", async () => {
    const contract = openApiContract((await t.call("GET", "/openapi.json")).body);
    const reports: [string, string][] = [
      ["/v1/analytics/{projectId}/visitors", "visitors"],
      ["/v1/analytics/{projectId}/views", "views"],
      ["/v1/analytics/{projectId}/agents", "agents"],
      ["/v1/analytics/{projectId}/agents/{agent}/pages", "agents/GPTBot/pages"],
      ["/v1/analytics/{projectId}/failures", "failures"],
    ];
    for (const [template, report] of reports) {
      const operation = contract.doc.paths[template].get;
      expect(operation.parameters.find((p: any) => p.name === "output").schema.enum).toEqual(["json", "csv"]);
      const csv = await csvOf(report, "output=csv");
      expect(contract.responseProblems("get", template, 200, csv.headers.get("content-type"), csv.text)).toEqual([]);
      expect(contract.responseProblems("get", template, 200, "text/csv; charset=utf-8", "path;views\r\n")).not.toEqual([]);
    }
  });

  it("answers HEAD with the CSV's headers and no body", async () => {
    const response = await fetch(`${t.url}${base("visitors")}?output=csv`, { method: "HEAD", headers: { Authorization: `Bearer ${project.key}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await response.text()).toBe("");
  });
});

describe("inkwell analytics … --csv", () => {
  it("writes the server's CSV to standard output as it arrives, byte for byte", async () => {
    const written: Buffer[] = [];
    const errors: string[] = [];
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (text) => errors.push(text),
      env: { INKWELL_URL: t.url, INKWELL_API_KEY: project.key, INKWELL_PROJECT: project.projectId },
      fetch: globalThis.fetch,
      readStdin: async () => "",
      stdinStream: () => Readable.from([]),
      sleep: async () => undefined,
      write: async (chunk) => void written.push(Buffer.from(chunk)),
    };
    const from = dayToIso(lastMonth - 2);
    const cases: [string[], string, string][] = [
      [["analytics", "visitors", "--csv"], "visitors", "output=csv"],
      [["analytics", "views", "--csv", "--format", "markdown", "--from", from], "views", `output=csv&format=markdown&dateFrom=${from}`],
      [["analytics", "agents", "--csv", "--category", "crawler"], "agents", "output=csv&category=crawler"],
      [["analytics", "agent-pages", "GPTBot", "--csv"], `agents/GPTBot/pages`, "output=csv"],
      [["analytics", "failures", "--csv", "--limit", "2", "--offset", "1"], "failures", "output=csv&limit=2&offset=1"],
    ];
    for (const [args, report, query] of cases) {
      written.length = 0;
      expect(await runCli(args, io), errors.join("\n")).toBe(0);
      expect(Buffer.concat(written).toString("utf8")).toBe((await csvOf(report, query)).text);
    }
    expect(written.length).toBeGreaterThan(0);
  });

  it("prints the same CSV where output is text only, and reports the server's errors", async () => {
    const cli = cliFor(t);
    const env = { INKWELL_API_KEY: project.key, INKWELL_PROJECT: project.projectId };
    const printed = await cli(["analytics", "visitors", "--csv"], env);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe((await csvOf("visitors", "output=csv")).text);
    const both = await cli(["analytics", "visitors", "--csv", "--json"], env);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--csv and --json/);
    const unknown = await cli(["analytics", "agent-pages", "NoSuchBot", "--csv"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/404: Agent not found/);
  });
});

/** Records each FETCH the store is asked for (the export's batches), on either store. */
function recordFetches(db: Db) {
  const fetches: { asked: number; got: number }[] = [];
  // Transactions holding an export's cursor (background work such as counting opens others).
  const transactions = { open: 0 };
  const wrap =
    (query: Queryable["query"], declared?: { cursor: boolean }): Queryable["query"] =>
    async <Row>(sql: string, params?: unknown[]) => {
      if (declared && !declared.cursor && /^DECLARE inkwell_rows_/.test(sql)) {
        declared.cursor = true;
        transactions.open++;
      }
      const rows = await query<Row>(sql, params);
      const fetch = /^FETCH FORWARD (\d+) FROM /.exec(sql);
      if (fetch) fetches.push({ asked: Number(fetch[1]), got: rows.length });
      return rows;
    };
  const original = { query: db.query, transaction: db.transaction };
  const spied = db as { query: Db["query"]; transaction: Db["transaction"] };
  spied.query = wrap(original.query);
  spied.transaction = async (fn) => {
    const declared = { cursor: false };
    try {
      return await original.transaction((tx) => fn({ ...tx, query: wrap(tx.query, declared) }));
    } finally {
      if (declared.cursor) transactions.open--;
    }
  };
  return {
    fetches,
    transactions,
    restore() {
      Object.assign(spied, original);
    },
  };
}

describe("an export far larger than the socket's buffers", () => {
  // Long paths make each batch about a megabyte, so the buffers between server and client hold a few
  // batches at most, and a few tens of thousands of pages prove the pace (the full tier: 100,000).
  const PAGES = volume(30_000, 100_000, "CSV_EXPORT_PAGES");
  const PADDING = 900;

  it("streams every row in order, reading the store in bounded batches only as fast as the client reads", async () => {
    const big = await t.newProject();
    const windowStart = lastMonth;
    // The rollup's result for a month with 100k pages, written directly: whole-window distinct counts per page.
    await t.store.db.query(`INSERT INTO analytics_windows (project_id, window_start, window_end) VALUES ($1, $2, $3)`, [big.projectId, windowStart, windowStart + 30]);
    await t.store.db.query(
      `INSERT INTO analytics_paths (project_id, path) SELECT $1, '/section-' || (g % 100) || '/page-' || lpad(g::text, 6, '0') || '-' || repeat('x', ${PADDING}) FROM generate_series(1, ${PAGES}) g`,
      [big.projectId],
    );
    await t.store.db.query(
      `INSERT INTO analytics_window_reach (project_id, window_start, path_id, human, ai, bot, total)
       SELECT $1, $2, id, t - t / 3, t / 2, 1, t FROM (SELECT id, 1 + (id::bigint * 7919) % 997 AS t FROM analytics_paths WHERE project_id = $1) p`,
      [big.projectId, windowStart],
    );

    const spy = recordFetches(t.store.db);
    // The export's cursor: PGlite's (one session) is listed in pg_cursors; PostgreSQL's lives in a transaction of its own.
    const openCursors = async () =>
      t.store.db.kind === "pglite" ? (await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_cursors WHERE name LIKE 'inkwell_rows_%'`))[0]!.n : spy.transactions.open;
    try {
      const response = await new Promise<IncomingMessage>((resolve, reject) =>
        request(`${t.url}/v1/analytics/${big.projectId}/visitors?output=csv`, { headers: { Authorization: `Bearer ${big.key}` } }, resolve)
          .on("error", reject)
          .end(),
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
      // The client reads nothing yet: the server reads batches only until the socket's buffers are full.
      for (let seen = -1; seen !== spy.fetches.length; ) {
        seen = spy.fetches.length;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const whilePaused = spy.fetches.length;
      process.stdout.write(`CSV export of ${PAGES} pages: ${whilePaused} batches read while the client read nothing\n`);
      expect(whilePaused).toBeGreaterThan(0);
      expect(whilePaused).toBeLessThan(PAGES / EXPORT_BATCH_ROWS / 2);
      expect(await openCursors()).toBe(1);

      // Now read it all, checking each line as it arrives instead of keeping the body.
      let lines = 0;
      let rest = "";
      let previous: { total: number; path: string } | null = null;
      let outOfOrder = 0;
      response.setEncoding("utf8");
      for await (const chunk of response as AsyncIterable<string>) {
        const text = rest + chunk;
        const parts = text.split("\r\n");
        rest = parts.pop() ?? "";
        for (const line of parts) {
          if (lines++ === 0) {
            expect(line).toBe("path,human,ai,bot,total");
            continue;
          }
          const [path = "", , , , total = ""] = line.split(",");
          const row = { total: Number(total), path };
          if (previous && (row.total > previous.total || (row.total === previous.total && row.path <= previous.path))) outOfOrder++;
          previous = row;
        }
      }
      expect(rest).toBe("");
      expect(lines).toBe(PAGES + 1);
      expect(outOfOrder).toBe(0);
      // Every batch was at most EXPORT_BATCH_ROWS rows, and they add up to the pages.
      expect(Math.max(...spy.fetches.map((f) => f.asked))).toBe(EXPORT_BATCH_ROWS);
      expect(Math.max(...spy.fetches.map((f) => f.got))).toBeLessThanOrEqual(EXPORT_BATCH_ROWS);
      expect(spy.fetches.reduce((sum, f) => sum + f.got, 0)).toBe(PAGES);

      // A client that goes away mid-export: the cursor is closed and (PostgreSQL) its transaction ended.
      const fetchesBefore = spy.fetches.length;
      const leaving = await new Promise<IncomingMessage>((resolve, reject) =>
        request(`${t.url}/v1/analytics/${big.projectId}/visitors?output=csv`, { headers: { Authorization: `Bearer ${big.key}` } }, resolve)
          .on("error", reject)
          .end(),
      );
      await new Promise((resolve) => leaving.once("data", resolve));
      leaving.destroy();
      await eventually("the abandoned export's cursor to close", async () => (await openCursors()) === 0);
      expect(spy.fetches.length - fetchesBefore).toBeLessThan(PAGES / EXPORT_BATCH_ROWS / 2);
    } finally {
      spy.restore();
    }
  });
});
