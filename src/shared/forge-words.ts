/**
 * What each forge calls the things a job touches (docs/architecture.md, "Forges"): every word a user
 * reads about a job's repository (the change request, the run, a comment, who is missing) comes from
 * this table, by the job's or the project's forge, never GitHub's words on a GitLab project.
 */
export type ForgeName = "github" | "gitlab";

export interface ForgeWords {
  /** The change request: "pull request", "merge request". */
  change: string;
  /** The same, capitalized, for a label or a column. */
  Change: string;
  /** The same as running text may shorten it: "PR"; a merge request keeps its name. */
  changeShort: string;
  /** What comes before a change request's number: #12, !12. */
  changeMark: string;
  /** One run of the agent on the forge's CI. */
  run: string;
  /** What a person writes on the change request. */
  comment: string;
  /** Where the agent runs, with its article. */
  ci: string;
  /** Whom a comment @-mentions to address the agent. */
  addressee: string;
  /** What lets Inkwell act on the forge, which a server may lack: "GitHub App", "GitLab connection". */
  access: string;
  /** A repository's name as the forge writes it. */
  repoName: string;
  /** A job started by a comment, as a short label ("PR comment", "MR note"). */
  commentTrigger: string;
  /** The code repository an automation links, as its form asks for it. */
  sourceRepository: string;
}

export const FORGE_WORDS: Record<ForgeName, ForgeWords> = {
  github: { change: "pull request", Change: "Pull request", changeShort: "PR", changeMark: "#", run: "workflow run", comment: "comment", ci: "a GitHub Actions workflow run", addressee: "the App", access: "GitHub App", repoName: "owner/repo", commentTrigger: "PR comment", sourceRepository: "Repository (owner/repo, with the App installed)" },
  gitlab: { change: "merge request", Change: "Merge request", changeShort: "merge request", changeMark: "!", run: "pipeline", comment: "note", ci: "a GitLab CI/CD pipeline", addressee: "the access token's bot user", access: "GitLab connection", repoName: "group/project", commentTrigger: "MR note", sourceRepository: "Project (group/project, on the same GitLab instance, which the access token reaches as a Maintainer)" },
};

/** The words of a forge; a client of an older server, whose job says no forge, reads GitHub's. */
export const forgeWords = (forge: ForgeName | null | undefined): ForgeWords => FORGE_WORDS[forge ?? "github"];
