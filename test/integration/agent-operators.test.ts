import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, dayToIso, epochDay } from "../../src/shared/epoch-days.js";
import { parseCsv } from "../helpers/csv.js";
import { Visitor } from "../helpers/visitor.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { publishedAddress, USER_AGENTS } from "../helpers/traffic.js";

const day = epochDay(Date.now()) - 3;
const at = (minute: number, onDay = day) => new Date(onDay * DAY_MS + minute * 60_000).toISOString();
const [chatgptUser, gptbot, perplexityBot] = USER_AGENTS.ai;
const person = (n: number) => ({ ip: `10.20.0.${n}`, userAgent: USER_AGENTS.human[n % USER_AGENTS.human.length] as string });

let t: TestServer;
let project: { projectId: string; key: string };

beforeAll(async () => {
  t = await startTestServer();
  project = await t.newProject("acme/operators", { analytics: { saltWindow: "month" } });
  const hits = [
    // One person arriving from two of OpenAI's answer engines is one person, with two arrivals.
    { timestamp: at(1), path: "/a", ...person(1), referrer: "https://chatgpt.com/c/1" },
    { timestamp: at(2), path: "/b", ...person(1), referrer: "https://chat.openai.com/" },
    { timestamp: at(3), path: "/a", ...person(2), referrer: "https://chatgpt.com/" },
    // A campaign tag names the source when there is no referrer.
    { timestamp: at(4), path: "/c?utm_source=chatgpt.com", ...person(3) },
    { timestamp: at(5), path: "/a", ...person(4), referrer: "https://gemini.google.com/app/x" },
    { timestamp: at(6), path: "/a", ...person(5), referrer: "https://www.perplexity.ai/search/q" },
    { timestamp: at(7), path: "/a", ...person(6), referrer: "https://claude.ai/chat/z" },
    // Not an AI answer, and a failed page view: neither counts.
    { timestamp: at(8), path: "/a", ...person(7), referrer: "https://www.google.com/" },
    { timestamp: at(9), path: "/gone", ...person(8), referrer: "https://chatgpt.com/", status: 404 },
    // Crawlers and search bots from their operators' published addresses; a failed fetch still counts as a crawl.
    ...Array.from({ length: 6 }, (_, i) => ({ timestamp: at(20 + i), path: `/p${i}`, ip: publishedAddress("openai-gptbot", i).ip, userAgent: gptbot as string, ...(i === 0 ? { status: 404 } : {}) })),
    ...Array.from({ length: 3 }, (_, i) => ({ timestamp: at(30 + i), path: `/p${i}`, ip: publishedAddress("perplexity-bot", i).ip, userAgent: perplexityBot as string })),
    // An assistant fetching for a person is no crawl; a spoofed GPTBot is no OpenAI view.
    { timestamp: at(40), path: "/a", ip: publishedAddress("openai-chatgpt-user", 0).ip, userAgent: chatgptUser as string },
    { timestamp: at(41), path: "/a", ip: "10.99.0.1", userAgent: gptbot as string },
    // The day before: outside a one-day range.
    { timestamp: at(50, day - 1), path: "/a", ...person(9), referrer: "https://chatgpt.com/" },
    { timestamp: at(51, day - 1), path: "/a", ip: publishedAddress("openai-gptbot", 7).ip, userAgent: gptbot as string },
  ];
  const answer = await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits } });
  expect(answer.body.rejected).toEqual([]);
});
afterAll(() => t.close());

const report = (query: string) => t.call("GET", `/v1/analytics/${project.projectId}/agents/operators${query}`, { token: project.key });

describe("the crawl-to-referral ratio per AI operator", () => {
  it("sets each operator's crawler and search views against the distinct people its answers sent", async () => {
    const answer = await report(`?dateFrom=${dayToIso(day)}&dateTo=${dayToIso(day + 1)}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      operators: [
        { operator: "openai", name: "OpenAI", crawlerViews: 6, searchViews: 0, people: 3, arrivals: 4, crawlsPerPerson: 2 },
        { operator: "perplexity", name: "Perplexity", crawlerViews: 0, searchViews: 3, people: 1, arrivals: 1, crawlsPerPerson: 3 },
        { operator: "alphabet", name: "Google", crawlerViews: 0, searchViews: 0, people: 1, arrivals: 1, crawlsPerPerson: 0 },
        { operator: "anthropic", name: "Anthropic", crawlerViews: 0, searchViews: 0, people: 1, arrivals: 1, crawlsPerPerson: 0 },
      ],
      hasMore: false,
    });
  });

  it("over two days adds the earlier day's, pages, and exports the same rows as CSV", async () => {
    const both = (await report(`?dateFrom=${dayToIso(day - 1)}&dateTo=${dayToIso(day + 1)}`)).body;
    expect(both.operators[0]).toEqual({ operator: "openai", name: "OpenAI", crawlerViews: 7, searchViews: 0, people: 4, arrivals: 5, crawlsPerPerson: 1.75 });
    const first = (await report(`?dateFrom=${dayToIso(day - 1)}&limit=1`)).body;
    expect(first).toEqual({ operators: [both.operators[0]], hasMore: true });
    const csv = await report(`?dateFrom=${dayToIso(day - 1)}&output=csv`);
    const [header, ...rows] = parseCsv(csv.body as string);
    expect(header).toEqual(["operator", "name", "crawlerViews", "searchViews", "people", "arrivals", "crawlsPerPerson"]);
    expect(rows.map((row) => row[0])).toEqual(both.operators.map((o: { operator: string }) => o.operator));
    expect(rows[0]).toEqual(["openai", "OpenAI", "7", "0", "4", "5", "1.75"]);
  });

  it("the dashboard's agents page shows each operator's views per person sent, with its CSV", async () => {
    const visitor = new Visitor(t.url);
    await visitor.signInAsOperator();
    const range = `from=${dayToIso(day)}&to=${dayToIso(day)}`;
    const page = await visitor.get(`/dashboard/projects/${project.projectId}/agents?${range}`);
    expect(page.status).toBe(200);
    const table = /<table id="operators-table">[\s\S]*?<\/table>/.exec(page.text)?.[0] ?? "";
    expect(table).toContain('<tr><td>OpenAI</td><td class="num">6</td><td class="num">0</td><td class="num">3</td><td class="num">4</td><td class="num">2</td></tr>');
    // The agents table above names GPTBot's operator as the operators table does: one company, one name.
    const agents = /<table id="agents-table">[\s\S]*?<\/table>/.exec(page.text)?.[0] ?? "";
    expect(agents).toMatch(/>GPTBot<\/a><\/td><td>OpenAI<\/td>/);
    const csv = await visitor.get(`/dashboard/projects/${project.projectId}/agents/operators.csv?${range}`);
    expect(csv.status).toBe(200);
    expect(parseCsv(csv.text)[1]).toEqual(["openai", "OpenAI", "6", "0", "3", "4", "2"]);
  });

  it("a day with nothing is empty, and other projects' keys are refused", async () => {
    expect((await report(`?dateFrom=${dayToIso(day + 1)}&dateTo=${dayToIso(day + 2)}`)).body).toEqual({ operators: [], hasMore: false });
    const other = await t.newProject("acme/other-operators");
    expect((await t.call("GET", `/v1/analytics/${project.projectId}/agents/operators`, { token: other.key })).status).toBe(403);
  });
});
