"""Each page's navigation: the book being read in full, every other book by its front page.

The theme writes the whole site's navigation into every page. With a dozen books of twenty
pages each, that was over half of all the HTML a reader downloads, mostly links into books
they are not reading. A section that does not hold the page being written keeps only its
first entry, so a tab or a book's name still leads to its front page; the page's own book
stays whole, sections inside it too (a chapter with a page per rule).
"""

from __future__ import annotations

import copy
from typing import Any

from mkdocs.structure.nav import Navigation


def pruned(nav: Navigation) -> Navigation:
    """The navigation as this page's reader needs it; call while the page is active (the
    theme marks the sections holding it)."""
    return Navigation([_pruned(item) for item in nav.items], nav.pages)


def _pruned(item: Any, whole: bool = False) -> Any:
    if not getattr(item, "is_section", False):
        return item
    kept = item.children if item.active or whole else item.children[:1]
    # A book is a section opening on its front page (an index page).
    book = bool(kept) and getattr(kept[0], "is_index", False)
    section = copy.copy(item)
    section.children = [_pruned(child, whole or (item.active and book)) for child in kept]
    return section
