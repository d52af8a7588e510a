import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";

/**
 * A local stand-in for Anthropic's Messages API (`POST /v1/messages`) that counts and caches the
 * way Anthropic documents it, so a benchmark can read what a run would be billed:
 * - the prompt is tools, then system, then messages, as content blocks in that order;
 * - a `cache_control` breakpoint caches the prefix up to and including its block (at least 1,024
 *   tokens, as for Sonnet); a later request reads the longest cached prefix that ends at one of
 *   its breakpoints or at one of the 20 blocks before it;
 * - usage says `input_tokens` (not read, not written), `cache_creation_input_tokens` and
 *   `cache_read_input_tokens`, billed at 1×, 1.25× and 0.1× the input price.
 * Tokens are counted as one per four characters of each block's JSON: not Anthropic's tokenizer,
 * but the same count for the same bytes, which is all caching and budgets depend on.
 */
export interface AnthropicTurn {
  /** The model's answer for this request: a tool call or a final text. */
  answer: { tool: string; input: Record<string, unknown> } | { text: string };
}

export interface BilledCall {
  promptTokens: number;
  inputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  outputTokens: number;
}

const MIN_CACHEABLE_TOKENS = 1_024;
const LOOKBACK_BLOCKS = 20;

const tokensOf = (block: unknown) => {
  const { cache_control: _ignored, ...rest } = block as Record<string, unknown>;
  return Math.ceil(JSON.stringify(rest).length / 4);
};

export async function startFakeAnthropic(script: (request: { messages: unknown[] }, call: number) => AnthropicTurn, options: { caching?: boolean } = {}) {
  const caching = options.caching ?? true;
  const cache = new Set<string>();
  const calls: BilledCall[] = [];
  const server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as { system?: unknown[]; tools?: unknown[]; messages: Array<{ role: string; content: unknown[] | string }> };
    const blocks: unknown[] = [...(body.tools ?? []), ...(body.system ?? [])];
    for (const message of body.messages) {
      const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
      for (const block of content) blocks.push({ role: message.role, ...(block as object) });
    }
    // Running prefix hashes and token sums: prefix i covers blocks[0..i].
    const hashes: string[] = [];
    const sums: number[] = [];
    const hash = createHash("sha256");
    let sum = 0;
    for (const block of blocks) {
      const { cache_control: _ignored, ...rest } = block as Record<string, unknown>;
      hash.update(JSON.stringify(rest));
      hashes.push(hash.copy().digest("hex"));
      sum += tokensOf(block);
      sums.push(sum);
    }
    const breakpoints = caching ? blocks.flatMap((block, index) => ((block as { cache_control?: unknown }).cache_control ? [index] : [])) : [];
    let read = 0;
    for (const point of breakpoints) {
      for (let i = point; i >= Math.max(0, point - LOOKBACK_BLOCKS); i--) {
        if (cache.has(hashes[i] as string)) {
          read = Math.max(read, sums[i] as number);
          break;
        }
      }
    }
    let writtenUpTo = read;
    for (const point of breakpoints) {
      const tokens = sums[point] as number;
      if (tokens < MIN_CACHEABLE_TOKENS || cache.has(hashes[point] as string)) continue;
      cache.add(hashes[point] as string);
      writtenUpTo = Math.max(writtenUpTo, tokens);
    }
    const promptTokens = sum;
    const call: BilledCall = { promptTokens, cacheReadTokens: read, cacheWriteTokens: writtenUpTo - read, inputTokens: promptTokens - writtenUpTo, outputTokens: 40 };
    calls.push(call);
    const turn = script({ messages: body.messages }, calls.length - 1);
    const content = "text" in turn.answer ? [{ type: "text", text: turn.answer.text }] : [{ type: "tool_use", id: `toolu_${calls.length}`, name: turn.answer.tool, input: turn.answer.input }];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: `msg_${calls.length}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5-20250929",
        content,
        stop_reason: "text" in turn.answer ? "end_turn" : "tool_use",
        stop_sequence: null,
        usage: { input_tokens: call.inputTokens, cache_creation_input_tokens: call.cacheWriteTokens, cache_read_input_tokens: call.cacheReadTokens, output_tokens: call.outputTokens },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/v1`,
    calls,
    /** Input tokens in units of the plain input price: cache writes 1.25×, reads 0.1×. */
    billedInputTokens: () => calls.reduce((total, c) => total + c.inputTokens + 1.25 * c.cacheWriteTokens + 0.1 * c.cacheReadTokens, 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.on("data", (chunk: Buffer) => (data += chunk.toString()));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}
