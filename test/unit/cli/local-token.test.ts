import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { candidateDataDirs, localOperatorToken } from "../../../src/cli/local-token.js";

function dataDir(root: string, name: string, token: string, port?: number): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "admin-token"), `${token}\n`);
  if (port !== undefined) writeFileSync(path.join(dir, "inkwell.lock"), JSON.stringify({ pid: 1, host: "h", port, startedAt: "2026-11-24T00:00:00Z" }));
  return dir;
}

describe("the operator token of a server on this machine", () => {
  const root = mkdtempSync(path.join(tmpdir(), "inkwell-local-token-"));
  const packageRoot = path.join(root, "checkout");
  const elsewhere = path.join(root, "somewhere", "else");
  mkdirSync(elsewhere, { recursive: true });

  it("is found from any directory in the checkout's ./data, where `npm start` keeps it", () => {
    dataDir(packageRoot, "data", "token-of-the-checkout", 3000);
    expect(localOperatorToken("http://localhost:3000", {}, elsewhere, packageRoot)).toBe("token-of-the-checkout");
  });

  it("prefers the data directory whose lock says it serves the URL's port", () => {
    dataDir(root, "custom", "token-of-port-4000", 4000);
    const env = { DATA_DIR: path.join(root, "custom") };
    expect(localOperatorToken("http://127.0.0.1:4000", env, elsewhere, packageRoot)).toBe("token-of-port-4000");
    expect(localOperatorToken("http://127.0.0.1:3000", env, elsewhere, packageRoot)).toBe("token-of-the-checkout");
  });

  it("is never read for a server on another machine", () => {
    expect(localOperatorToken("https://inkwell.acme.dev", {}, elsewhere, packageRoot)).toBeUndefined();
  });

  it("looks in DATA_DIR, then ./data, then the checkout, each once", () => {
    expect(candidateDataDirs({ DATA_DIR: "store" }, "/srv/x", "/srv/x")).toEqual(["/srv/x/store", "/srv/x/data"]);
  });
});
