import { describe, expect, it } from "vitest";
import { dailyColumns, PAGE_COLUMNS } from "../../../../../src/app/dashboard/analytics/csv-exports.js";
import { csvChunks } from "../../../../../src/app/http-kit/csv.js";

const text = async (chunks: AsyncIterable<string>) => {
  let out = "";
  for await (const chunk of chunks) out += chunk;
  return out;
};

describe("dashboard CSV downloads", () => {
  it("write the pages table through the shared writer: quoted as needed, never a formula, people from AI answers last", async () => {
    const rows = [
      { path: "/docs/a,b", human: 3, ai: 1, bot: 2, total: 4, fromAi: 1 },
      { path: '/say "hi"', human: 1, ai: 0, bot: 0, total: 1, fromAi: 0 },
      { path: '=HYPERLINK("http://evil")', human: 1, ai: 0, bot: 0, total: 1, fromAi: 0 },
      { path: "-1+2", human: 0, ai: 1, bot: 0, total: 1, fromAi: 0 },
    ];
    expect((await text(csvChunks(rows, PAGE_COLUMNS))).split("\r\n")).toEqual([
      "path,human,ai,total,bot,from_ai_answers",
      '"/docs/a,b",3,1,4,2,1',
      '"/say ""hi""",1,0,1,0,0',
      `"'=HYPERLINK(""http://evil"")",1,0,1,0,0`,
      "'-1+2,0,1,1,0,0",
      "",
    ]);
  });

  it("add the previous period's aligned day to the daily numbers only when comparing", async () => {
    const point = { date: "2026-03-02", human: 2, ai: 1, bot: 0, total: 3, previous: { human: 1, ai: 0, bot: 4, total: 1 }, previousDate: "2026-02-23" };
    expect(await text(csvChunks([point], dailyColumns(true)))).toBe(
      "date,human,ai,bot,total,previous_date,previous_human,previous_ai,previous_bot,previous_total\r\n2026-03-02,2,1,0,3,2026-02-23,1,0,4,1\r\n",
    );
    expect(await text(csvChunks([point], dailyColumns(false)))).toBe("date,human,ai,bot,total\r\n2026-03-02,2,1,0,3\r\n");
  });
});
