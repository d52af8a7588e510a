/** Compiles a glob (`*`, `**`, `?`, `{a,b}`) to a RegExp over forward-slash paths. */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        source += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else source += "[^/]*";
    } else if (c === "?") source += "[^/]";
    else if (c === "{") {
      const end = glob.indexOf("}", i);
      if (end === -1) source += "\\{";
      else {
        source += `(?:${glob
          .slice(i + 1, end)
          .split(",")
          .map((part) => part.replace(/[.+^$()|[\]\\{}]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]"))
          .join("|")})`;
        i = end;
      }
    } else source += c.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  // A pattern without a slash matches the file name anywhere, as in .gitignore.
  return glob.includes("/") ? new RegExp(`^${source}$`) : new RegExp(`(?:^|/)${source}$`);
}
