/**
 * The browser beacon served at /js/script.js: no cookies, no storage, no dependencies. It reports
 * the page path on load (with the referrer and a utm_source) and on every SPA navigation (history.pushState /
 * replaceState / popstate), once per path change. With data-respect-dnt="true" it sends nothing
 * when the browser signals Do-Not-Track or Global Privacy Control. The body is sent as text/plain
 * so browsers post it without a CORS preflight; the server checks the page's Origin.
 *
 *   <script defer src="https://inkwell.example.com/js/script.js" data-project="PROJECT_ID"></script>
 */
export const BEACON_SCRIPT = `(function () {
  "use strict";
  var script = document.currentScript;
  var project = script && script.getAttribute("data-project");
  if (!project) return;
  if (script.getAttribute("data-respect-dnt") === "true" &&
      (navigator.doNotTrack === "1" || window.doNotTrack === "1" || navigator.globalPrivacyControl === true)) return;
  var api = script.getAttribute("data-api") || new URL(script.src).origin;
  var endpoint = api.replace(/\\/+$/, "") + "/v1/analytics/" + encodeURIComponent(project) + "/events";
  var lastPath = null;
  function report() {
    var path = location.pathname;
    if (path === lastPath) return;
    var event = { path: path };
    if (lastPath === null) {
      // The landing: where the person came from (the server keeps only the host) and a campaign's utm_source.
      if (document.referrer) event.referrer = document.referrer;
      var source = new URLSearchParams(location.search).get("utm_source");
      if (source) event.path = path + "?utm_source=" + encodeURIComponent(source);
    } else {
      // A step within the site, as a full page load's Referer would say.
      event.referrer = location.origin + lastPath;
    }
    lastPath = path;
    var body = JSON.stringify(event);
    try {
      if (navigator.sendBeacon && navigator.sendBeacon(endpoint, new Blob([body], { type: "text/plain" }))) return;
    } catch (e) { /* fall through to fetch */ }
    if (window.fetch) fetch(endpoint, { method: "POST", body: body, keepalive: true, mode: "no-cors", headers: { "Content-Type": "text/plain" } }).catch(function () {});
  }
  function wrap(name) {
    var original = history[name];
    if (typeof original !== "function") return;
    history[name] = function () {
      var result = original.apply(this, arguments);
      setTimeout(report, 0);
      return result;
    };
  }
  wrap("pushState");
  wrap("replaceState");
  window.addEventListener("popstate", report);
  if (document.visibilityState === "prerender") {
    document.addEventListener("visibilitychange", function onVisible() {
      if (document.visibilityState !== "visible") return;
      document.removeEventListener("visibilitychange", onVisible);
      report();
    });
  } else {
    report();
  }
})();
`;
