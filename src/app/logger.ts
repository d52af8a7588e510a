import { pino, type Logger } from "pino";
import pretty from "pino-pretty";

export type LogFormat = "auto" | "pretty" | "json";

/**
 * Logs to `stream` (stdout): one JSON object per line for machines, or readable lines on a
 * terminal (`auto`) or when asked (`pretty`). Request logs carry method, route and status, never
 * headers or bodies.
 */
export function createLogger(level: string, format: LogFormat = "json", stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): Logger {
  const readable = format === "pretty" || (format === "auto" && stream.isTTY === true);
  const options = {
    level,
    base: { name: "inkwell" },
    redact: { paths: ["authorization", "*.authorization", "key", "*.key", "token", "*.token"], censor: "[redacted]" },
  };
  if (!readable) return pino(options, stream);
  // Synchronous, in this thread: a log line is on the terminal before the process can exit.
  return pino(options, pretty({ destination: stream, sync: true, colorize: stream.isTTY === true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname,name" }));
}
