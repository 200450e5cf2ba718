"""The whole book on one page, and as a PDF, for reading on paper or with no connection.

Each ruleset's print page holds every chapter, rule, ruling and glossary entry in the
book's order; its links lead to places on the page itself; the PDF says the same with a
bookmark per heading, and comes out byte for byte the same from the same rules. The site's
pages ask no server but their own for anything, and a book kept from its front page opens
with no connection at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from compiler import links as urls
from compiler.ir import model as m
from compiler.load import ruleset_dirs
from compiler.rulebook import printed
from tests import compiled
from tests.conftest import built_page


def _heading_ids(text: str) -> list[str]:
    return re.findall(r"\{ #([^ }]+) \}", text)


def test_the_one_page_has_every_rule_ruling_and_term_in_the_books_order(deluxe: m.Ruleset) -> None:
    text = "\n".join(printed.body(deluxe))
    expected = [r.id for ch in deluxe.chapters for r in _in_order(ch.rules)]
    rules_on_page = [x for x in _heading_ids(text) if x in {urls.anchor(r) for r in expected}]
    assert rules_on_page == [urls.anchor(r) for r in expected]
    for ruling in deluxe.rulings:
        assert f"{ruling.number} {ruling.title} {{ #ruling-{urls.anchor(ruling.id)} }}" in text
    for term in deluxe.terms:
        assert f"{{ #term-{urls.anchor(term.id)} }}" in text
    ids = _heading_ids(text)
    assert len(ids) == len(set(ids))  # a term or ruling may share a rule's id: never its anchor
    assert "As the engine reads it" not in text  # the engine's boxes stay on the chapter pages


def _in_order(rules: list[m.Rule]) -> Iterator[str]:
    for r in rules:
        yield r
        yield from _in_order(r.rules)


@pytest.mark.parametrize("ruleset", ["trian_deluxe", "trian_new_order", "among_the_stars"])
def test_links_between_rules_stay_on_the_one_page(ruleset: str) -> None:
    rs = compiled.ruleset(ruleset)
    text = "\n".join(printed.body(rs))
    targets = set(re.findall(r"\]\(#([^) \"]+)", text))
    assert targets, "the page links to its own rules, rulings and terms"
    assert targets <= set(_heading_ids(text))
    # Only what the page does not hold is linked elsewhere: card pages, the tile catalogue.
    for page in set(re.findall(r"\]\(([a-z0-9-]+)\.md", text)):
        assert page not in {"rulings", "glossary", *(ch.id.replace("_", "-") for ch in rs.chapters)}


def test_the_pdf_bookmarks_every_heading_and_links_out_only_for_what_it_does_not_hold(
        deluxe: m.Ruleset) -> None:
    data = printed.pdf_bytes(deluxe, "https://rules.example.org/books/")
    assert data.startswith(b"%PDF-")
    assert b"/Outlines" in data
    for r in deluxe.all_rules():
        assert f"({urls.anchor(r.id)}) [".encode() in data, r.id  # a named destination
    outside = set(re.findall(rb"/URI \(([^)]*)\)", data))
    assert outside, "the tile catalogue is online only"
    assert all(u.startswith(b"https://rules.example.org/books/trian-deluxe/") for u in outside)
    assert printed.pdf_bytes(deluxe, "https://rules.example.org/books/") == data


# ------------------------------------------------------------------ the built site

in_rulebook_group = pytest.mark.xdist_group("rulebook")


@in_rulebook_group
def test_every_book_has_its_one_page_and_its_pdf_linked_from_its_front_page(site: Path) -> None:
    for name in ruleset_dirs():
        slug = urls.slug(name)
        front = built_page(site / slug / "index.html")
        assert 'href="print/"' in front and f'href="{slug}.pdf"' in front, name
        assert (site / slug / "print" / "index.html").is_file(), name
        assert (site / slug / f"{slug}.pdf").read_bytes().startswith(b"%PDF-"), name
        kept = json.loads((site / slug / "offline.json").read_text(encoding="utf-8"))
        assert "./" in kept and "print/" in kept and f"{slug}.pdf" in kept, name
        for url in kept:  # what "Keep this book" fetches is all there
            assert (site / slug / url / ("index.html" if url.endswith("/") else "")).is_file(), url


@in_rulebook_group
def test_pages_ask_no_other_server_for_anything(browser, static_site: str) -> None:
    """Read with no connection but to the site itself: no fonts, scripts or styles from
    elsewhere, on the front page, a chapter, a page of pictures and the one page."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    elsewhere: list[str] = []
    context.route(re.compile(r"^(?!" + re.escape(static_site) + ")"),
                  lambda route: (elsewhere.append(route.request.url), route.abort()))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for path in ("", "trian-deluxe/", "trian-deluxe/setup/", "trian-deluxe/catalogue/",
                 "trian-deluxe/print/", "among-the-stars/cards-race-cards/"):
        page.goto(static_site + path, wait_until="networkidle")
    context.close()
    assert elsewhere == []
    assert errors == []


@in_rulebook_group
def test_a_book_kept_on_the_device_opens_with_no_connection(browser, static_site: str) -> None:
    """A reader keeps Deluxe from its front page, loses the signal, and opens a chapter
    they never read, in a new tab; a book they did not keep says so in words."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(static_site + "trian-deluxe/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.get_by_role("button", name="Keep this book on this device").click()
    page.wait_for_function(
        "document.querySelector('.offline-status').textContent.startsWith('Kept')")
    assert page.locator(".offline-status").inner_text().startswith("Kept: all")
    context.set_offline(True)
    tab = context.new_page()
    tab.goto(static_site + "trian-deluxe/areas/")
    assert tab.locator("h1").first.inner_text().startswith("8. Step 4")
    assert tab.locator("header.md-header").is_visible()  # styled: the theme's assets were kept
    reply = tab.goto(static_site + "among-the-stars/")
    assert reply.status == 503 and tab.locator("h1").inner_text() == "No connection"
    context.close()
    assert errors == []


@in_rulebook_group
def test_the_one_page_prints_without_the_screens_links(browser, static_site: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(static_site + "trian-deluxe/print/")
    assert page.locator(".print-note").is_visible()
    page.emulate_media(media="print")
    assert not page.locator(".print-note").is_visible()
    assert not page.locator("header.md-header").is_visible()
    assert page.locator("h2#chapter-setup").is_visible()
    context.close()
