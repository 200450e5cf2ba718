"""A rule's formulas are where a reader looks for them: under its text, not folded inside
the engine's box; on a phone a wide one scrolls inside its own box and the page does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import built_page

pytestmark = pytest.mark.xdist_group("rulebook")

PAGES = ["trian-deluxe/end/", "trian-deluxe/areas/", "trian-new-order/end/",
         "trian-conquest/end/", "among-the-stars/end/",
         "trian-new-order/quick-reference/", "among-the-stars/quick-reference/"]


def test_every_formula_stands_outside_the_engines_box(site: Path) -> None:
    for page in PAGES:
        html = built_page(site / page / "index.html")
        inside = html.split("<details")[1:]
        assert 'class="formula"' in html, page
        assert all('class="formula"' not in d.split("</details>")[0] for d in inside), page


def test_formulas_fit_a_phone_without_the_page_scrolling_sideways(browser,
                                                                  static_site: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    for path in PAGES:
        page.goto(static_site + path)
        shown = page.locator(".formula")
        assert shown.count() > 0 and shown.first.is_visible(), path
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        edges = page.evaluate(
            "[...document.querySelectorAll('.formula')].map(f => f.getBoundingClientRect().right)")
        assert max(edges) <= 390, path
    context.close()
