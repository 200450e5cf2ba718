// The theme (mkdocs-material) learns which links are its own pages from sitemap.xml:
// instant navigation and the hover previews of glossary terms and § links work only for
// links found there. The sitemap names pages by the address the site was built for, and
// the theme moves them to this page's scheme and host but not to its port or folder, so a
// copy served anywhere else (another port, another folder, a laptop at the table) would lose
// both, silently. This hands the theme the sitemap with every page named where it is now
// served. It runs before the theme's script (site/overrides/main.html).
(() => {
  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;

  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    const target = new URL(url, location.href);
    this.rulebookSitemap = method === "GET" && target.origin === location.origin &&
      target.pathname.endsWith("/sitemap.xml") ? target : null;
    return open.call(this, method, url, ...rest);
  };

  XMLHttpRequest.prototype.send = function (body) {
    const sitemap = this.rulebookSitemap;
    if (!sitemap) return send.call(this, body);
    this.rulebookSitemap = null;
    const asked = () => { open.call(this, "GET", sitemap.href); send.call(this, body); };
    fetch(sitemap)
      .then((reply) => (reply.ok ? reply.text() : Promise.reject(new Error(reply.statusText))))
      .then((text) => {
        const pages = [...new DOMParser().parseFromString(text, "text/xml")
          .getElementsByTagName("loc")].map((loc) => loc.textContent.trim());
        if (pages.length === 0) return asked();
        // The shortest address is the home page: the address the site was built for.
        const built = pages.reduce((a, b) => (b.length < a.length ? b : a));
        const here = new URL("./", sitemap).href;
        const moved = built === here ? text : text.split(built).join(here);
        open.call(this, "GET", URL.createObjectURL(new Blob([moved], { type: "text/xml" })));
        send.call(this, body);
      })
      .catch(asked);
  };
})();
