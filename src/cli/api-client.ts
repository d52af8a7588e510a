import { CliError } from "./errors.js";

export interface ApiClientOptions {
  baseUrl: string;
  fetch: typeof fetch;
}

export type Credential = { kind: "operator"; token: string | undefined } | { kind: "project"; key: string | undefined };

/** HTTP client of the Inkwell API for the CLI. Errors carry the server's message. */
export class ApiClient {
  constructor(private readonly options: ApiClientOptions) {}

  async request<T>(method: string, path: string, credential: Credential, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    const response = await this.#send(method, path, credential, {
      headers: { Accept: "application/json", ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}), ...init.headers },
      body: init.body !== undefined ? JSON.stringify(init.body) : null,
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      throw new CliError(`Inkwell answered ${response.status} with a body that is not JSON: is ${this.options.baseUrl} an Inkwell server?`);
    }
    if (!response.ok) throw apiError(response, body);
    return body as T;
  }

  /** A GET whose answer is not JSON (a CSV export), to read as it arrives; the server's errors as `request` reports them. */
  async download(path: string, credential: Credential, accept: string): Promise<AsyncIterable<Uint8Array>> {
    const response = await this.#send("GET", path, credential, { headers: { Accept: accept }, body: null });
    if (!response.ok) {
      const text = await response.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // Not an Inkwell error body: the status says what there is to say.
      }
      throw apiError(response, body);
    }
    return response.body ?? (async function* () {})();
  }

  async #send(method: string, path: string, credential: Credential, init: { headers: Record<string, string>; body: string | null }): Promise<Response> {
    const secret = credential.kind === "operator" ? credential.token : credential.key;
    if (!secret) {
      throw new CliError(
        credential.kind === "operator"
          ? "No operator token: pass --token or set INKWELL_ADMIN_TOKEN (on the server's machine it is in DATA_DIR/admin-token)"
          : "No project API key: pass --key or set INKWELL_API_KEY (create one with `inkwell keys create --project ID`)",
        2,
      );
    }
    try {
      return await this.options.fetch(new URL(path, this.options.baseUrl), { method, headers: { Authorization: `Bearer ${secret}`, ...init.headers }, body: init.body });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new CliError(`Cannot reach Inkwell at ${this.options.baseUrl} (${cause}). Is the server running? Set --url or INKWELL_URL.`);
    }
  }

  /** What `GET /` says of the server (no credential needed); null when it cannot say. */
  async serverInfo(): Promise<ServerInfo | null> {
    try {
      const response = await this.options.fetch(new URL("/", this.options.baseUrl), { headers: { Accept: "application/json" } });
      return response.ok ? ((await response.json()) as ServerInfo) : null;
    } catch {
      return null;
    }
  }
}

/** What `GET /` says of the server that the CLI reads: what it lacks to run jobs on each forge. */
export interface ServerInfo {
  forges?: Partial<Record<string, { missing: { what: string; setupUrl: string } | null }>>;
}

/** The server's error, with the details its message does not already say and when to retry. */
function apiError(response: Response, body: unknown): CliError {
  const apiError = body as { error?: string; details?: { message: string }[] } | null;
  // The error already lists the details of a validation failure; print only what it does not say.
  const details = apiError?.details?.filter((d) => !apiError.error?.includes(d.message)).map((d) => `  - ${d.message}`).join("\n");
  const retry = response.headers.get("retry-after");
  return new CliError(`${response.status}: ${inCliTerms(apiError?.error ?? response.statusText)}${details ? `\n${details}` : ""}${retry ? `\nRetry after ${retry} s.` : ""}`);
}

/** The API names a request's project in its path (a key of another project: "use X in the path"); the CLI's user names it with --project. */
const inCliTerms = (message: string) => message.replace(/\buse (\S+) in the path\b/, "use --project $1 (or INKWELL_PROJECT)");
