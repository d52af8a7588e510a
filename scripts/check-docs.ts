// `npm run docs:check`: the manual in docs/ through the Action's own gate (pages compile as
// Mintlify does, frontmatter, internal links and anchors, docs.json against Mintlify's schema,
// every page in the navigation). Exit 1 with the problems when there are any.
import { checkDocsSite } from "../src/action/validation/site-check.js";

const { passed, problems, project } = await checkDocsSite(process.cwd(), process.argv[3]);
if (passed) {
  console.log(`The ${project.framework} site in ${project.docsDir}/ passes the docs gate.`);
} else {
  console.error(`The ${project.framework} site in ${project.docsDir}/ has ${problems.length} problem(s):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
