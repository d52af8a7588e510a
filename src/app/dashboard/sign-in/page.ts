import { html, type SafeHtml } from "../html.js";

export interface SignInView {
  githubEnabled: boolean;
  loginToken: string;
  next: string;
  error?: string | null;
}

export function signInBody(view: SignInView): SafeHtml {
  const operatorForm = html`<form method="post" action="/dashboard/sign-in" class="stack">
  <input type="hidden" name="csrf" value="${view.loginToken}">
  <input type="hidden" name="next" value="${view.next}">
  <label for="token">Operator token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required minlength="16" aria-describedby="token-help">
  <p id="token-help" class="help">The server's <code>INKWELL_ADMIN_TOKEN</code>. If you did not set one, the server generated it on first start and logged where it saved it (under <code>DATA_DIR</code>).</p>
  <button type="submit">Sign in</button>
</form>`;
  return html`${view.error ? html`<p class="notice notice-error" role="alert">${view.error}</p>` : ""}
${
  view.githubEnabled
    ? html`<p><a class="button" href="/dashboard/auth/github?next=${encodeURIComponent(view.next)}">Sign in with GitHub</a></p>
<p class="help">You will see the projects whose repositories you can access. Creating or revoking API keys needs admin permission on the repository.</p>
<details><summary>Sign in with the operator token</summary>${operatorForm}</details>`
    : html`<p class="help">Sign in with GitHub is off: set the App's <code>GITHUB_CLIENT_ID</code> and <code>GITHUB_CLIENT_SECRET</code> to turn it on.</p>${operatorForm}`
}`;
}
