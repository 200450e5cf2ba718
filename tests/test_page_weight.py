"""A page read on a phone mid-game carries its own book's navigation, not the whole site's,
and no page is heavy enough to stall a weak connection."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import built_page

pytestmark = pytest.mark.xdist_group("rulebook")


def _primary_nav(html: str) -> str:
    start = html.index('<nav class="md-nav md-nav--primary')
    return html[start:html.index('data-md-type="toc"', start)]


def test_a_page_links_into_other_books_only_by_their_front_page(site: Path) -> None:
    html = built_page(site / "trian-family" / "setup" / "index.html")
    nav = _primary_nav(html)
    assert 'href="../rulings/"' in nav                       # its own book, whole
    assert 'href="../../trian-deluxe/"' in nav               # another book, by its front page
    assert not re.search(r'href="\.\./\.\./trian-deluxe/[a-z]', nav)
    assert not re.search(r'href="\.\./\.\./among-the-stars/[a-z]', nav)


def test_no_page_is_heavier_than_half_a_megabyte(site: Path) -> None:
    heavy = {str(p.relative_to(site)): p.stat().st_size for p in site.rglob("*.html")
             if p.stat().st_size > 500_000}
    assert heavy == {}
