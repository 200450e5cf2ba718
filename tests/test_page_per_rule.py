"""A long chapter of separate topics gives each of its rules a page: the New Order's races,
one page each, with their skills, costs, timing and examples. A rule's number, id and links
stay; only the page it is shown on changes, and the engine's rule links follow."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import links
from compiler.engine.position import Rules
from tests import compiled
from tests.conftest import built_page


@pytest.fixture(scope="module")
def new_order() -> Rules:
    return compiled.rules("trian_new_order")


def test_each_race_is_a_page_and_the_other_chapters_stay_whole(new_order: Rules) -> None:
    pages = links.rule_pages(new_order.ruleset)
    assert pages["skills.xemh"] == pages["skills.xemh.warcry"] == "skills-xemh"
    assert pages["skills.arvori.priestess"] == "skills-arvori"
    assert pages["setup.races"] == "setup"


def test_the_engine_cites_a_skill_on_its_races_page(new_order: Rules) -> None:
    cited = new_order.cite("skills.xemh.warcry")
    assert cited is not None and cited.number == "10.8.1"
    assert cited.url.endswith("trian-new-order/skills-xemh/#skills-xemh-warcry")


@pytest.mark.xdist_group("rulebook")
def test_the_chapter_lists_its_races_and_each_page_holds_its_skills(site: Path) -> None:
    chapter = built_page(site / "trian-new-order" / "skills" / "index.html")
    assert 'href="../skills-xemh/#skills-xemh"' in chapter
    xemh = built_page(site / "trian-new-order" / "skills-xemh" / "index.html")
    assert 'id="skills-xemh-warcry"' in xemh and 'id="skills-xemh-cannon"' in xemh
    assert 'id="skills-arvori-priestess"' not in xemh
    # The book's navigation lists every race, from any of its pages.
    assert 'href="../skills-arvori/"' in xemh
