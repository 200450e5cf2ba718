"""Search looks in the book being read, names it, and opens a rule, ruling or example from
its number: a reader of the Deluxe rules who types "6.2" gets 6.2 of those rules, not of
eight other books; "E36" and "R5" open that example and that ruling. Each book's index is
small enough for a phone, holds its worked examples, and leaves out the engine's readings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compiler.load import ruleset_dirs
from compiler import links
from compiler.rulebook import search
from tests import compiled
from tests.conftest import built_page

pytestmark = pytest.mark.xdist_group("rulebook")


def _docs(path: Path) -> list[dict[str, str]]:
    return json.loads(path.read_text(encoding="utf-8"))["docs"]


def test_each_book_has_an_index_of_its_own_pages_under_a_megabyte(site: Path) -> None:
    for ruleset in ruleset_dirs():
        slug = links.slug(ruleset)
        path = site / slug / search.BOOK_INDEX
        assert path.stat().st_size < 1_000_000, slug
        docs = _docs(path)
        assert {d["location"].split("/")[0] for d in docs} == {slug}
        # Every page of the book is in it: none lost in the split.
        pages = {p.parent.relative_to(site).as_posix() + "/"
                 for p in (site / slug).rglob("index.html")} - {f"{slug}/print/"}
        assert pages <= {d["location"].split("#")[0] for d in docs}, slug
    assert (site / search.INDEX).stat().st_size < 1_000_000


def test_the_site_index_keeps_the_pages_outside_the_books_and_names_each_book(site: Path) -> None:
    docs = _docs(site / search.INDEX)
    assert any(d["location"].startswith("language/") for d in docs)
    fronts = {d["location"]: d["title"] for d in docs if d["location"].endswith("/")
              and d["location"].count("/") == 1}
    assert fronts["trian-deluxe/"] == "Galaxy of Trian: Deluxe edition: the base game"
    assert fronts["trian-family/"] == "Galaxy of Trian: Family variant"
    assert not [d for d in docs if d["location"].startswith("trian-deluxe/setup/")]


def test_every_worked_example_is_found_by_its_id_where_it_is_shown(site: Path) -> None:
    rs = compiled.ruleset("trian_deluxe")
    docs = {d["title"].split(" · ")[0]: d for d in _docs(site / "trian-deluxe" / search.BOOK_INDEX)}
    for ex in rs.examples:
        assert ex.number in docs, ex.number
    nebula = docs["TD-E36"]
    assert nebula["title"] == "TD-E36 · A nebula of 5 tiles at mining level 7"
    page, anchor = nebula["location"].split("#")
    assert f'id="{anchor}"' in built_page(site / page / "index.html")


def test_the_index_holds_prose_and_not_the_engines_readings(site: Path) -> None:
    docs = [d for p in site.glob(f"*/{search.BOOK_INDEX}") for d in _docs(p)]
    assert not [d["location"] for d in docs if "/print/" in d["location"]]
    assert not [d["location"] for d in docs if "As the engine reads it" in d["text"]]
    assert not [d["location"] for d in docs if "<svg" in d["text"] or "give count(" in d["text"]]
    assert not [d["location"] for d in docs if "Referenced by:" in d["text"]]
    table = re.compile(r"What happens\W*(?:</th>\W*<th>)?\W*Rule\b")  # an effects table's head
    assert not [d["location"] for d in docs if table.search(d["text"])]
    emissary = [d for d in docs if d["location"] == "trian-deluxe/actions/#actions-emissary"]
    assert emissary and "emissary" in emissary[0]["text"]


# ------------------------------------------------------------------ in a browser


def _search(page, query: str) -> None:
    page.locator(".md-search__input").click()
    page.keyboard.type(query)
    page.locator(".md-search-result__meta").filter(has_text="matching").wait_for(timeout=10_000)


@pytest.fixture
def reader(browser, static_site: str):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page, static_site
    context.close()
    assert errors == []


def test_search_finds_only_the_book_being_read_and_says_which(reader) -> None:
    page, root = reader
    page.goto(root + "trian-family/gathering/")
    page.locator("label.md-header__button[for=__search]").click()
    assert page.locator(".md-search__input").get_attribute("placeholder") == \
        "Search Family variant"
    page.keyboard.type("nebula")
    page.locator(".md-search-result__meta").filter(has_text="matching").wait_for(timeout=10_000)
    hrefs = page.locator(".md-search-result__item a").evaluate_all(
        "links => links.map(a => new URL(a.href).pathname)")
    assert hrefs and all(h.startswith("/trian-family/") for h in hrefs)


@pytest.mark.parametrize(("typed", "offered", "opens"), [
    ("6.2", "Go to 6.2 Touching the galaxy", "trian-deluxe/tiles/#tiles-touch"),
    ("§7.3", "Go to 7.3 Activating a research station", "trian-deluxe/actions/#actions-station"),
    ("E36", "Go to TD-E36 · A nebula of 5 tiles at mining level 7",
     "trian-deluxe/end/#example-nebula-35"),
    ("td-r5", "Go to TD-R5 An emissary on a trade outpost", "trian-deluxe/rulings/#outpost-action"),
])
def test_a_number_typed_alone_is_offered_first_and_enter_opens_it(reader, typed: str,
                                                                  offered: str, opens: str) -> None:
    page, root = reader
    page.goto(root + "trian-deluxe/setup/")
    page.locator("label.md-header__button[for=__search]").click()
    _search(page, typed)
    jump = page.locator(".rulebook-jump a")
    jump.first.wait_for(timeout=10_000)
    assert jump.all_inner_texts() == [offered]
    page.keyboard.press("Enter")
    page.wait_for_url(root + opens, timeout=10_000)


def test_a_number_two_rules_share_offers_both(reader) -> None:
    page, root = reader
    page.goto(root + "trian-family/")
    page.locator("label.md-header__button[for=__search]").click()
    _search(page, "R1")
    jump = page.locator(".rulebook-jump a")
    jump.first.wait_for(timeout=10_000)
    assert jump.all_inner_texts() == ["Go to TD-R1 Seat order",
                                      "Go to TF-R1 Nobody controls a planetary system"]


def test_a_link_into_another_book_brings_that_books_search(reader) -> None:
    page, root = reader
    page.goto(root + "trian-family/")
    page.locator("article a[href*='trian-deluxe/']").first.click()
    page.wait_for_url(root + "trian-deluxe/**", timeout=10_000)
    page.locator("label.md-header__button[for=__search]").click()
    assert "Deluxe" in page.locator(".md-search__input").get_attribute("placeholder")
    _search(page, "nebula")
    hrefs = page.locator(".md-search-result__item a").evaluate_all(
        "links => links.map(a => new URL(a.href).pathname)")
    assert hrefs and all(h.startswith("/trian-deluxe/") for h in hrefs)


@pytest.mark.parametrize(("address", "opens"), [
    ("trian-deluxe/#6.2", "trian-deluxe/tiles/#tiles-touch"),
    ("trian-deluxe/setup/#E36", "trian-deluxe/end/#example-nebula-35"),
])
def test_a_book_cited_by_number_in_its_address_opens_there(reader, address: str,
                                                           opens: str) -> None:
    """As a printed rulebook is cited by its numbers: …/trian-deluxe/#6.2 is rule 6.2."""
    page, root = reader
    page.goto(root + address)
    page.wait_for_url(root + opens, timeout=10_000)


def test_every_other_book_is_searched_on_request_and_opens_with_the_search(reader) -> None:
    """A Family reader asks where else "warcry" is written: only the New Order books have
    it; following one opens that book with the search already filled in."""
    page, root = reader
    page.goto(root + "trian-family/")
    page.locator("label.md-header__button[for=__search]").click()
    _search(page, "warcry")
    button = page.locator(".rulebook-everywhere button")
    assert button.inner_text() == "Search every book for “warcry”"
    button.click()
    found = page.locator(".rulebook-everywhere li a")
    found.first.wait_for(timeout=15_000)
    books = found.all_inner_texts()
    assert books and all("New Order" in b for b in books), books
    found.first.click()
    page.wait_for_url(re.compile(r".*/trian-new-order[^/]*/\?q=warcry"), timeout=10_000)
    assert page.locator(".md-search__input").input_value() == "warcry"
    page.locator(".md-search-result__meta").filter(has_text="matching").wait_for(timeout=10_000)
    hrefs = page.locator(".md-search-result__item a").evaluate_all(
        "links => links.map(a => new URL(a.href).pathname)")
    assert hrefs and all(h.startswith("/trian-new-order") for h in hrefs)
