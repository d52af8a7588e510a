import { SLOW_DEADLINE_MS } from "./eventually.js";
import { startServerProcess, type ServerProcess } from "./process.js";

/** Several server processes over one store, called round-robin as a load balancer would. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
  /** The instance that answered. */
  via: number;
}

/** The request never got an answer: `refused` means it never reached a server (safe to send elsewhere). */
export class NoAnswer extends Error {
  constructor(
    readonly refused: boolean,
    message: string,
  ) {
    super(message);
  }
}

export interface CallInit {
  token?: string;
  body?: unknown;
  /** Sent as is (a signed webhook body). */
  raw?: string;
  headers?: Record<string, string>;
}

const refusedCodes = new Set(["ECONNREFUSED"]);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export class Cluster {
  readonly instances: { env: Record<string, string>; server: ServerProcess }[] = [];
  /** Output of instances that were killed or restarted, so their errors are not lost. */
  readonly #pastOutput: string[] = [];
  /** Requests that got no answer (and were sent elsewhere, or counted as ambiguous). */
  unanswered = 0;
  #next = 0;

  static async start(envs: Record<string, string>[]): Promise<Cluster> {
    const cluster = new Cluster();
    const servers = await Promise.all(envs.map((env) => startServerProcess(env)));
    servers.forEach((server, i) => cluster.instances.push({ env: envs[i] as Record<string, string>, server }));
    return cluster;
  }

  /** Every error (pino level ≥ 50) any instance logged, past and present: a failing test shows them. */
  errorLines(): string[] {
    const outputs = [...this.#pastOutput, ...this.instances.map(({ server }) => server.output())];
    return outputs.flatMap((output) => output.split("\n").filter((line) => /"level":(5\d|60)/.test(line)));
  }

  get size(): number {
    return this.instances.length;
  }

  /** Round-robin over every instance, dead or alive: a balancer does not know either. */
  pick(): number {
    return this.#next++ % this.instances.length;
  }

  url(i: number): string {
    return (this.instances[i] as { server: ServerProcess }).server.url;
  }

  async kill(i: number): Promise<void> {
    const { server } = this.instances[i] as { server: ServerProcess };
    server.child.kill("SIGKILL");
    await server.exited;
  }

  /** Starts instance `i` again with the same environment (a new port: PORT is 0). */
  async restart(i: number): Promise<void> {
    const instance = this.instances[i] as { env: Record<string, string>; server: ServerProcess };
    this.#pastOutput.push(instance.server.output());
    instance.server = await startServerProcess(instance.env);
  }

  async call(i: number, method: string, path: string, init: CallInit = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    let body = init.raw;
    if (init.body !== undefined) body = JSON.stringify(init.body);
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let text: string;
    let response: Response;
    try {
      response = await fetch(this.url(i) + path, { method, headers, body: body ?? null, signal: AbortSignal.timeout(20_000) });
      text = await response.text();
    } catch (error) {
      const code = causeCode(error);
      throw new NoAnswer(code !== undefined && refusedCodes.has(code), `${method} ${path} via instance ${i}: ${code ?? String(error)}`);
    }
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text for the assertion to show.
    }
    return { status: response.status, body: parsed, headers: response.headers, via: i };
  }

  /**
   * Sends through the next instance; when no answer comes (or the instance is still starting), tries
   * the next one. `retry: "always"` is for idempotent requests; `"refused"` retries only requests
   * that never reached a server and returns "ambiguous" when one may have been taken unanswered.
   */
  async send(method: string, path: string, init: CallInit, retry: "always" | "refused" = "always"): Promise<Answer | "ambiguous"> {
    const deadline = Date.now() + SLOW_DEADLINE_MS;
    for (;;) {
      const i = this.pick();
      try {
        const answer = await this.call(i, method, path, init);
        if (answer.status !== 503 || answer.body?.status !== "starting") return answer;
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
        this.unanswered++;
        if (retry === "refused" && !error.refused) return "ambiguous";
        if (Date.now() > deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** `send` for idempotent requests: always an answer. */
  async sendIdempotent(method: string, path: string, init: CallInit = {}): Promise<Answer> {
    return (await this.send(method, path, init, "always")) as Answer;
  }

  async stop(): Promise<void> {
    for (const { server } of this.instances) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
    await Promise.all(this.instances.map(({ server }) => server.exited));
  }
}

/** Runs `work(i)` for i in [0, count) with at most `limit` at a time. */
export async function pool(count: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, count) }, async () => {
    while (next < count) await work(next++);
  });
  await Promise.all(lanes);
}
