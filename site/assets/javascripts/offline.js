// Reading with no connection: register the site's service worker (sw.js, at the site's
// root), and let the "Keep this book on this device" button on a book's front page fetch
// every page of that book (listed by the build in offline.json) into the worker's cache.
(() => {
  const CACHE = "rulebook-pages-v1";  // the cache sw.js keeps pages in
  if (!("serviceWorker" in navigator) || !window.caches) return;
  const root = typeof __md_scope !== "undefined" ? __md_scope : new URL("./", location.href);
  navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname })
    .catch(() => {});  // a file:// copy or a host that refuses: reading online still works

  async function keep(button) {
    const status = button.parentElement.querySelector(".offline-status");
    button.disabled = true;
    try {
      const listed = new URL(button.dataset.pages, location.href);
      const pages = await (await fetch(listed, { cache: "no-store" })).json();
      const cache = await caches.open(CACHE);
      let kept = 0;
      for (const page of pages) {
        const url = new URL(page, listed);
        try {
          const reply = await fetch(url, { cache: "no-store" });
          if (reply.ok) { await cache.put(url, reply); kept += 1; }
        } catch (e) { /* counted as not kept */ }
        status.textContent = `Keeping: ${kept} of ${pages.length}…`;
      }
      // What every page needs besides itself (styles, scripts, the sitemap instant navigation
      // reads, the book's search index): fetched before this worker controlled the page, so kept here.
      for (const url of assets(listed)) {
        try {
          const reply = await fetch(url);
          if (reply.ok) await cache.put(url, reply);
        } catch (e) { /* a page still opens without it */ }
      }
      status.textContent = kept === pages.length
        ? `Kept: all ${kept} pages and the PDF. This book now opens on this device with no connection.`
        : `Kept ${kept} of ${pages.length} pages; try again with a better connection for the rest.`;
    } catch (e) {
      status.textContent = "Could not keep this book: no connection to the site.";
    }
    button.disabled = false;
  }

  function assets(listed) {
    const urls = [...document.querySelectorAll("link[rel=stylesheet][href], link[rel=icon][href]")]
      .map((e) => e.href)
      .concat([...document.querySelectorAll("script[src]")].map((e) => e.src))
      .concat(["sitemap.xml", "search/search_index.json"].map((u) => new URL(u, root).href))
      .concat([new URL("search_index.json", listed).href]);  // the book's own (book-search.js)
    const config = document.getElementById("__config");
    if (config) {
      const search = JSON.parse(config.textContent).search;
      if (search) urls.push(new URL(search, location.href).href);
    }
    return [...new Set(urls)];
  }

  function wire() {
    for (const button of document.querySelectorAll("button.offline-keep")) {
      button.hidden = false;
      if (!button.dataset.wired) {
        button.dataset.wired = "yes";
        button.addEventListener("click", () => keep(button));
      }
    }
  }
  if (typeof document$ !== "undefined") document$.subscribe(wire);
  else document.addEventListener("DOMContentLoaded", wire);
})();
