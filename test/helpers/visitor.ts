import { ADMIN_TOKEN } from "./server.js";

/** A browser's view of the dashboard: cookies kept between requests, redirects not followed. */
export class Visitor {
  readonly cookies = new Map<string, string>();
  /** `origin`: what the browser sends as Origin, the server's PUBLIC_URL when it has one. */
  constructor(
    readonly base: string,
    readonly origin = new URL(base).origin,
  ) {}

  async request(method: string, path: string, init: { form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: string | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      headers.Origin ??= this.origin;
    }
    const response = await fetch(this.base + path, { method, headers, body: body ?? null, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const [name = "", value = ""] = pair.split("=");
      if (/Max-Age=0/.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text(), setCookies: response.headers.getSetCookie() };
  }

  get = (path: string, headers: Record<string, string> = {}) => this.request("GET", path, { headers });
  post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) => this.request("POST", path, { form, headers });

  /** The page's CSRF token, as the page's forms carry it. */
  async csrf(path = "/dashboard"): Promise<string> {
    const page = await this.get(path);
    const token = /<meta name="csrf-token" content="([^"]+)">/.exec(page.text)?.[1];
    if (!token) throw new Error(`no CSRF token on ${path} (status ${page.status})`);
    return token;
  }

  async signInAsOperator(token = ADMIN_TOKEN) {
    const page = await this.get("/dashboard/sign-in");
    const loginToken = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
    return this.post("/dashboard/sign-in", { csrf: loginToken, token, next: "/dashboard" });
  }
}
