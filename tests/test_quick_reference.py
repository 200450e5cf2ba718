"""Each book has a quick reference to keep open at the table: the turn step by step, every
action with what it needs, and every formula the rules compute, each linked to its rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.ir import model as m
from compiler.rulebook import quickref
from compiler.rulebook.formal import Formal
from compiler.rulebook.links import Index
from tests import compiled
from tests.conftest import built_page


def _page(name: str) -> str:
    rs = compiled.ruleset(name)
    ix = Index.of(rs)
    return "\n".join(quickref.page_lines(rs, ix, Formal(rs, ix)))


def test_the_deluxe_turn_reads_in_its_four_steps() -> None:
    page = _page("trian_deluxe")
    turn = page.split("## The turn")[1].split("## Actions")[0]
    steps = [line.split(":**")[0] for line in turn.splitlines() if line[:1].isdigit()]
    assert steps == ["1. **Gather minerals", "2. **Draw and place a tile",
                     "3. **Take one action", "4. **Check control and score"]
    assert "you must take one of: send an emissary, activate a research station" in turn


@pytest.mark.parametrize("name", ["trian_deluxe", "among_the_stars", "trian_new_order"])
def test_every_action_is_listed_with_its_rule(name: str) -> None:
    rs = compiled.ruleset(name)
    page = _page(name)
    actions = [d for d in rs.all_decls() if isinstance(d, m.Action)]
    for a in actions:
        assert f"| {a.title[:1].upper() + a.title[1:]} |" in page, a.id


def test_every_scoring_rule_shows_its_formula_linked_to_it() -> None:
    formulas = _page("trian_deluxe").split("## Formulas")[1]
    for rule in ("10.3 Scoring nebulas", "10.4 Scoring planetary systems",
                 "8.6.1 A nebula: 1 point per tile"):
        after = formulas.split(f"[{rule}](")[1]
        assert after.split("**", 1)[1].lstrip().startswith('<div class="formula"><math'), rule


@pytest.mark.xdist_group("rulebook")
def test_the_quick_reference_is_in_each_books_navigation(site: Path) -> None:
    front = built_page(site / "among-the-stars" / "index.html")
    assert 'href="quick-reference/"' in front
    assert (site / "among-the-stars" / "quick-reference" / "index.html").is_file()
