"""A reader who remembers a word and not a chapter finds it: the glossary says every place a
term is used, rulings and examples included, each once; the A–Z index lists every term,
rule, card and ruling by its name, under its letter."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.rulebook import a_to_z
from compiler.rulebook.links import Index
from tests import compiled
from tests.conftest import built_page


def _index(name: str) -> Index:
    return Index.of(compiled.ruleset(name))


def test_the_glossary_names_the_rulings_and_examples_about_a_term() -> None:
    said = _index("trian_deluxe").term_uses_said("exmitter")
    assert said.startswith("[§2.3]")
    assert "rulings: [TD-R12](rulings.md#exmitter-stacks" in said
    assert "examples: [TD-E10](" in said


def test_a_card_game_glossary_names_the_cards_about_a_term() -> None:
    said = _index("among_the_stars").term_uses_said("reactor")
    assert "cards: [§L.40](" in said


@pytest.mark.xdist_group("rulebook")
def test_no_glossary_names_a_place_twice(site: Path) -> None:
    for page in site.glob("*/glossary/index.html"):
        for used in re.findall(r"Used in (.*?)</p>", built_page(page)):
            places = re.findall(r'href="([^"]+)"', used)
            assert len(places) == len(set(places)), (page.parent.parent.name, used[:200])


def _lines(name: str) -> list[str]:
    rs = compiled.ruleset(name)
    return a_to_z.page_lines(rs, Index.of(rs))


def test_every_rule_and_term_is_under_its_letter() -> None:
    rs = compiled.ruleset("trian_deluxe")
    lines = _lines("trian_deluxe")
    listed = {line.split("**")[1] for line in lines if line.startswith("- **")}
    for r in rs.all_rules():
        assert r.title[:1].upper() + r.title[1:] in listed, r.id
    for t in rs.terms:
        assert t.title[:1].upper() + t.title[1:] in listed, t.id
    # "A tile that fits nowhere" is looked up under T, not A.
    letter = ""
    for line in lines:
        if line.startswith("## "):
            letter = line[3]
        if line.startswith("- **A tile that fits nowhere**"):
            assert letter == "T"


def test_a_card_printed_twice_is_one_entry() -> None:
    block = [line for line in _lines("among_the_stars") if line.startswith("- **Administration Block**")]
    assert len(block) == 1 and "§L.23" in block[0] and "§L.24" in block[0]


@pytest.mark.xdist_group("rulebook")
def test_each_letter_at_the_top_leads_to_its_heading(site: Path) -> None:
    html = built_page(site / "trian-deluxe" / "a-z" / "index.html")
    letters = re.findall(r'href="#(letter-[a-z]+)"', html)
    assert "letter-t" in letters
    for anchor in letters:
        assert f'id="{anchor}"' in html, anchor
