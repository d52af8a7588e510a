/** Tells the client that views accepted before its request are still being counted (e.g. during a big import). */
export const countingHeader = (pending: boolean): Record<string, string> => (pending ? { "Inkwell-Counting": "pending" } : {});
