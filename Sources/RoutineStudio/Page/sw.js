// The installed page's service worker (docs/phone.md). It keeps a copy of the page's files
// (the shell: what /shell.json lists, "/" first), taken when it is installed and renewed each
// time the desk serves one, so that the page opens while the desk's studio cannot be reached and
// says so itself. It keeps nothing of the routine or the history: every /api/ request goes to
// the desk, and fails there when the desk does. The desk's own answers always come first; the
// copy is only for when there is none (the network fails, or the proxy in front of the studio
// answers 502, 503 or 504: the studio is not answering it).
const SHELL = "routine-shell";
const DOWN = new Set([502, 503, 504]);
// What is not the page's: the API, the worker itself, and the pairing and revoked pages.
const NOT_SHELL = /^\/(api\/|sw\.js$|pair$|pairing\/pair\.|pairing\/revoked\.)/;

// Said when not even the copy can be had (a worker installed before the desk answered).
const UNREACHABLE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>routine</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; margin: 24px 16px">
<h1 style="font-size: 1.5rem">The desk cannot be reached</h1>
<p>This page comes from the studio on your desk, which is not answering now. Start it there
(<code>routine studio FILE --allow-host NAME</code>), then open this page again.</p></body></html>`;

async function keepShell() {
  const list = await fetch("/shell.json", { cache: "no-store" });
  if (!list.ok) return;
  const cache = await caches.open(SHELL);
  await cache.addAll((await list.json()).map((path) => new Request(path, { cache: "no-store" })));
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  // A copy not taken now is taken file by file as the desk serves them.
  event.waitUntil(keepShell().catch(() => {}));
});
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const shell = !NOT_SHELL.test(url.pathname);
  if (!shell && request.mode !== "navigate") return;
  event.respondWith(fromDesk(request, shell ? url.origin + url.pathname : null));
});

/// The desk's answer to `request`; when there is none, the copy kept under `key` (the file's
/// address without query or fragment; null for what is not kept), else for a page a page
/// saying the desk cannot be reached.
async function fromDesk(request, key) {
  const answer = await fetch(request).catch(() => null);
  if (answer && !DOWN.has(answer.status)) {
    if (key && answer.status === 200) {
      const copy = answer.clone();
      caches.open(SHELL).then((cache) => cache.put(key, copy)).catch(() => {});
    }
    return answer;
  }
  const kept = key ? await caches.match(key, { cacheName: SHELL }) : null;
  if (kept) return kept;
  if (request.mode === "navigate") {
    return new Response(UNREACHABLE, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  return answer || Response.error();
}
