import { createServer, type IncomingMessage, type Server } from "node:http";

/** What the scripted model does on one call. */
export type ModelStep =
  | { tools: Array<{ name: string; args: Record<string, unknown> }>; outputTokens?: number }
  | { text: string; outputTokens?: number }
  | { status: number; error: string; headers?: Record<string, string> }
  | { hang: true };

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }>;
  tools?: Array<{ function: { name: string } }>;
  max_tokens?: number;
}

export type Script = (request: ChatRequest, call: number) => ModelStep;

/** Steps in order; the last one repeats if the model is called again. */
export const steps =
  (...list: ModelStep[]): Script =>
  (_request, call) =>
    list[Math.min(call, list.length - 1)] as ModelStep;

/** The text of the last user message (the instructions, or the validation feedback). */
export const lastUserText = (request: ChatRequest) => {
  const last = [...request.messages].reverse().find((message) => message.role === "user");
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
};

/** Tool results the model has seen so far, in order (what the tools answered). */
export const toolResults = (request: ChatRequest) =>
  request.messages.filter((message) => message.role === "tool").map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)));

/**
 * An OpenAI-compatible chat-completions server on loopback, answering from a script: the real AI
 * SDK provider talks to it over real HTTP, so the Action's production path is the one exercised.
 */
export async function startFakeModel(script: Script) {
  const requests: ChatRequest[] = [];
  /** performance.now() when each request arrived (the benchmark's cold-start clock). */
  const arrivals: number[] = [];
  let current = script;
  const server: Server = createServer(async (req, res) => {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    arrivals.push(performance.now());
    const request = JSON.parse(await readBody(req)) as ChatRequest;
    const call = requests.push(request) - 1;
    const step = current(request, call);
    if ("hang" in step) return; // never answers: the client's timeout must fire
    if ("status" in step) {
      res.writeHead(step.status, { "Content-Type": "application/json", ...step.headers }).end(JSON.stringify({ error: { message: step.error, type: "scripted" } }));
      return;
    }
    const usage = { prompt_tokens: 100 + call, completion_tokens: step.outputTokens ?? 20, total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const message =
      "tools" in step
        ? {
            role: "assistant",
            content: null,
            tool_calls: step.tools.map((t, i) => ({ id: `call_${call}_${i}`, type: "function", function: { name: t.name, arguments: JSON.stringify(t.args) } })),
          }
        : { role: "assistant", content: step.text };
    res.writeHead(200, { "Content-Type": "application/json" }).end(
      JSON.stringify({
        id: `chatcmpl-${call}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: `${request.model}-2026-01-01`,
        choices: [{ index: 0, message, finish_reason: "tools" in step ? "tool_calls" : "stop" }],
        usage,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/v1`;
  return {
    url,
    requests,
    arrivals,
    setScript(next: Script) {
      current = next;
      requests.length = 0;
      arrivals.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
