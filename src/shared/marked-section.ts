/**
 * A generated part of a manual page lies between two markers, `[//]: # (<name>:start)` and
 * `[//]: # (<name>:end)` (comments MDX compiles and Markdown hides), so a script rewrites it and a
 * test compares it without touching the hand-written rest.
 */
export const sectionMarkers = (name: string) => ({ start: `[//]: # (${name}:start)`, end: `[//]: # (${name}:end)` });

/** Replaces what lies between the markers with `section`; throws unless each marker is there once, in order. */
export function replaceMarkedSection(page: string, name: string, section: string): string {
  const { start, end } = sectionMarkers(name);
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  const once = (marker: string) => page.split(marker).length === 2;
  if (from < 0 || to < from || !once(start) || !once(end)) throw new Error(`The page needs ${start} followed by ${end}, each once`);
  return `${page.slice(0, from + start.length)}\n${section}\n${page.slice(to)}`;
}
