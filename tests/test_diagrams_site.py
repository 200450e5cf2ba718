"""Diagrams in the built rulebook: every id unique on its page, a key under every worked
example's pictures, and a tap that enlarges a board on a phone (Escape closes it and
gives focus back). Screenshots go to build/test-artifacts/diagrams/ for a person to see."""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import built_page

ARTEFACTS = Path(__file__).resolve().parent.parent / "build" / "test-artifacts" / "diagrams"
ID = re.compile(r'\sid="([^"]+)"')


BLOCK = re.compile(r'<div class="diagrams">\s*(.*?</figure>)\s*(<ul[^>]*class="diagram-key".*?</ul>)?'
                   r'\s*</div>', re.S)
SVG = re.compile(r"<svg\b.*?</svg>", re.S)


def test_no_picture_brings_an_id_that_could_clash_on_its_page(site: Path) -> None:
    """Several pictures share a page (the same board twice, even): none carries an id, so
    none can clash with another, or with the page's own ids."""
    pages = list(site.rglob("*.html"))
    pictures = [(page, svg) for page in pages
                for svg in SVG.findall(built_page(page))]
    assert len(pictures) > 1000
    assert [(str(p.relative_to(site)), ID.findall(svg)[:3]) for p, svg in pictures
            if ID.search(svg)] == []


def test_no_rulebook_page_has_an_id_twice(site: Path) -> None:
    clashes = {}
    for page in site.rglob("*.html"):
        twice = [i for i, n in Counter(ID.findall(built_page(page))).items()
                 if n > 1]
        if twice:
            clashes[str(page.relative_to(site))] = twice[:5]
    assert clashes == {}


def test_a_worked_examples_pictures_come_with_their_key(site: Path) -> None:
    """Every example picture showing a piece, a tile's terrain or a mark has a key under it
    (a row of cards with no pieces has nothing to explain)."""
    blocks = [b for p in site.rglob("*.html") for b in
              BLOCK.findall(built_page(p))]
    explained = [(pictures, key) for pictures, key in blocks
                 if 'class="piece"' in pictures or 'class="mark' in pictures
                 or 'class="tile"' in pictures and 'class="card' not in pictures]
    assert len(explained) > 300
    assert [pictures[:80] for pictures, key in explained if not key] == []
    # A key says whose colour is whose, in words.
    assert any("'s pieces</span>" in html.unescape(key) for _, key in explained)


@pytest.fixture()
def phone(browser, static_site):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, base_url=static_site)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors


def test_tapping_a_board_on_a_phone_enlarges_it_and_escape_closes_it(site: Path, phone) -> None:
    target = next(p for p in sorted(site.rglob("index.html"))
                  if 'class="diagrams"' in built_page(p))
    phone.goto(str(target.relative_to(site).parent) + "/")
    figure = phone.locator(".diagrams figure").first
    figure.scroll_into_view_if_needed()
    small = figure.locator("svg").bounding_box()
    figure.tap()
    dialog = phone.locator("dialog.diagram-zoom")
    dialog.wait_for(state="visible")
    big = dialog.locator("svg").bounding_box()
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(ARTEFACTS / "phone-enlarged.png"))
    assert big["width"] > small["width"] * 1.1 or big["height"] > small["height"] * 1.1
    phone.locator("button[aria-label='Zoom in']").tap()
    assert "scale(1.5)" in dialog.locator("svg").get_attribute("style")
    phone.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert phone.evaluate("document.activeElement.dataset.zoomable") == "yes"
