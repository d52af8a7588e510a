/**
 * What a problem is about, so the same problem is recognised on the tree before a run and after it
 * (docs/action.md, "Only what the run broke"). A problem reads `file[:line[:column]]: message`;
 * its key is the file and the message, which names what it is about (the link's URL and target,
 * the anchor, the navigation entry, the frontmatter field), without the line and column, which an
 * edit above it moves. A page that does not compile is one problem whatever the compiler says
 * first: an edit may change the first error it meets.
 */
export function problemKey(problem: string): string {
  const located = /^(.+?):\d+(?::\d+)?: (.*)$/s.exec(problem);
  const [file, message] = located ? [located[1] as string, located[2] as string] : splitUnlocated(problem);
  const compile = /^does not compile as \S+/.exec(message);
  return `${file}\0${compile ? compile[0] : message}`;
}

/** `file: message` (navigation, config): the file is up to the first ": ". */
function splitUnlocated(problem: string): [string, string] {
  const at = problem.indexOf(": ");
  return at < 0 ? ["", problem] : [problem.slice(0, at), problem.slice(at + 2)];
}

/**
 * The problems of `now` split into those the run introduced and those the site already had: as
 * many of each key as `before` had are the site's; any more are the run's. A problem only `before`
 * had is one the run fixed, and is in neither list.
 */
export function splitByKey<T>(now: T[], before: T[], keyOf: (problem: T) => string = (problem) => problemKey(String(problem))): { introduced: T[]; kept: T[] } {
  const forgiven = new Map<string, number>();
  for (const problem of before) forgiven.set(keyOf(problem), (forgiven.get(keyOf(problem)) ?? 0) + 1);
  const introduced: T[] = [];
  const kept: T[] = [];
  for (const problem of now) {
    const key = keyOf(problem);
    const left = forgiven.get(key) ?? 0;
    if (left === 0) introduced.push(problem);
    else {
      forgiven.set(key, left - 1);
      kept.push(problem);
    }
  }
  return { introduced, kept };
}
