"""Every page of the built rulebook reads as English a player would write.

Prose is generated from the IR, so a slip in a generator shows on many pages at
once: a Python value spoken aloud ("has rolled None"), a plural after one ("Board
with 1 tiles"), a list run into the sentence that leads into it. These tests read
the text a reader sees — code, formulas and drawings aside — on every page.
"""

from __future__ import annotations

import re
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests import compiled
from tests.test_reading_aloud import Leaks

pytestmark = pytest.mark.xdist_group("rulebook")  # the site fixture (conftest) is built once

_NOT_PROSE = {"script", "style", "code", "pre", "math", "svg", "kbd"}


class _Prose(HTMLParser):
    """The words of a page's article, without code, formulas and drawings."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self._article = 0
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._article += tag == "article"
        self._skip += tag in _NOT_PROSE

    def handle_endtag(self, tag: str) -> None:
        self._article -= tag == "article"
        self._skip -= tag in _NOT_PROSE

    def handle_data(self, data: str) -> None:
        if self._article and not self._skip:
            self.words.append(data)


def prose(page: Path) -> str:
    reader = _Prose()
    reader.feed(page.read_text(encoding="utf-8"))
    return re.sub(r"\s+", " ", " ".join(reader.words))


@pytest.fixture(scope="module")
def pages(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): prose(p) for p in sorted(site.rglob("*.html"))}


def where(pages: dict[str, str], pattern: str) -> dict[str, list[str]]:
    """Each page where `pattern` is found, with the words around it."""
    found: dict[str, list[str]] = defaultdict(list)
    for name, text in pages.items():
        for hit in re.finditer(pattern, text):
            found[name].append(text[max(0, hit.start() - 50):hit.end() + 30])
    return dict(found)


def test_no_page_speaks_a_python_value(pages: dict[str, str]) -> None:
    """'The nebula has rolled None' is a generator's slip; a reader wants 'not rolled'."""
    assert len(pages) > 300
    assert where(pages, r"\b(?:None|True|False)\b") == {}


def _singular(plural: str) -> str:
    return plural[:-3] + "y" if plural.endswith("ies") else plural[:-1]


def test_one_of_a_thing_is_singular(pages: dict[str, str]) -> None:
    """'Board with 1 tiles', 'Worked examples: 1 examples' are wrong. A word the rulebook
    counts ("2 tiles") and also says one of ("a tile") is a noun, and one of it is singular."""
    everything = " ".join(pages.values())
    said_one_of = set(re.findall(r"\b(?:a|an|one|each|every) (?=([a-z]+)\b)", everything))
    nouns = {w for w in re.findall(r"\b(?:[2-9]|\d\d+) ([a-z]+s)\b", everything)
             if _singular(w) in said_one_of}
    assert {"tiles", "points", "examples", "cards"} <= nouns
    plural_after_one = r"(?<![\d.,+−-])\b1 (" + "|".join(sorted(nouns)) + r")\b"
    assert where(pages, plural_after_one) == {}


def test_lists_are_lists_not_run_on_paragraphs(site: Path) -> None:
    """A lead-in line ending in ':' and then '- item' lines must become a list; without a
    blank line before them Markdown runs them into the paragraph ('…card: - t brings …')."""
    # (the page is minified: the line break before the '-' is a space by then)
    run_on = re.compile(r"<p>(?:(?!</p>).)*\s[-*] ", re.S)
    assert run_on.search("<p>Each card: - t brings</p>")  # as a run-on list reads
    pages = [str(p.relative_to(site)) for p in site.rglob("*.html")
             if run_on.search(p.read_text(encoding="utf-8"))]
    assert pages == []
    boxes = sum(p.read_text(encoding="utf-8").count("As the engine reads it")
                for p in site.rglob("*.html"))
    assert boxes > 300


def test_no_word_is_said_twice_by_a_generator(pages: dict[str, str]) -> None:
    """'in the the order of play', 'a reroll token token': a title that brings its own article
    or noun, said after the generator's. Colours and notation placeholders may repeat
    ('red red' is a seat's colour and name), so only these words are checked."""
    assert where(pages, r"\b(the|a|an|token|tokens|of|in|moves|minerals|credits|points|tiles"
                        r"|cards)\s+\1\b") == {}


def test_what_an_example_checked_is_said_in_words(pages: dict[str, str]) -> None:
    """'Checked: zone_size ✓' named the expectation by its keyword; a reader wants 'Red’s
    hand holds 3 cards ✓'. Only code may show an identifier."""
    assert where(pages, r"Checked:[^✓]*\b[a-z]+_[a-z_]+\b[^✓]*✓") == {}
    assert where(pages, r"Checked:.*\bYellow’s hand holds 6 cards ✓") != {}


def test_a_cards_printed_properties_are_said_in_words(pages: dict[str, str]) -> None:
    """'cost 1 · energy_cost 1' was the card's data; its kind says 'needs 1 energy crystal'."""
    assert where(pages, r"\benergy_cost\b(?! \()") == {}
    assert where(pages, r"needs 1 energy crystal\b") != {}


# ------------------------------------------------ the Markdown, before it is a page


def _prose(markdown: str) -> str:
    """A page without its code: rules source and notation are not prose."""
    markdown = re.sub(r"```.*?```", "", markdown, flags=re.S)
    return re.sub(r"`[^`\n]*`", "", markdown)


def test_every_generated_page_reads_as_english(markdown: Path) -> None:
    """No page says what a ruling must never say (tests/test_reading_aloud.py: `Leaks`), in
    the words of its own book; a page outside every book in the base game's."""
    leaks = {name: Leaks(compiled.ruleset(name)) for name in compiled.names()}
    every = leaks["trian_deluxe"]
    found = []
    for path in sorted(markdown.rglob("*.md")):
        folder = path.relative_to(markdown).parts[0]
        checker = next((lk for name, lk in leaks.items() if name.replace("_", "-") == folder),
                       every)
        found += [f"{path.relative_to(markdown)}: {hit}"
                  for hit in checker.found(_prose(path.read_text(encoding="utf-8")))]
    assert not found, "\n".join(found[:50])


def test_titles_keep_their_capitals_in_the_variant_pages(markdown: Path) -> None:
    conquest = (markdown / "trian-conquest").rglob("*.md")
    text = "".join(p.read_text(encoding="utf-8") for p in conquest)
    assert "Początek Podboju" in text
    assert "początek podboju" not in text
