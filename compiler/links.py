"""Where things live in the rulebook: one place for every URL and anchor.

The engine cites rules by URL and the rulebook writes the pages those URLs
point to, so both take their addresses from here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

DEFAULT_SITE_URL = "http://127.0.0.1:8000/"


def site_url() -> str:
    """The rulebook's base URL: $RULEBOOK_URL, else mkdocs.yml's site_url, else local serve."""
    env = os.environ.get("RULEBOOK_URL")
    if env:
        return env.rstrip("/") + "/"
    config = Path(__file__).resolve().parents[1] / "mkdocs.yml"
    if config.is_file():
        m = re.search(r"^site_url:\s*(\S+)", config.read_text(encoding="utf-8"), re.M)
        if m:
            return m.group(1).rstrip("/") + "/"
    return DEFAULT_SITE_URL


# Where the judge (`rulebook judge`) answers, as the rulebook's pages link to it. A page
# cannot know at build time where it will be hosted, so its links carry this marker and the
# build's page hook (compiler/rulebook/hooks.py) replaces it: with $RULEBOOK_JUDGE_URL when
# set, else with the folder above the site, which is where `rulebook judge` serves the
# rulebook from (the judge at /, the rulebook at /rulebook/).
JUDGE_MARKER = "@judge-root@/"


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


def rule_path(ruleset_id: str, chapter_id: str, rule_id: str) -> str:
    return f"{chapter_page(ruleset_id, chapter_id)}#{anchor(rule_id)}"


def rule_url(ruleset_id: str, chapter_id: str, rule_id: str) -> str:
    return site_url() + rule_path(ruleset_id, chapter_id, rule_id)


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
