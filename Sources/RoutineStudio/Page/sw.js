// The installed page's service worker. For now it keeps nothing (working offline is to come,
// docs/phone.md): a page opened while the desk's studio cannot be reached says so in words
// rather than the browser's error. Everything else goes to the network as it would without it.
const UNREACHABLE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>routine</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; margin: 24px 16px">
<h1 style="font-size: 1.5rem">The desk cannot be reached</h1>
<p>This page comes from the studio on your desk, which is not answering now. Start it there
(<code>routine studio FILE --allow-host NAME</code>), then open this page again.</p></body></html>`;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.respondWith(
    fetch(event.request).catch(
      () => new Response(UNREACHABLE, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }),
    ),
  );
});
