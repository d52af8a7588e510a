import { runCli } from "./run-cli.js";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => console.log(text),
  stderr: (text) => console.error(text),
  env: process.env,
  fetch: globalThis.fetch,
  readStdin,
  stdinStream: () => process.stdin,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  write: (chunk) => new Promise((resolve, reject) => process.stdout.write(chunk, (error) => (error ? reject(error) : resolve()))),
});
process.exitCode = code;
