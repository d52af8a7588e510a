/** What is missing for the Action to talk to Inkwell, each with the fix. Empty when all is there. */
export function checkEnvironment(env: NodeJS.ProcessEnv, inputs: { inkwellUrl: string }): string[] {
  const problems: string[] = [];
  if (!env.GITHUB_ACTIONS) problems.push("not running inside GitHub Actions (GITHUB_ACTIONS is unset)");
  if (!env.GITHUB_REPOSITORY) problems.push("GITHUB_REPOSITORY is unset");
  if (!env.ACTIONS_ID_TOKEN_REQUEST_URL || !env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) {
    problems.push("no OIDC token available: add `permissions: id-token: write` to the workflow job");
  }
  if (!inputs.inkwellUrl) problems.push("the `inkwell-url` input is empty: set it to your Inkwell server's PUBLIC_URL");
  else if (!/^https?:\/\//.test(inputs.inkwellUrl)) problems.push("the `inkwell-url` input must be an http(s) URL");
  return problems;
}
