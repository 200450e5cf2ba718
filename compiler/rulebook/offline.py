"""Reading with no connection: what a book keeps on a reader's device.

The site's service worker (site/sw.js) keeps each page as it is read. A book's front page
also offers to keep the whole book at once (site/assets/javascripts/offline.js); the build
lists that book's pages in `offline.json` beside them, so the button knows what to fetch.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

MANIFEST = "offline.json"


def manifest(slug: str, paths: Iterable[str]) -> str:
    """The book's pages and files as URLs relative to its folder, from their paths in the
    docs folder (`slug/setup.md` is `setup/`, `slug/index.md` is `./`)."""
    urls = []
    for path in paths:
        rel = path.removeprefix(f"{slug}/")
        if rel == MANIFEST:
            continue
        if rel.endswith(".md"):
            page = rel.removesuffix(".md").removesuffix("index")
            rel = page if not page or page.endswith("/") else page + "/"
            rel = rel or "./"
        urls.append(rel)
    return json.dumps(urls, indent=1) + "\n"


def keep_button() -> str:
    """The front page's button: hidden until offline.js finds a browser that can keep pages."""
    return (f'<p class="offline" data-search-exclude><button class="md-button offline-keep" '
            f'type="button" data-pages="{MANIFEST}" hidden>Keep this book on this device</button> '
            f'<span class="offline-status" role="status"></span></p>')
