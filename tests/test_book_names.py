"""A page says which book it is in: a variant's pages look just like its base's, so the
browser's tab and the header (on a phone too) name the book, and Next and Previous do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import built_page

pytestmark = pytest.mark.xdist_group("rulebook")


def _title(site: Path, page: str) -> str:
    html = built_page(site / page / "index.html")
    return re.search(r"<title>([^<]*)</title>", html).group(1)


def test_the_same_chapter_of_two_books_has_two_titles(site: Path) -> None:
    assert _title(site, "trian-deluxe/setup") == (
        "3. Setting up · Deluxe edition: the base game · Galaxy of Trian")
    assert _title(site, "trian-teams/setup") == (
        "3. Setting up · Team variants: 2 v 2 and 2 v 2 v 2 · Galaxy of Trian")
    assert _title(site, "trian-family/glossary") == "Glossary · Family variant · Galaxy of Trian"
    assert _title(site, "among-the-stars") == (
        "The base game for three and four players · Among the Stars")
    assert _title(site, "") == "Rulebooks"  # pages of no book keep the site's name
    assert _title(site, "guides/variants") == "Writing your own variant - Rulebooks"


def test_the_header_names_the_book_on_a_phone_and_follows_the_reader(browser,
                                                                     static_site: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    topic = page.locator(".md-header__topic").first
    page.goto(static_site + "trian-family/glossary/")
    expect(topic).to_have_text("Family variant")
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(topic).to_have_text("Galaxy of Trian: Family variant")
    page.get_by_role("link", name="Among the Stars", exact=True).first.click()  # a tab
    expect(topic).to_have_text("Among the Stars: The base game for three and four players")
    page.get_by_role("link", name="Home", exact=True).first.click()
    expect(topic).to_have_text("Rulebooks")
    context.close()
