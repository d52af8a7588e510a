import { hash } from "node:crypto";

/** Identical lines further apart than this many distinct lines are taken to be the same line re-read, not a second request. */
export const OCCURRENCE_MEMORY = 10_000;

/**
 * How many identical lines came before each line of one log file: the occurrence in its hit id
 * (`lineHitId`). Lines are remembered by a short hash, so `--follow` can keep the counters in its
 * state file and resume them: the ids stay those a one-off import of the same file would send.
 */
export class LineOccurrences {
  readonly #seen: Map<string, number>;
  /**
   * The keys in the order they were first seen, the oldest at `#oldest`: forgetting the oldest
   * through the map's own iterator walks past every entry deleted before it, which made each line
   * cost time in proportion to the memory.
   */
  readonly #order: string[];
  #oldest = 0;

  constructor(entries: Iterable<[string, number]> = []) {
    this.#seen = new Map(entries);
    this.#order = [...this.#seen.keys()];
  }

  /** The occurrence of this line (0 for the first), counting it. */
  next(line: string): number {
    const key = hash("sha256", line, "base64url").slice(0, 12);
    const occurrence = this.#seen.get(key) ?? 0;
    this.#seen.set(key, occurrence + 1);
    if (occurrence === 0) this.#order.push(key);
    if (this.#seen.size > OCCURRENCE_MEMORY) this.#forgetOldest();
    return occurrence;
  }

  #forgetOldest(): void {
    this.#seen.delete(this.#order[this.#oldest++] as string);
    if (this.#oldest >= OCCURRENCE_MEMORY) {
      this.#order.splice(0, this.#oldest);
      this.#oldest = 0;
    }
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
