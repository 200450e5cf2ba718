// Searching the book being read.
//
// The build gives each book its own search index, in its folder (compiler/rulebook/search.py);
// the site's own index keeps the pages outside any book. The theme asks for
// "search/search_index.json" once, when a page is first opened: this hands it the index of
// that page's book instead, and names the book in the search field. The theme keeps one index
// for as long as it moves between pages without reloading, so a link into another book (or
// out of every book) is followed as a plain link, which loads that book's index; and if the
// theme moved into another book anyway (Back, Forward), the page is reloaded.
//
// A rule's number, a ruling's or an example's id typed alone ("6.2", "§6.2", "R5", "TD-E36")
// is offered first as "Go to …", and Enter opens it: the index names each by its heading.
// The same numbers work after "#" in a book's address: …/a-book/#6.2.
//
// Under a book's results, "Search every book" counts the same words in each other book
// (their indexes are fetched only then; search/books.json lists them), each count a link
// that opens that book with the search filled in (the theme reads `?q=`).
//
// It runs before the theme's script (site/overrides/main.html).
(() => {
  const open = XMLHttpRequest.prototype.open;
  let searched = null;  // the folder whose index the theme was handed ("" for the site's)
  let indexUrl = null;

  // The book a page belongs to: its folder, named in its content (site/overrides/main.html).
  function bookHere() {
    const mark = document.querySelector("[data-book-slug]");
    return mark ? mark.dataset.bookSlug : "";
  }

  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    const target = new URL(url, location.href);
    if (method === "GET" && target.origin === location.origin &&
        target.pathname.endsWith("/search/search_index.json")) {
      searched = bookHere();
      if (searched) url = new URL(`../${searched}/search_index.json`, target).href;
      indexUrl = new URL(url, location.href).href;
    }
    return open.call(this, method, url, ...rest);
  };

  // ------------------------------------------------------------ staying in one book

  // The site's root, from the theme's settings (null before they are read).
  function root() {
    const settings = document.getElementById("__config");
    return settings ? new URL(JSON.parse(settings.textContent).base + "/", location.href) : null;
  }

  // A page's first folder below the root is its book.
  function folderOf(url) {
    const top = root();
    if (!top || url.origin !== top.origin || !url.pathname.startsWith(top.pathname)) return null;
    return url.pathname.slice(top.pathname.length).split("/")[0];
  }

  // Capture runs before the theme's own handler, which would keep this page's index.
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!link || link.target || event.defaultPrevented || event.button !== 0 ||
        event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(link.href, location.href);
    const there = folderOf(url);
    if (there === null || there === folderOf(new URL(location.href))) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    location.assign(url.href);
  }, true);

  // ------------------------------------------------------------ going to a number

  const NUMBERED = /^(\d+[a-z]?(?:\.\d+[a-z]?)*|[A-Z]{1,6}-[A-Z]\d+)\.?(?=\s)/;
  let numbers = null;  // a number or id, lower case → the entries it names

  async function numbered() {
    if (numbers === null && indexUrl !== null) {
      numbers = new Map();
      try {
        const index = await (await fetch(indexUrl)).json();
        for (const doc of index.docs) {
          const found = NUMBERED.exec(doc.title);
          if (!found) continue;
          const id = found[1].toLowerCase();
          const keys = [id];
          const coded = /^[a-z]+-([a-z]\d+)$/.exec(id);  // "td-e36" is also "e36"
          if (coded) keys.push(coded[1]);
          for (const key of keys) {
            const all = numbers.get(key) || [];
            if (!all.some((d) => d.location === doc.location)) all.push(doc);
            numbers.set(key, all);
          }
        }
      } catch (e) { numbers = null; }  // offline and never fetched: plain search still works
    }
    return numbers;
  }

  function asked(field) {
    return field.value.trim().replace(/^§\s*/, "").replace(/\.$/, "").toLowerCase();
  }

  async function offer(field) {
    // Beside the theme's results, not among them: its Enter and arrow keys walk its own.
    const result = document.querySelector(".md-search-result");
    if (!result) return;
    let box = document.querySelector(".rulebook-jump");
    const found = ((await numbered()) || new Map()).get(asked(field)) || [];
    if (found.length === 0) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("nav");
      box.className = "rulebook-jump";
      box.setAttribute("aria-label", "Go to a number");
      result.before(box);
    }
    box.replaceChildren(...found.slice(0, 5).map((doc) => {
      const link = document.createElement("a");
      link.href = new URL(doc.location, root()).href;
      link.textContent = `Go to ${doc.title}`;
      return link;
    }));
  }

  document.addEventListener("input", (event) => {
    if (event.target.matches && event.target.matches(".md-search__input")) {
      offer(event.target);
      offerEverywhere(event.target);
    }
  }, true);

  // Enter on a number opens it when it names one thing, and moves to the choice when it
  // names several ("R1": the base game's and the variant's); the theme's own Enter otherwise.
  window.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !event.target.matches || !event.target.matches(".md-search__input"))
      return;
    const links = document.querySelectorAll(".rulebook-jump a");
    if (links.length === 0) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (links.length === 1) links[0].click();
    else links[0].focus();
  }, true);

  // A link by number: any page of a book followed by "#6.2", "#TD-R5" or "#E36" opens that
  // rule, ruling or example, as a printed rulebook is cited by its numbers.
  async function followNumber() {
    const said = decodeURIComponent(location.hash.slice(1));
    if (!said || document.getElementById(said) || !bookHere()) return;
    if (indexUrl === null) {
      if (!root()) return;
      indexUrl = new URL(`${bookHere()}/search_index.json`, root()).href;
    }
    const found = ((await numbered()) || new Map())
      .get(said.replace(/^§/, "").replace(/\.$/, "").toLowerCase()) || [];
    if (found.length === 1) location.replace(new URL(found[0].location, root()).href);
  }

  // ------------------------------------------------------------ every book

  let shelf = null;  // [{slug, label, docs}] once every book's index has been fetched

  async function everyBook() {
    if (shelf === null) {
      const books = await (await fetch(new URL("search/books.json", root()))).json();
      shelf = await Promise.all(books.map(async (book) => {
        try {
          const index = await (await fetch(new URL(`${book.slug}/search_index.json`, root())))
            .json();
          return { ...book, docs: index.docs.map((d) =>
            `${d.title} ${d.text}`.replace(/<[^>]*>/g, " ").toLowerCase()) };
        } catch (e) { return { ...book, docs: null }; }  // offline, never fetched
      }));
    }
    return shelf;
  }

  function words(query) {
    return query.toLowerCase().split(/\s+/).filter((w) => w.length > 1);
  }

  async function countEverywhere(field, list) {
    const query = field.value.trim();
    const wanted = words(query);
    list.replaceChildren(Object.assign(document.createElement("li"), { textContent: "Searching…" }));
    let books;
    try { books = await everyBook(); } catch (e) { books = []; }
    const rows = [];
    for (const book of books) {
      if (book.slug === bookHere()) continue;
      const item = document.createElement("li");
      if (book.docs === null) {
        item.textContent = `${book.label}: not available offline`;
      } else {
        const found = book.docs.filter((text) => wanted.every((w) => text.includes(w))).length;
        if (found === 0) continue;
        const link = document.createElement("a");
        link.href = new URL(`${book.slug}/?q=${encodeURIComponent(query)}`, root()).href;
        link.textContent = book.label;
        item.append(link, ` — ${found} ${found === 1 ? "place" : "places"}`);
        item.dataset.found = String(found);
      }
      rows.push(item);
    }
    rows.sort((a, b) => Number(b.dataset.found || 0) - Number(a.dataset.found || 0));
    if (rows.length === 0)
      rows.push(Object.assign(document.createElement("li"), { textContent: "No other book has these words." }));
    list.replaceChildren(...rows);
  }

  function offerEverywhere(field) {
    const result = document.querySelector(".md-search-result");
    if (!result || !bookHere()) return;
    let box = document.querySelector(".rulebook-everywhere");
    if (words(field.value).length === 0) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("div");
      box.className = "rulebook-everywhere";
      const button = document.createElement("button");
      button.type = "button";
      const list = document.createElement("ul");
      button.addEventListener("click", () => countEverywhere(field, list));
      box.append(button, list);
      result.after(box);
    }
    box.querySelector("button").textContent = `Search every book for “${field.value.trim()}”`;
    box.querySelector("ul").replaceChildren();
  }

  // ------------------------------------------------------------ naming the book

  function named() {
    const field = document.querySelector(".md-search__input");
    const mark = document.querySelector("[data-book-slug]");
    if (field) field.placeholder = mark ? `Search ${mark.dataset.bookShort}` : "Search";
    if (searched !== null && bookHere() !== searched) location.reload();
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (typeof document$ !== "undefined") document$.subscribe(named);
    else named();
    followNumber();
  });
})();
