import { createServer, type Server } from "node:http";

export interface FakePullRequest {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  state: "open" | "closed";
  html_url: string;
  /** The GraphQL id, as GitHub's REST payloads carry it. */
  node_id: string;
  /** Every draft/ready change made through GraphQL, in order. */
  draftChanges: boolean[];
  labels: string[];
  requestedReviewers: string[];
  requestedTeams: string[];
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  details_url: string | null;
  html_url: string;
  output: { title: string; summary: string };
  /** Every annotation sent, the create's and each update's, in order. */
  annotations: Array<{ path: string; start_line: number; end_line: number; annotation_level: string; message: string }>;
}

/** A login the fake refuses as a reviewer, as GitHub does for someone who is not a collaborator. */
export const NOT_A_COLLABORATOR = "not-a-collaborator";

/**
 * The slice of GitHub's REST API the Action uses (pulls list/create/update, the bot user), on
 * loopback with GitHub's payload shapes, so the Action's real Octokit calls it via GITHUB_API_URL.
 */
export async function startFakeGitHubRest(
  options: {
    botId?: number;
    token?: string;
    checksPermission?: boolean;
    /** Other repositories with tokens of their own (a source repository): answered first when they take the request. */
    routes?: Array<(method: string, pathname: string, authorization: string | undefined, reply: (status: number, body: unknown) => void) => boolean>;
  } = {},
) {
  const pulls: FakePullRequest[] = [];
  const checkRuns: FakeCheckRun[] = [];
  const calls: Array<{ method: string; path: string; authorization: string | undefined }> = [];
  let url = "";
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const parsed = new URL(req.url ?? "/", "http://x");
      calls.push({ method: req.method ?? "", path: parsed.pathname, authorization: req.headers.authorization });
      const reply = (status: number, body: unknown) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
      if ((options.routes ?? []).some((route) => route(req.method ?? "", parsed.pathname, req.headers.authorization, reply))) return;
      if (options.token && req.headers.authorization !== `token ${options.token}`) return reply(401, { message: "Bad credentials" });
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>) : {};
      let match: RegExpExecArray | null;
      if (req.method === "GET" && (match = /^\/users\/([^/]+)$/.exec(parsed.pathname))) {
        return reply(200, { login: decodeURIComponent(match[1] as string), id: options.botId ?? 9_000_001, type: "Bot" });
      }
      if ((match = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(parsed.pathname))) {
        const [, owner, repo] = match as unknown as [string, string, string];
        if (req.method === "GET") {
          const head = parsed.searchParams.get("head");
          return reply(200, pulls.filter((pr) => pr.state === "open" && (!head || `${owner}:${pr.head}` === head)));
        }
        if (req.method === "POST") {
          if (pulls.some((pr) => pr.state === "open" && pr.head === body.head)) return reply(422, { message: "Validation Failed: A pull request already exists" });
          const number = pulls.length + 1;
          const pr: FakePullRequest = {
            number,
            head: String(body.head),
            base: String(body.base),
            title: String(body.title),
            body: String(body.body ?? ""),
            draft: body.draft === true,
            state: "open",
            html_url: `https://github.com/${owner}/${repo}/pull/${number}`,
            node_id: `PR_kwDOfake${number}`,
            draftChanges: [],
            labels: [],
            requestedReviewers: [],
            requestedTeams: [],
          };
          pulls.push(pr);
          return reply(201, pr);
        }
      }
      if (req.method === "PATCH" && (match = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/.exec(parsed.pathname))) {
        const pr = pulls.find((candidate) => candidate.number === Number(match?.[1]));
        if (!pr) return reply(404, { message: "Not Found" });
        if (typeof body.title === "string") pr.title = body.title;
        if (typeof body.body === "string") pr.body = body.body;
        return reply(200, pr);
      }
      if (req.method === "POST" && parsed.pathname === "/graphql") {
        // The two mutations the Action sends, answered in GitHub's GraphQL shape.
        const query = String(body.query);
        const pr = pulls.find((candidate) => candidate.node_id === (body.variables as { id?: string } | undefined)?.id);
        const mutation = /convertPullRequestToDraft|markPullRequestReadyForReview/.exec(query)?.[0];
        if (!pr || !mutation) return reply(200, { data: null, errors: [{ type: "NOT_FOUND", message: "Could not resolve to a node with the global id" }] });
        pr.draft = mutation === "convertPullRequestToDraft";
        pr.draftChanges.push(pr.draft);
        return reply(200, { data: { [mutation]: { pullRequest: { isDraft: pr.draft } } } });
      }
      if (req.method === "POST" && (match = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/labels$/.exec(parsed.pathname))) {
        const pr = pulls.find((candidate) => candidate.number === Number(match?.[1]));
        if (!pr) return reply(404, { message: "Not Found" });
        pr.labels = [...new Set([...pr.labels, ...(body.labels as string[])])];
        return reply(200, pr.labels.map((name, id) => ({ id, name, color: "ededed", default: false })));
      }
      if (req.method === "POST" && (match = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/requested_reviewers$/.exec(parsed.pathname))) {
        const pr = pulls.find((candidate) => candidate.number === Number(match?.[1]));
        if (!pr) return reply(404, { message: "Not Found" });
        const reviewers = (body.reviewers as string[] | undefined) ?? [];
        if (reviewers.includes(NOT_A_COLLABORATOR)) return reply(422, { message: "Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the acme/docs repository." });
        pr.requestedReviewers.push(...reviewers);
        pr.requestedTeams.push(...((body.team_reviewers as string[] | undefined) ?? []));
        return reply(201, { ...pr, requested_reviewers: pr.requestedReviewers.map((login) => ({ login })), requested_teams: pr.requestedTeams.map((slug) => ({ slug })) });
      }
      if ((match = /^\/repos\/([^/]+)\/([^/]+)\/check-runs(?:\/(\d+))?$/.exec(parsed.pathname))) {
        if (options.checksPermission === false) return reply(403, { message: "Resource not accessible by integration", documentation_url: "https://docs.github.com/rest/checks/runs#create-a-check-run", status: "403" });
        const [, owner, repo, id] = match as unknown as [string, string, string, string | undefined];
        const output = body.output as { title: string; summary: string; annotations?: FakeCheckRun["annotations"] } | undefined;
        if ((output?.annotations?.length ?? 0) > 50) return reply(422, { message: "Only 50 annotations are allowed per request" });
        if (req.method === "POST" && id === undefined) {
          const run: FakeCheckRun = {
            id: checkRuns.length + 1,
            name: String(body.name),
            head_sha: String(body.head_sha),
            status: String(body.status ?? "queued"),
            conclusion: (body.conclusion as string | undefined) ?? null,
            details_url: (body.details_url as string | undefined) ?? null,
            html_url: `https://github.com/${owner}/${repo}/runs/${checkRuns.length + 1}`,
            output: { title: output?.title ?? "", summary: output?.summary ?? "" },
            annotations: [...(output?.annotations ?? [])],
          };
          checkRuns.push(run);
          return reply(201, { ...run, annotations: undefined, output: { ...run.output, annotations_count: run.annotations.length } });
        }
        const run = checkRuns.find((candidate) => candidate.id === Number(id));
        if (req.method === "PATCH" && run) {
          run.annotations.push(...(output?.annotations ?? []));
          return reply(200, { ...run, annotations: undefined, output: { ...run.output, annotations_count: run.annotations.length } });
        }
        return reply(404, { message: "Not Found" });
      }
      reply(404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return { url, pulls, checkRuns, calls, /** Change to refuse or allow check runs mid-test. */ options, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
