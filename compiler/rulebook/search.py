"""Search, one book at a time.

The theme's search plugin writes one index for the whole site. With a dozen books that
share most of their rules, a reader of one book searching "lake" got the same rule once
per book, and the index grew past what a phone should download to look up one word. After
the build, the index is split: each book gets its own, next to its pages, holding its pages
and its worked examples (which are not headings, so the plugin never saw them); the site's
index keeps the pages that belong to no book and each book's front page.
`assets/javascripts/book-search.js` hands the theme the index of the book being read, and
on request counts a search's matches in every other book (`search/books.json` lists them).

A rule's heading starts with its number ("6.2 Scoring lakes"), a ruling's with its id
("BG-R5 …"), and an example's entry here with its id, so typing "6.2", "R5" or "BG-E36"
finds it, and book-search.js offers it first ("Go to …") for Enter to open.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

INDEX = "search/search_index.json"   # the theme's, for the whole site
BOOK_INDEX = "search_index.json"      # each book's, in its folder
BOOKS = "search/books.json"           # every book's folder and name: searching all of them


@dataclass(frozen=True)
class BookSearch:
    """What the build knows of a book's search beyond its pages' headings."""
    label: str                      # the book's name, as its pages' titles end
    entries: list[dict[str, str]]   # entries of its own (its worked examples)


def split(site: Path, books: dict[str, BookSearch]) -> None:
    """Write each book's index (`books` by folder) and keep in the site's index only what
    belongs to no book, and each book's front page, named with its book: from the home page,
    "lake" finds each book that has lakes, and says which."""
    whole = json.loads((site / INDEX).read_text(encoding="utf-8"))
    own: dict[str, list[dict[str, Any]]] = {slug: [] for slug in books}
    rest: list[dict[str, Any]] = []
    names = {slug: b.label for slug, b in books.items()}  # each book by its game and name
    for doc in whole["docs"]:
        slug = doc["location"].split("/", 1)[0]
        if slug not in own:
            rest.append(doc)
            continue
        own[slug].append(doc)
        if doc["location"] == f"{slug}/":
            names[slug] = f"{doc['title']}: {books[slug].label}"
            rest.append(doc | {"title": names[slug]})
        elif doc["location"].startswith(f"{slug}/#"):
            rest.append(doc)
    for slug, docs in own.items():
        _write(site / slug / BOOK_INDEX, whole["config"], docs + books[slug].entries)
    _write(site / INDEX, whole["config"], rest)
    # "Search every book" (book-search.js) reads each book's index in turn, found by this list.
    (site / BOOKS).write_text(json.dumps(
        [{"slug": slug, "label": names[slug]} for slug in books], ensure_ascii=False),
        encoding="utf-8")


def _write(path: Path, config: dict[str, Any], docs: list[dict[str, Any]]) -> None:
    path.write_text(json.dumps({"config": config, "docs": docs}, ensure_ascii=False,
                               separators=(",", ":")), encoding="utf-8")
