import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** One request the App made to the fake, with the endpoint (one per server process) it came through. */
export interface AppCall {
  endpoint: number;
  at: number;
  method: string;
  path: string;
  body: any;
  /** Never answered (see `holdDispatchesFrom`): GitHub did not take it. */
  held?: boolean;
}

export interface FakeGitHubAppOptions {
  /** How many separate endpoints (ports) to open: give each server process its own to tell who sent what. */
  endpoints: number;
  repository: { fullName: string; id: number; defaultBranch?: string };
  /** Repository permission per login (GET …/collaborators/{login}/permission); others get 404. */
  permissions?: Record<string, string>;
  /** Called for every accepted repository_dispatch, after its 204 was written. */
  onDispatch?: (payload: { job_id: string; run_attempt: number }, call: AppCall) => void;
}

const WORKFLOW = "name: Inkwell\non:\n  repository_dispatch:\n    types: [inkwell-agent]\n";

/**
 * The slice of GitHub's REST API the Inkwell App calls (installation tokens, repository, dispatches,
 * collaborator permission, reactions, issue comments, workflows), as a GitHub Enterprise Server on
 * loopback: a server process reaches it through `GHE_HOST`/`GHE_PROTOCOL=http`, with its base under
 * `/api/v3`. Child processes cannot use nock, so this is how GitHub is faked at its HTTP edge for them.
 */
export async function startFakeGitHubApp(options: FakeGitHubAppOptions) {
  const calls: AppCall[] = [];
  /** Comment bodies by comment id, each write in order (POST then PATCHes). */
  const comments = new Map<number, { issue: number; bodies: string[] }>();
  let nextCommentId = 5_000;
  const repo = options.repository;
  const state = { holdDispatchesFrom: null as number | null };

  const handle = (endpoint: number, req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname.replace(/^\/api\/v3/, "");
    const body = raw ? JSON.parse(raw) : undefined;
    const call: AppCall = { endpoint, at: Date.now(), method: req.method ?? "", path, body };
    calls.push(call);
    const reply = (status: number, payload?: unknown) => {
      res.writeHead(status, payload === undefined ? {} : { "Content-Type": "application/json" }).end(payload === undefined ? undefined : JSON.stringify(payload));
    };
    const repoPath = `/repos/${repo.fullName}`;
    let match: RegExpExecArray | null;
    if (req.method === "POST" && (match = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path))) {
      return reply(201, { token: `ghs_fake_${match[1]}`, expires_at: new Date(Date.now() + 3_600_000).toISOString(), permissions: { contents: "write" } });
    }
    if (req.method === "GET" && path === "/app") return reply(200, { id: 123, slug: "inkwell-docs", name: "Inkwell Docs" });
    if (!path.startsWith(`${repoPath}/`) && path !== repoPath) return reply(404, { message: "Not Found" });
    const rest = path.slice(repoPath.length);
    if (req.method === "GET" && rest === "") {
      return reply(200, { id: repo.id, full_name: repo.fullName, default_branch: repo.defaultBranch ?? "main", archived: false });
    }
    if (req.method === "POST" && rest === "/dispatches") {
      if (state.holdDispatchesFrom === endpoint) {
        // GitHub is slow: the request hangs until its sender gives up or dies; nothing is dispatched.
        call.held = true;
        return;
      }
      reply(204);
      options.onDispatch?.(body.client_payload, call);
      return;
    }
    if (req.method === "GET" && (match = /^\/collaborators\/([^/]+)\/permission$/.exec(rest))) {
      const permission = options.permissions?.[decodeURIComponent(match[1] as string)];
      if (!permission) return reply(404, { message: "Not Found" });
      return reply(200, { permission, role_name: permission, user: { login: match[1] } });
    }
    if (req.method === "POST" && /^\/(issues|pulls)\/comments\/\d+\/reactions$/.test(rest)) return reply(201, { id: 1, content: body?.content });
    if (req.method === "POST" && (match = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      const id = ++nextCommentId;
      comments.set(id, { issue: Number(match[1]), bodies: [String(body.body)] });
      return reply(201, { id, body: body.body });
    }
    if (req.method === "PATCH" && (match = /^\/issues\/comments\/(\d+)$/.exec(rest))) {
      const comment = comments.get(Number(match[1]));
      if (!comment) return reply(404, { message: "Not Found" });
      comment.bodies.push(String(body.body));
      return reply(200, { id: Number(match[1]), body: body.body });
    }
    if (req.method === "GET" && rest === "/actions/workflows") {
      return reply(200, { total_count: 1, workflows: [{ id: 1, name: "Inkwell", path: ".github/workflows/inkwell.yml", state: "active" }] });
    }
    if (req.method === "GET" && rest === `/contents/${encodeURIComponent(".github/workflows/inkwell.yml")}`) {
      return reply(200, { type: "file", path: ".github/workflows/inkwell.yml", encoding: "base64", content: Buffer.from(WORKFLOW).toString("base64") });
    }
    reply(404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" });
  };

  const servers: Server[] = [];
  const hosts: string[] = [];
  for (let endpoint = 0; endpoint < options.endpoints; endpoint++) {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => handle(endpoint, req, res, Buffer.concat(chunks).toString("utf8")));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    servers.push(server);
    hosts.push(`127.0.0.1:${typeof address === "object" && address ? address.port : 0}`);
  }

  return {
    calls,
    comments,
    /** Leaves repository_dispatch requests through this endpoint unanswered (null: answer all). */
    holdDispatchesFrom(endpoint: number | null) {
      state.holdDispatchesFrom = endpoint;
    },
    /** Environment that points a server process at endpoint `i`. */
    env: (i: number) => ({ GHE_HOST: hosts[i] as string, GHE_PROTOCOL: "http" }),
    close: () => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))),
  };
}
