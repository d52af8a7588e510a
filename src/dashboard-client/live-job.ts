const POLL_MS = 3000;

/**
 * While a job is active, its status, PR link and timeline are fetched again every few seconds and
 * swapped in place (the region is aria-live). Stops when the job leaves `active`; pauses in
 * background tabs.
 */
export function followLiveJob(root: Document): void {
  const region = root.getElementById("job-live");
  const url = region?.dataset.liveUrl;
  if (!region || !url || region.dataset.status !== "active") return;
  const poll = async () => {
    if (root.visibilityState === "hidden") return schedule();
    try {
      const response = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin", redirect: "manual" });
      const status = response.headers.get("Inkwell-Job-Status");
      if (response.ok && status) {
        region.innerHTML = await response.text();
        region.dataset.status = status;
        if (status !== "active") return;
      } else if (response.type === "opaqueredirect" || (response.status >= 400 && response.status < 500)) {
        // Signed out, or no longer allowed: stop, and say how to see the job again.
        region.insertAdjacentHTML("beforeend", '<p class="notice notice-info">Live updates stopped: reload the page (you may need to sign in again).</p>');
        return;
      }
    } catch {
      // The server may be restarting: try again on the next tick.
    }
    schedule();
  };
  const schedule = () => window.setTimeout(poll, POLL_MS);
  schedule();
}
