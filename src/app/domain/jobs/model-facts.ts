import { calcPrice } from "@pydantic/genai-prices";

/**
 * The model's context window in tokens, from the same maintained `@pydantic/genai-prices` tables
 * the prices come from; null for a model they do not know. The Action sizes its prompt budget by it.
 */
export function contextWindowOf(model: string): number | null {
  const slash = model.indexOf("/");
  if (slash <= 0) return null;
  const known = calcPrice({ input_tokens: 0, output_tokens: 0 }, model.slice(slash + 1), { providerId: model.slice(0, slash) });
  return known?.model.context_window ?? null;
}
