import { PassThrough } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { createLogger, type LogFormat } from "../../../src/app/logger.js";

function logOnce(format: LogFormat, tty: boolean): string {
  const stream = Object.assign(new PassThrough(), { isTTY: tty });
  let out = "";
  stream.on("data", (chunk: Buffer) => (out += chunk.toString()));
  createLogger("info", format, stream).info({ url: "http://localhost:3000", token: "ink_secret" }, "Inkwell is listening");
  return out;
}

describe("log format", () => {
  it("json: one JSON object per line, the token redacted", () => {
    const line = JSON.parse(logOnce("json", true).trim());
    expect(line).toMatchObject({ msg: "Inkwell is listening", url: "http://localhost:3000", token: "[redacted]", name: "inkwell" });
  });

  it("auto: readable on a terminal, JSON when piped", () => {
    const onTerminal = stripVTControlCharacters(logOnce("auto", true));
    expect(onTerminal).toMatch(/INFO: Inkwell is listening/);
    expect(onTerminal).toContain('url: "http://localhost:3000"');
    expect(onTerminal).not.toContain("ink_secret");
    expect(() => JSON.parse(onTerminal)).toThrow();
    expect(JSON.parse(logOnce("auto", false).trim()).msg).toBe("Inkwell is listening");
  });

  it("pretty: readable even when piped, without colour codes", () => {
    const piped = logOnce("pretty", false);
    expect(piped).toMatch(/INFO: Inkwell is listening/);
    expect(piped).not.toContain("\u001b[");
  });
});
