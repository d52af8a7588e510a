import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";

export interface ModelOptions {
  apiKey: string | null;
  baseUrl: string | null;
  fetch?: typeof fetch;
}

export const PROVIDERS = ["anthropic", "openai", "openai-compatible"] as const;

/** `provider/model` (e.g. anthropic/claude-sonnet-4-5) to an AI SDK model, or an error saying what to fix. */
export function resolveModel(spec: string, options: ModelOptions): LanguageModelV3 {
  const slash = spec.indexOf("/");
  const provider = slash > 0 ? spec.slice(0, slash) : "";
  const modelId = spec.slice(slash + 1).trim();
  if (slash <= 0 || !modelId) throw new Error(`model '${spec}' must be <provider>/<model> with provider one of ${PROVIDERS.join(", ")}`);
  const common = { fetch: options.fetch, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}) };
  switch (provider) {
    case "anthropic":
      return createAnthropic({ ...common, apiKey: requireKey(options, "anthropic") })(modelId);
    case "openai":
      return createOpenAI({ ...common, apiKey: requireKey(options, "openai") })(modelId);
    case "openai-compatible": {
      if (!options.baseUrl) throw new Error("openai-compatible models need the `base-url` input (your server's OpenAI-compatible endpoint, e.g. http://host:8000/v1)");
      return createOpenAICompatible({ name: "openai-compatible", baseURL: options.baseUrl, fetch: options.fetch, ...(options.apiKey ? { apiKey: options.apiKey } : {}) }).chatModel(modelId);
    }
    default:
      throw new Error(`model provider '${provider}' is not supported: use one of ${PROVIDERS.join(", ")}`);
  }
}

function requireKey(options: ModelOptions, provider: string): string {
  if (!options.apiKey) throw new Error(`the \`api-key\` input is empty: pass your ${provider} API key from the repository's secrets`);
  return options.apiKey;
}
