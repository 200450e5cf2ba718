"""Where things live in the rulebook: one place for every URL and anchor.

The engine cites rules by URL and the rulebook writes the pages those URLs
point to, so both take their addresses from here.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from compiler.ir import model as m

# Where the rulebook is published. A build for a host says so (`rulebook build --site-url
# URL`, or $RULEBOOK_SITE_URL); its canonical links, sitemap, PDF links and the rule links the
# engine prints all follow. A copy served anywhere else still works: its internal links are
# relative, and site/overrides/main.html lets the theme's previews find them on any origin.
SITE_URL_VARIABLE = "RULEBOOK_SITE_URL"
DEFAULT_SITE_URL = "http://127.0.0.1:8000/"


def site_url() -> str:
    """The rulebook's base URL: $RULEBOOK_SITE_URL, else where `rulebook serve` shows it."""
    env = os.environ.get(SITE_URL_VARIABLE, "").strip()
    return env.rstrip("/") + "/" if env else DEFAULT_SITE_URL


def site_url_problem(url: str) -> str | None:
    """Why `url` cannot be a site's address, in words, or None."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return (f"`{url}` is not a web address: write it whole, as "
                f"https://rules.example.org/ or https://example.org/books/")
    if parts.query or parts.fragment:
        return f"`{url}` has a ?query or #fragment: give the address of the site's folder"
    return None


# Where the judge (`rulebook judge`) answers, as the rulebook's pages link to it. A page
# cannot know at build time where it will be hosted, so its links carry this marker and the
# build's page hook (compiler/rulebook/hooks.py) replaces it: with $RULEBOOK_JUDGE_URL when
# set, else with the folder above the site, which is where `rulebook judge` serves the
# rulebook from (the judge at /, the rulebook at /rulebook/).
JUDGE_MARKER = "@judge-root@/"


# At the site's root: whether a judge serves this copy of the rulebook. The build writes one
# saying no; the judge, serving the rulebook at /rulebook/, answers yes in its place. The
# pages read it (judge-links.js) rather than probing the judge's API, which on a plain static
# host would be a 404 in the console of every reader.
JUDGE_FILE = "judge.json"


def judge_root(page_url: str) -> str:
    """The judge's address as seen from the page at `page_url` (relative to the site)."""
    env = os.environ.get("RULEBOOK_JUDGE_URL")
    if env:
        return env.rstrip("/") + "/"
    return "../" * (page_url.count("/") + 1)


def judge_link(ruleset_id: str, example_id: str | None = None) -> str:
    """The judge opened on a ruleset, or on the table of one of its worked examples."""
    query = f"?ruleset={ruleset_id}" + (f"&example={example_id}" if example_id else "")
    return JUDGE_MARKER + query


def slug(ruleset_id: str) -> str:
    return ruleset_id.replace("_", "-")


def anchor(rule_id: str) -> str:
    return rule_id.replace(".", "-").replace("_", "-")


def chapter_page(ruleset_id: str, chapter_id: str) -> str:
    """Path of a chapter page, relative to the site root."""
    return f"{slug(ruleset_id)}/{chapter_id.replace('_', '-')}/"


def page(ruleset_id: str, name: str) -> str:
    return f"{slug(ruleset_id)}/{name}/"


def rule_pages(rs: m.Ruleset) -> dict[str, str]:
    """The page each rule is on, by its name in the book's folder: its chapter's ("setup"),
    or in a chapter with a page per rule, its top-level rule's ("skills-arcana", rule
    `skills.arcana` and every rule inside it)."""
    pages: dict[str, str] = {}
    for ch in rs.chapters:
        for top in ch.rules:
            page = anchor(top.id) if ch.page_per_rule else ch.id.replace("_", "-")
            stack = [top]
            while stack:
                r = stack.pop()
                pages[r.id] = page
                stack.extend(r.rules)
    return pages


def rule_path(ruleset_id: str, page_name: str, rule_id: str) -> str:
    """A rule's address, relative to the site root, from the page it is on (`rule_pages`)."""
    return f"{page(ruleset_id, page_name)}#{anchor(rule_id)}"


def rule_url(ruleset_id: str, page_name: str, rule_id: str) -> str:
    return site_url() + rule_path(ruleset_id, page_name, rule_id)


def cardset_page(cardset: str) -> str:
    """The page of a card set, within its ruleset's folder."""
    return "cards-" + cardset.replace("_", "-")


def card_page(cited: str) -> str:
    """The page showing a card, from its citation `set.card`."""
    return cardset_page(cited.split(".", 1)[0])


def card_anchor(cited: str) -> str:
    return "card-" + anchor(cited.split(".", 1)[1])


def card_url(ruleset_id: str, cited: str) -> str:
    """Where a card is shown, as a rule's URL says where the rule is: `set.card` → its page."""
    return site_url() + f"{page(ruleset_id, card_page(cited))}#{card_anchor(cited)}"
