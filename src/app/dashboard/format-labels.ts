import type { ReadFormat } from "../../shared/analytics-vocabulary.js";

/** How the dashboard names each read format. */
export const FORMAT_LABELS: Record<ReadFormat, string> = { html: "HTML pages", markdown: "Markdown (.md, or asked for as markdown)", "llms.txt": "llms.txt", text: "Other text files" };
