#!/usr/bin/env node
// `npm run release -- <version> [--from-unreleased] [--dry-run]`: tags a release of Inkwell (the
// service and the Action: this repository, with dist/ committed, is the Action). Refuses unless the
// working tree is clean, package.json's version is <version>, CHANGELOG.md has a section for it
// (--from-unreleased turns "Unreleased" into it, dated today, and commits that), the tag is new,
// and dist/ is in step with src/action (`npm run check:dist`). Then creates the annotated tag
// v<version> and moves v<major> to it (force). Pushing is left to you; the commands are printed.
// --dry-run runs every check and prints what it would do, changing nothing.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const USAGE = "usage: npm run release -- <version> [--from-unreleased] [--dry-run]   (version like 1.2.3 or 1.3.0-rc.1)";
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

class Refusal extends Error {}

const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
const gitOk = (...args) => {
  try {
    git(...args);
    return true;
  } catch {
    return false;
  }
};
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function parseArgs(argv) {
  const flags = new Set(argv.filter((a) => a.startsWith("--")));
  const positionals = argv.filter((a) => !a.startsWith("--"));
  const unknown = [...flags].filter((f) => !["--dry-run", "--from-unreleased"].includes(f));
  const version = positionals[0]?.replace(/^v/, "");
  if (unknown.length > 0 || positionals.length !== 1 || !version || !SEMVER.test(version)) return null;
  return { version, dryRun: flags.has("--dry-run"), fromUnreleased: flags.has("--from-unreleased") };
}

/** The lines of CHANGELOG.md's section headed `## [name]` (up to the next `## `), or null. */
function changelogSection(changelog, name) {
  const heading = new RegExp(`^## \\[${escapeRegExp(name)}\\](?:[ \\t]+-[ \\t]+(\\d{4}-\\d{2}-\\d{2}))?[ \\t]*$`, "im");
  const match = heading.exec(changelog);
  if (!match) return null;
  const rest = changelog.slice(match.index + match[0].length);
  const next = rest.search(/^## /m);
  const body = (next < 0 ? rest : rest.slice(0, next)).trim();
  // Only `### Added`-style headings and blank lines: nothing to say.
  const empty = body.split("\n").every((line) => !line.trim() || line.startsWith("#"));
  return { heading: match[0], date: match[1], empty };
}

/** Every check, in order of cost; returns the steps to take. Throws a Refusal saying what to do. */
function plan({ version, fromUnreleased }) {
  if (!gitOk("rev-parse", "--verify", "HEAD")) throw new Refusal("there is no commit to tag here");
  const dirty = git("status", "--porcelain");
  if (dirty) throw new Refusal(`the working tree is not clean; commit or remove these first:\n${dirty}`);

  const pkgVersion = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;
  if (pkgVersion !== version) {
    throw new Refusal(`package.json's version is ${pkgVersion}, not ${version}: run \`npm version ${version} --no-git-tag-version\` and commit`);
  }

  const tag = `v${version}`;
  if (gitOk("rev-parse", "-q", "--verify", `refs/tags/${tag}`)) throw new Refusal(`the tag ${tag} exists already`);
  const major = `v${version.split(".")[0]}`;
  if (gitOk("rev-parse", "-q", "--verify", `refs/tags/${major}`) && !gitOk("merge-base", "--is-ancestor", `${major}^{commit}`, "HEAD")) {
    throw new Refusal(`${major} points at a commit that is not behind HEAD (a later release?); moving it here would take users back`);
  }

  const changelogPath = path.join(root, "CHANGELOG.md");
  const changelog = readFileSync(changelogPath, "utf8");
  const section = changelogSection(changelog, version);
  const today = new Date().toISOString().slice(0, 10);
  let newChangelog = null;
  if (section) {
    if (fromUnreleased) throw new Refusal(`CHANGELOG.md already has a section for ${version}; leave out --from-unreleased`);
    if (section.empty) throw new Refusal(`CHANGELOG.md's section for ${version} is empty`);
    if (!section.date) throw new Refusal(`CHANGELOG.md's heading for ${version} needs its date: "## [${version}] - ${today}"`);
  } else if (fromUnreleased) {
    const unreleased = changelogSection(changelog, "Unreleased");
    if (!unreleased || unreleased.empty) throw new Refusal("CHANGELOG.md's Unreleased section is missing or empty: nothing to release");
    newChangelog = changelog.replace(unreleased.heading, `## [Unreleased]\n\n## [${version}] - ${today}`);
  } else {
    throw new Refusal(`CHANGELOG.md has no section for ${version}: add "## [${version}] - ${today}", or pass --from-unreleased to turn Unreleased into it`);
  }

  // Last, as it builds the Action: the committed dist/ must be what src/action builds to.
  try {
    execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "-s", "check:dist"], { cwd: root, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  } catch (error) {
    const output = `${error.stdout ?? ""}${error.stderr ?? ""}`.trim();
    throw new Refusal(`dist/ is not in step with src/action (npm run check:dist failed): run \`npm run build:action\` and commit dist/\n${output}`);
  }

  const steps = [];
  if (newChangelog !== null) {
    steps.push({
      say: `move CHANGELOG.md's Unreleased section to "## [${version}] - ${today}" and commit it ("Release ${version}")`,
      run: () => {
        writeFileSync(changelogPath, newChangelog);
        git("commit", "-q", "-m", `Release ${version}`, "--", "CHANGELOG.md");
      },
    });
  }
  steps.push({ say: `create the annotated tag ${tag} ("Inkwell ${version}")`, run: () => git("tag", "-a", tag, "-m", `Inkwell ${version}`) });
  steps.push({
    say: `move the major tag ${major} to ${tag} (force)`,
    run: () => git("tag", "-f", "-a", major, "-m", `Inkwell ${version} (${major} follows the latest ${major}.x release)`, `${tag}^{commit}`),
  });
  return { tag, major, steps };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  let release;
  try {
    release = plan(args);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    console.error(`release: refused: ${error.message}`);
    return 1;
  }
  if (args.dryRun) {
    console.log(`Dry run: every check passed for ${args.version}. It would:`);
    for (const step of release.steps) console.log(`  - ${step.say}`);
    console.log(`Then push: git push origin HEAD ${release.tag} && git push --force origin ${release.major}`);
    return 0;
  }
  for (const step of release.steps) {
    step.run();
    console.log(`done: ${step.say}`);
  }
  console.log(`Released ${release.tag} at ${git("rev-parse", "--short", `${release.tag}^{commit}`)}. Push it:`);
  console.log(`  git push origin HEAD ${release.tag} && git push --force origin ${release.major}`);
  return 0;
}

process.exitCode = main();
