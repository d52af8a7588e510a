/** One CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
function cell(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The per-page visitor rows as CSV (RFC 4180, CRLF line ends); other bots last, apart from total. */
export function visitorsCsv(rows: { path: string; human: number; ai: number; bot: number; total: number }[]): string {
  const lines = [["path", "human", "ai", "total", "bot"].join(",")];
  for (const row of rows) lines.push([cell(row.path), cell(row.human), cell(row.ai), cell(row.total), cell(row.bot)].join(","));
  return `${lines.join("\r\n")}\r\n`;
}
