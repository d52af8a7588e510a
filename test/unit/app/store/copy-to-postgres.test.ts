import { describe, expect, it } from "vitest";
import { parsePostgresUrl, redactUrl } from "../../../../src/app/store/copy-to-postgres.js";

describe("the --to URL of store copy", () => {
  it("takes postgres:// and postgresql:// URLs, with options such as a search_path", () => {
    expect(parsePostgresUrl("postgres://inkwell:secret@db.example.com:5432/inkwell").hostname).toBe("db.example.com");
    expect(parsePostgresUrl("postgresql://localhost/inkwell?sslmode=require").searchParams.get("sslmode")).toBe("require");
    expect(parsePostgresUrl("postgres://u@h/db?options=-c%20search_path%3Dinkwell").searchParams.get("options")).toBe("-c search_path=inkwell");
  });

  it("refuses anything else, saying what a good one looks like", () => {
    expect(() => parsePostgresUrl(undefined)).toThrow(/Missing --to: .*--to postgres:\/\//);
    expect(() => parsePostgresUrl("db.example.com/inkwell")).toThrow(/--to is not a URL: .*postgres:\/\/user:password@host:5432\/database/);
    expect(() => parsePostgresUrl("mysql://db.example.com/inkwell")).toThrow(/--to must be a postgres:\/\/ or postgresql:\/\/ URL, not mysql:/);
    expect(() => parsePostgresUrl("https://db.example.com/")).toThrow(/not https:/);
  });

  it("never prints the password", () => {
    expect(redactUrl(new URL("postgres://inkwell:s3cret@db:5432/inkwell"))).toBe("postgres://inkwell:***@db:5432/inkwell");
    expect(redactUrl(new URL("postgres://db/inkwell"))).toBe("postgres://db/inkwell");
  });
});
