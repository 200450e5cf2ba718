// The header names the book the page belongs to ("Galaxy of Trian: Family variant") where
// the theme would say the site's name, so a reader on a phone always knows which rules they
// are reading: a variant's pages look just like its base's. The name comes from the page's
// content (site/overrides/main.html), which instant navigation replaces on every page.
(() => {
  let siteName = null;

  function name() {
    const topic = document.querySelector(".md-header__topic:first-child .md-ellipsis");
    if (!topic) return;
    if (siteName === null) siteName = topic.textContent.trim();
    const mark = document.querySelector("[data-book]");
    const wide = window.matchMedia("(min-width: 45em)").matches;
    topic.textContent = mark ? (wide ? mark.dataset.book : mark.dataset.bookShort) : siteName;
  }

  if (typeof document$ !== "undefined") document$.subscribe(name);
  else document.addEventListener("DOMContentLoaded", name);
  window.matchMedia("(min-width: 45em)").addEventListener("change", name);
})();
