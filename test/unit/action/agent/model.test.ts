import { describe, expect, it } from "vitest";
import { resolveModel } from "../../../../src/action/agent/model.js";

describe("model resolution", () => {
  it.each([
    ["anthropic/claude-sonnet-4-5", "anthropic.messages", "claude-sonnet-4-5"],
    ["openai/gpt-5", "openai.responses", "gpt-5"],
    ["openai-compatible/qwen3-coder:30b", "openai-compatible.chat", "qwen3-coder:30b"],
  ])("%s", (spec, provider, modelId) => {
    const model = resolveModel(spec, { apiKey: "k", baseUrl: "http://llm.internal:8000/v1" });
    expect({ provider: model.provider, modelId: model.modelId }).toEqual({ provider, modelId });
  });

  it.each([
    ["gpt-5", { apiKey: "k", baseUrl: null }, "must be <provider>/<model>"],
    ["mistral/large", { apiKey: "k", baseUrl: null }, "model provider 'mistral' is not supported"],
    ["anthropic/claude-sonnet-4-5", { apiKey: null, baseUrl: null }, "the `api-key` input is empty: pass your anthropic API key"],
    ["openai-compatible/llama", { apiKey: null, baseUrl: null }, "openai-compatible models need the `base-url` input"],
  ])("refuses %s with a message that says what to do", (spec, options, message) => {
    expect(() => resolveModel(spec, options)).toThrow(message);
  });

  it("sends requests to base-url with the key, through the given fetch", async () => {
    const seen: Array<{ url: string; auth: string | null }> = [];
    const fetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, auth: new Headers(init.headers).get("x-api-key") });
      return new Response(JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }), { status: 529, headers: { "content-type": "application/json" } });
    }) as typeof globalThis.fetch;
    const model = resolveModel("anthropic/claude-sonnet-4-5", { apiKey: "sk-ant", baseUrl: "https://gateway.acme.test/v1", fetch });
    await expect(model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })).rejects.toThrow("Overloaded");
    expect(seen).toEqual([{ url: "https://gateway.acme.test/v1/messages", auth: "sk-ant" }]);
  });
});
