import { createHash } from "node:crypto";

/** Identical lines further apart than this many distinct lines are taken to be the same line re-read, not a second request. */
export const OCCURRENCE_MEMORY = 10_000;

/**
 * How many identical lines came before each line of one log file: the occurrence in its hit id
 * (`lineHitId`). Lines are remembered by a short hash, so `--follow` can keep the counters in its
 * state file and resume them: the ids stay those a one-off import of the same file would send.
 */
export class LineOccurrences {
  readonly #seen: Map<string, number>;

  constructor(entries: Iterable<[string, number]> = []) {
    this.#seen = new Map(entries);
  }

  /** The occurrence of this line (0 for the first), counting it. */
  next(line: string): number {
    const key = createHash("sha256").update(line).digest("base64url").slice(0, 12);
    const occurrence = this.#seen.get(key) ?? 0;
    this.#seen.set(key, occurrence + 1);
    if (this.#seen.size > OCCURRENCE_MEMORY) this.#seen.delete(this.#seen.keys().next().value as string);
    return occurrence;
  }

  /** Oldest first, `key` or `key*count`, space-separated: compact, since the state file is rewritten after every batch. */
  serialize(): string {
    return Array.from(this.#seen, ([key, count]) => (count === 1 ? key : `${key}*${count}`)).join(" ");
  }

  static parse(text: string): LineOccurrences {
    const entries = text === "" ? [] : text.split(" ").map((entry): [string, number] => {
      const [key = "", count = "1"] = entry.split("*");
      return [key, Number(count)];
    });
    return new LineOccurrences(entries);
  }
}
