import { describe, expect, it } from "vitest";
import { readInputs, type InputName } from "../../../src/action/inputs.js";

const read = (values: Partial<Record<InputName, string>>) => readInputs((name) => values[name] ?? "");

describe("Action inputs", () => {
  it("applies action.yml's defaults and turns empty optional inputs into null", () => {
    expect(read({ "inkwell-url": "https://inkwell.acme.test" })).toEqual({
      inkwellUrl: "https://inkwell.acme.test",
      model: null,
      apiKey: null,
      baseUrl: null,
      docsDir: null,
      maxTurns: 40,
      maxOutputTokens: 64_000,
      timeoutMinutes: 30,
      draft: false,
      contextBudget: null,
      checkCommand: null,
      checkTimeoutMinutes: 10,
      frameworkCheck: true,
    });
  });

  it("reads every input", () => {
    expect(
      read({ "inkwell-url": "http://10.0.0.5:3000", model: "openai-compatible/qwen3-coder", "api-key": "k", "base-url": "http://llm:8000/v1", "docs-dir": "site/docs/", "max-turns": "12", "max-output-tokens": "9000", "timeout-minutes": "7.5", draft: "TRUE", "context-budget": "50000", "framework-check": "False" }),
    ).toMatchObject({ frameworkCheck: false,  model: "openai-compatible/qwen3-coder", baseUrl: "http://llm:8000/v1", docsDir: "site/docs", maxTurns: 12, maxOutputTokens: 9000, timeoutMinutes: 7.5, draft: true, contextBudget: 50_000 });
  });

  it.each([
    [{ "inkwell-url": "ftp://x" }, "inkwell-url must be an http(s) URL"],
    [{ model: "claude" }, "model must look like anthropic/<model>"],
    [{ "base-url": "llm:8000" }, "base-url must be an http(s) URL"],
    [{ "docs-dir": "../elsewhere" }, "docs-dir must be a path inside the repository"],
    [{ "docs-dir": "/abs" }, "docs-dir must be a path inside the repository"],
    [{ "max-turns": "ten" }, "max-turns must be a whole number"],
    [{ "max-turns": "501" }, "max-turns must be at most 500"],
    [{ "max-output-tokens": "0" }, "max-output-tokens must be at least 1"],
    [{ "timeout-minutes": "0" }, "timeout-minutes must be more than 0"],
    [{ draft: "yes" }, "draft must be true or false"],
    [{ "check-timeout-minutes": "0" }, "check-timeout-minutes must be more than 0"],
    [{ "framework-check": "sometimes" }, "framework-check must be true or false"],
    [{ "context-budget": "lots" }, "context-budget must be a whole number of tokens"],
    [{ "context-budget": "500" }, "context-budget must be at least 1000 tokens"],
  ])("refuses %j", (values, message) => {
    expect(() => read({ "inkwell-url": "https://inkwell.acme.test", ...values })).toThrow(message);
  });
});
