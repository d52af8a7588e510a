import { pino, type Logger } from "pino";

/** JSON logs to stdout. Request logs carry method, route and status, never headers or bodies. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { name: "inkwell" },
    redact: { paths: ["authorization", "*.authorization", "key", "*.key", "token", "*.token"], censor: "[redacted]" },
  });
}
