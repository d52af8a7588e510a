/** A count and its noun in the number the count takes: "1 view", "2 views", "1,234 lines". */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? singular : plural}`;
}
