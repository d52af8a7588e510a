/** The log formats `inkwell analytics import` reads, each in its own module under formats/. */
export const LOG_FORMATS = ["combined", "vercel", "cloudflare", "caddy", "nginx-json", "cloudfront", "netlify", "fastly", "custom"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function isLogFormat(value: string): value is LogFormat {
  return (LOG_FORMATS as readonly string[]).includes(value);
}
