/** `https://host/`, `docs/guides//` → without the trailing slashes (URLs are joined with a `/` of our own). */
export const withoutTrailingSlashes = (value: string): string => value.replace(/\/+$/, "");
