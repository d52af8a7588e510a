import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { csvCell, csvChunks, csvFields, csvFilename, csvHeader, csvLine, csvReply, requestedPage, wantsCsv, type CsvColumns } from "../../../../src/app/http-kit/csv.js";
import { parseCsv } from "../../../helpers/csv.js";

const collect = async (chunks: AsyncIterable<string | Uint8Array>) => {
  let text = "";
  for await (const chunk of chunks) text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
  return text;
};

async function* slowly<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((resolve) => setImmediate(resolve));
    yield item;
  }
}

type Row = { path: string; views: number; note?: string | null };
const COLUMNS: CsvColumns<Row> = [...csvFields<Row>("path", "views"), ["note", (r) => r.note]];

describe("csvCell", () => {
  it("leaves plain text and numbers as they are", () => {
    expect(csvCell("/guide/install")).toBe("/guide/install");
    expect(csvCell(42)).toBe("42");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(true)).toBe("true");
  });

  it("quotes a cell with a comma, a double quote, CR or LF, doubling the quotes (RFC 4180)", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('"')).toBe('""""');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvCell("line\r\nbreak")).toBe('"line\r\nbreak"');
  });

  it.each(["=", "+", "-", "@", "\t", "\r"])("prefixes text starting with %j with ' so no spreadsheet runs it as a formula", (start) => {
    const cell = csvCell(`${start}HYPERLINK("https://evil.example","x")`);
    // The cell's value (after CSV unquoting) starts with the apostrophe.
    expect(parseCsv(`${cell}\r\n`)[0]![0]).toBe(`'${start}HYPERLINK("https://evil.example","x")`);
  });

  it("prefixes before quoting, and only at the start of the text", () => {
    expect(csvCell("=1+2")).toBe("'=1+2");
    expect(csvCell("=SUM(A1,A2)")).toBe(`"'=SUM(A1,A2)"`);
    expect(csvCell("/=HYPERLINK(1)")).toBe("/=HYPERLINK(1)");
    expect(csvCell("a=b")).toBe("a=b");
    expect(csvCell(" =1")).toBe(" =1");
  });

  it("writes numbers, negative ones too, without a prefix: they are values, not text", () => {
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(1.5)).toBe("1.5");
  });

  it("writes nothing for null, undefined and the empty string", () => {
    expect([csvCell(null), csvCell(undefined), csvCell("")]).toEqual(["", "", ""]);
    expect(csvLine(["a", null, undefined, "", 0])).toBe("a,,,,0\r\n");
  });

  it("keeps any Unicode text as it is (encoded as UTF-8 on the wire)", () => {
    for (const text of ["/日本語/ドキュメント", "/emoji-😀", "/\u202Ertl", "/zero\u200Bwidth", "/é"]) expect(csvCell(text)).toBe(text);
    expect(Buffer.from(csvLine(["/é", "😀"]), "utf8")).toEqual(Buffer.from([0x2f, 0xc3, 0xa9, 0x2c, 0xf0, 0x9f, 0x98, 0x80, 0x0d, 0x0a]));
  });
});

describe("csvChunks", () => {
  it("writes the header line, then one CRLF-ended line per row, in the rows' order", async () => {
    const rows: Row[] = [
      { path: "/a", views: 3, note: "x" },
      { path: "/b,c", views: 2, note: null },
      { path: '/"q"', views: 1 },
    ];
    const text = await collect(csvChunks(rows, COLUMNS));
    expect(text).toBe('path,views,note\r\n/a,3,x\r\n"/b,c",2,\r\n"/""q""",1,\r\n');
    expect(parseCsv(text)).toEqual([["path", "views", "note"], ["/a", "3", "x"], ["/b,c", "2", ""], ['/"q"', "1", ""]]);
  });

  it("is only the header line when there are no rows", async () => {
    expect(await collect(csvChunks([], COLUMNS))).toBe("path,views,note\r\n");
  });

  it("reads an async source and joins rows into chunks of about the given size, the header in the first", async () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ path: `/page-${i}`, views: i }));
    const chunks: string[] = [];
    for await (const chunk of csvChunks(slowly(rows), COLUMNS, 1_000)) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks[0]!.startsWith("path,views,note\r\n/page-0,0,\r\n")).toBe(true);
    // Each chunk ends a line, and none is much over the size asked for (one line at most).
    for (const chunk of chunks) {
      expect(chunk.endsWith("\r\n")).toBe(true);
      expect(chunk.length).toBeLessThan(1_000 + 30);
    }
    expect(parseCsv(chunks.join("")).slice(1)).toEqual(rows.map((r) => [r.path, String(r.views), ""]));
  });

  it("stops reading the source when the reader stops", async () => {
    let read = 0;
    let closed = false;
    async function* source() {
      try {
        for (let i = 0; ; i++) {
          read++;
          yield { path: `/p${i}`, views: i };
        }
      } finally {
        closed = true;
      }
    }
    for await (const chunk of csvChunks(source(), COLUMNS, 100)) if (chunk) break;
    expect(closed).toBe(true);
    expect(read).toBeLessThan(20);
  });
});

describe("wantsCsv", () => {
  const req = (accept?: string) => ({ headers: accept === undefined ? {} : { accept } }) as IncomingMessage;

  it("follows output when the query gives it, whatever Accept says", () => {
    expect(wantsCsv(req("application/json"), "csv")).toBe(true);
    expect(wantsCsv(req("text/csv"), "json")).toBe(false);
  });

  it.each([
    [undefined, false],
    ["", false],
    ["*/*", false],
    ["text/*", false],
    ["application/json", false],
    ["text/csv", true],
    ["TEXT/CSV; charset=utf-8", true],
    ["application/json, text/csv", false],
    ["text/csv, application/json", false],
    ["text/csv;q=0.5, application/json", false],
    ["application/json;q=0.5, text/csv", true],
    ["application/json;q=0.9, text/csv;q=1.0", true],
    ["text/csv;q=0", false],
    ["text/csv;q=abc", false],
    ["text/html, text/csv;q=0.8, */*;q=0.1", true],
  ])("Accept %j: CSV %s", (accept, csv) => {
    expect(wantsCsv(req(accept), undefined)).toBe(csv);
  });
});

describe("export helpers", () => {
  it("asks for a page only when the query names limit or offset itself", () => {
    const page = { limit: 50, offset: 0 };
    expect(requestedPage(new URL("http://x/r?dateFrom=2026-01-01"), page)).toBeNull();
    expect(requestedPage(new URL("http://x/r?limit=50"), page)).toEqual(page);
    expect(requestedPage(new URL("http://x/r?offset=0"), page)).toEqual(page);
  });

  it("states the header line of a column list", () => {
    expect(csvHeader(COLUMNS)).toBe("path,views,note");
  });

  it("makes file names of safe characters only", () => {
    expect(csvFilename(["visitors", "p1", "2026-01-01", "end"])).toBe("visitors-p1-2026-01-01-end.csv");
    expect(csvFilename(['agent-markdown fetch (curl)"/../x-pages', "p1"])).toBe("agent-markdown-fetch-curl-..-x-pages-p1.csv");
  });

  it("replies text/csv as an attachment, streaming the page asked for and closing the source after it", async () => {
    let closed = false;
    async function* source() {
      try {
        for (let i = 0; i < 1_000; i++) yield { path: `/p${i}`, views: i };
      } finally {
        closed = true;
      }
    }
    const reply = csvReply(source(), COLUMNS, { filename: "views-p1-start-end.csv", page: { limit: 3, offset: 2 }, headers: { Vary: "Accept" } });
    expect(reply.status).toBe(200);
    expect(reply.headers).toEqual({ "Content-Disposition": 'attachment; filename="views-p1-start-end.csv"', Vary: "Accept" });
    expect(reply.stream?.contentType).toBe("text/csv; charset=utf-8");
    expect(await collect(reply.stream!.chunks)).toBe("path,views,note\r\n/p2,2,\r\n/p3,3,\r\n/p4,4,\r\n");
    expect(closed).toBe(true);
  });
});
