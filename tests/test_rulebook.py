"""The rulebook as a reader meets it: built once, then read page by page.

The site is built into a temporary folder with mkdocs in strict mode, so any
warning (a dangling link, a missing anchor) fails here as it fails the build.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compiler import links as urls
from compiler.ir import model as m
from tests.conftest import built_page

pytestmark = pytest.mark.xdist_group("rulebook")  # the site fixture (conftest) is built once


def page(site: Path, ruleset: m.Ruleset, name: str) -> str:
    return built_page(site / urls.slug(ruleset.id) / name / "index.html")


def test_every_rule_has_a_numbered_heading_with_a_permalink(site: Path, deluxe: m.Ruleset
                                                            ) -> None:
    for chapter in deluxe.chapters:
        html = page(site, deluxe, chapter.id.replace("_", "-"))
        for rule in chapter.rules:
            anchor = urls.anchor(rule.id)
            heading = re.search(rf'<h\d id="{re.escape(anchor)}">(.*?)</h\d>', html, re.S)
            assert heading, f"no heading for {rule.id}"
            assert heading.group(1).startswith(f"{rule.number} ")
            assert f'href="#{anchor}"' in heading.group(1)


def test_glossary_terms_link_with_a_tooltip(site: Path, deluxe: m.Ruleset) -> None:
    html = page(site, deluxe, "areas")
    term = next(t for t in deluxe.terms if t.id == "nebula")
    link = re.search(r'<a [^>]*href="../glossary/#nebula"[^>]*>', html)
    assert link and 'title="' in link.group(0)
    assert term.id in page(site, deluxe, "glossary")


def test_rulings_are_linked_from_the_rules_they_settle(site: Path, deluxe: m.Ruleset) -> None:
    rulings = page(site, deluxe, "rulings")
    for ruling in deluxe.rulings:
        assert f'id="{urls.anchor(ruling.id)}"' in rulings
    assert "../rulings/#" in page(site, deluxe, "areas")


def test_every_worked_example_is_shown_verified_with_a_diagram(site: Path, deluxe: m.Ruleset
                                                               ) -> None:
    shown = 0
    for chapter in deluxe.chapters:
        html = page(site, deluxe, chapter.id.replace("_", "-"))
        for block in re.findall(r'<div class="admonition example".*?</svg>', html, re.S):
            assert "Verified against the engine" in block
            shown += 1
    assert shown == len(deluxe.examples)


def test_formulas_are_rendered_from_the_rules_as_mathml(site: Path, deluxe: m.Ruleset) -> None:
    html = page(site, deluxe, "end")
    assert "<math" in html
    assert "As the engine reads it" in html


def test_the_catalogue_draws_every_face(site: Path, deluxe: m.Ruleset) -> None:
    html = page(site, deluxe, "catalogue")
    faces = sum(len(t.faces) for t in deluxe.tiles())
    assert html.count('<figure class="tile-face">') == faces
    assert "reconstruction" in html


def test_the_position_schema_is_published(site: Path, deluxe: m.Ruleset) -> None:
    schema = json.loads((site / urls.slug(deluxe.id) / "position.schema.json").read_text())
    assert schema["type"] == "object" and "properties" in schema
    assert "position.schema.json" in page(site, deluxe, "formats")


def test_search_indexes_rule_text(site: Path) -> None:
    index = json.loads((site / "trian-deluxe" / "search_index.json").read_text())
    assert any("Nebulas" in doc.get("title", "") for doc in index["docs"])
    config = (Path(__file__).parents[1] / "mkdocs.yml").read_text()
    for feature in ("search.suggest", "search.highlight", "search.share",
                    "navigation.instant", "content.tooltips"):
        assert feature in config


def test_rules_code_is_highlighted_and_variants_have_what_changes_pages(site: Path) -> None:
    language = built_page(site / "language" / "index.html")
    assert 'class="language-rules highlight"' in language or 'class="highlight"' in language
    assert '<span class="k">rule</span>' in language
    changes = built_page(site / "trian-family" / "changes" / "index.html")
    assert 'class="compare"' in changes and "../../trian-deluxe/" in changes
    tabs = built_page(site / "trian-family" / "setup" / "index.html")
    assert "tabbed-set" in tabs and "Deluxe edition: the base game" in tabs


def test_an_example_diagram_names_and_colours_the_examples_own_seats(site: Path) -> None:
    """E119 seats the Sslyx and the Xemh: its diagram says so, not the first seats declared."""
    html = built_page(site / "trian-new-order" / "exploration" / "index.html")
    block = html[html.index('id="example-gate-keeps-emissaries-off"'):]
    block = block[:block.index("</figure>")]
    assert "Sslyx’s Mobile Teleport at 0,0:space" in block.replace("&#x27;", "’") or \
           "Sslyx's Mobile Teleport at 0,0:space" in block.replace("&#x27;", "'")
    assert "Before: turn 10, Sslyx to play" in block
    assert "Arvori" not in block


def test_every_page_asks_the_judge_and_every_example_opens_in_it(site: Path,
                                                                  deluxe: m.Ruleset) -> None:
    """The links lead to the folder above the site, where `rulebook judge` answers (it
    serves the rulebook at /rulebook/): from a chapter page three folders up."""
    chapter = deluxe.chapters[0].id.replace("_", "-")
    html = page(site, deluxe, chapter)
    assert f'href="../../../?ruleset={deluxe.id}"' in html
    chapters = "".join(page(site, deluxe, ch.id.replace("_", "-")) for ch in deluxe.chapters)
    opened = set(re.findall(
        rf'href="\.\./\.\./\.\./\?ruleset={deluxe.id}&(?:amp;)?example=(\w+)"', chapters))
    homed = {ex.id for ex in deluxe.examples} - {
        x for x in re.findall(r'example=(\w+)', page(site, deluxe, "examples"))}
    assert homed <= opened and opened
    index = built_page(site / urls.slug(deluxe.id) / "index.html")
    assert f'href="../../?ruleset={deluxe.id}"' in index
    assert "@judge-root@" not in html and "@judge-root@" not in index
