// A combined access log for bench:import, made from the real lines of test/fixtures/logs/access.log:
// each line a fixture line with another client address, time and page, and for people and bots
// another real User-Agent of test/fixtures/user-agents.json, so the mix of pages, assets,
// redirects, bots and AI agents is the fixture's. The same lines for a given count, dated over the last 28 days.
import { createWriteStream, readFileSync } from "node:fs";

const DAYS = 28;
const PAGES = 2_000;
const VISITORS = 40_000;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const LINE = /^(\S+) (\S+ \S+) \[[^\]]+\] "(\S+) (\S+) (\S+)" (\d{3}) (\S+) "([^"]*)" "((?:[^"\\]|\\.)*)"$/;

function rng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const clfTime = (ms: number) => {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
};

/** Writes `lines` lines of combined log to `file`, the same for the same count. */
export async function writeCombinedLog(file: string, lines: number): Promise<void> {
  const templates = readFileSync("test/fixtures/logs/access.log", "utf8")
    .split("\n")
    .map((line) => LINE.exec(line))
    .filter((match) => match !== null);
  const fixture = JSON.parse(readFileSync("test/fixtures/user-agents.json", "utf8")) as { groups: Record<string, { expect: string; rows: (string | { ua: string })[] }> };
  const agentsOf = (expect: (e: string) => boolean) =>
    Object.values(fixture.groups)
      .filter((group) => expect(group.expect))
      .flatMap((group) => group.rows.map((row) => (typeof row === "string" ? row : row.ua)));
  const people = agentsOf((e) => e === "human");
  const bots = agentsOf((e) => e !== "human");
  const random = rng(42);
  const out = createWriteStream(file);
  const start = Date.now() - DAYS * 86_400_000;
  for (let n = 0; n < lines; n++) {
    const [, , identity, method, target, protocol, status, bytes, referrer, agent] = templates[Math.floor(random() * templates.length)] as RegExpExecArray;
    // Popular visitors and pages come back more often (a rough Zipf).
    const visitor = Math.floor(VISITORS * random() ** 2);
    const page = Math.floor(PAGES * random() ** 3);
    const ip = `${11 + (visitor % 200)}.${(visitor >> 8) & 255}.${visitor & 255}.${(visitor * 7) & 255}`;
    const isPerson = /^Mozilla\/5\.0 \((?:Macintosh|X11|iPhone|Windows)/.test(agent as string) && !/bot|Google/i.test(agent as string);
    const userAgent = isPerson ? people[visitor % people.length] : random() < 0.5 ? bots[visitor % bots.length] : agent;
    const pagePath = (target as string).replace(/^\/docs\/[^.?]+/, `/docs/section-${page % 40}/page-${page}`);
    const time = clfTime(start + Math.floor((n / lines) * DAYS * 86_400_000));
    const line = `${ip} ${identity} [${time}] "${method} ${pagePath} ${protocol}" ${status} ${bytes} "${referrer}" "${userAgent}"\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

