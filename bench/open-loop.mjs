// Open-loop, constant-rate HTTP load: requests are sent on a fixed schedule whatever the server
// does, and latency is measured from each request's scheduled time, so a stall counts fully for
// every request it delays (no coordinated omission). Bounded by `seconds`.
import http from "node:http";

/**
 * @param {{ url: string, rate: number, seconds: number, connections?: number, request: (i: number) => { method: string, path: string, headers: Record<string,string>, body?: string } }} opts
 */
export async function openLoop({ url, rate, seconds, connections = 16, request }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const base = new URL(url);
  const total = Math.round(rate * seconds);
  const latencies = new Float64Array(total);
  let failed = 0;
  let sent = 0;
  const interval = 1000 / rate;
  const start = performance.now();
  const inFlight = [];

  const fire = (i, due) =>
    new Promise((resolve) => {
      const spec = request(i);
      const req = http.request({ host: base.hostname, port: base.port, agent, method: spec.method, path: spec.path, headers: spec.headers }, (res) => {
        res.resume();
        res.on("end", () => {
          latencies[i] = performance.now() - due;
          if (res.statusCode >= 400) failed++;
          resolve();
        });
      });
      req.on("error", () => {
        latencies[i] = performance.now() - due;
        failed++;
        resolve();
      });
      req.end(spec.body);
    });

  await new Promise((done) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        inFlight.push(fire(sent, start + sent * interval));
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      else done();
    };
    tick();
  });
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const pct = (p) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 100) / 100;
  return { requests: total, rps: Math.round(total / elapsed), p50: pct(50), p99: pct(99), max: Math.round(sorted.at(-1) * 100) / 100, failed };
}
