"""A book's versions (changelog.toml beside its rules): read, checked against the rules it
names, and shown on a "Versions of these rules" page linked from the book's front page."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.load import RULES_DIR, load_ruleset_dir
from compiler.rulebook.history import history_lines
from compiler.rulebook.links import Index
from tests.conftest import built_page

FAMILY = RULES_DIR / "trian_family"  # a small variant: its folder is copied, never changed


def _with_changelog(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "family"
    shutil.copytree(FAMILY, folder)
    (folder / "changelog.toml").write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def _problems(folder: Path) -> list[str]:
    with pytest.raises(CompileError) as e:
        load_ruleset_dir(folder)
    return [d.render() for d in e.value.diagnostics]


TWO_VERSIONS = """
    [[version]]
    number = "1.0"
    date = 2026-12-01
    summary = "Nebulas pay on [[rule:areas.nebula]]'s terms."

    [[version.change]]
    text = "The first tile is laid by the youngest player."
    rules = ["setup.first_tile"]
    rulings = ["first_player"]

    [[version]]
    number = "0.9"
    date = 2026-11-01
"""


def test_a_changelog_is_read_newest_first_and_linked_to_what_it_changed(tmp_path: Path) -> None:
    rs = load_ruleset_dir(_with_changelog(tmp_path, TWO_VERSIONS))
    assert [v.number for v in rs.history] == ["1.0", "0.9"]
    page = "\n".join(history_lines(rs, Index.of(rs)))
    assert "## Version 1.0 { #version-1-0 }" in page
    first_tile = next(r for r in rs.all_rules() if r.id == "setup.first_tile")
    assert f"[§{first_tile.number} {first_tile.title}](setup.md#" in page
    assert "](rulings.md#" in page
    assert "[§" in page.split("*2026-12-01*")[1]  # the summary's reference is a link too


def test_a_rule_the_ruleset_does_not_have_is_named_with_its_line_and_a_guess(tmp_path: Path) -> None:
    folder = _with_changelog(tmp_path, TWO_VERSIONS.replace("setup.first_tile", "setup.frist_tile"))
    [said] = _problems(folder)
    assert "changelog.toml:9:1: error: version 1.0 names rule `setup.frist_tile`" in said
    assert "did you mean `setup.first_tile`" in said


def test_the_newest_version_must_be_the_one_the_ruleset_header_says(tmp_path: Path) -> None:
    folder = _with_changelog(tmp_path, TWO_VERSIONS.replace('"1.0"', '"1.1"'))
    [said] = _problems(folder)
    assert 'the newest version here is 1.1, but the ruleset says `version "1.0"`' in said


def test_versions_out_of_order_are_refused(tmp_path: Path) -> None:
    folder = _with_changelog(tmp_path, TWO_VERSIONS.replace("2026-11-01", "2027-01-01"))
    [said] = _problems(folder)
    assert "version 1.0 (2026-12-01) is listed before version 0.9 (2027-01-01)" in said
    assert "list versions newest first" in said


@pytest.mark.parametrize(("mistake", "said"), [
    ("rulings = [", "this is not TOML"),
    ('rules = ["setup.first_tile"]', "version 1, change 1, `rule`: unknown key `rule`; "
                                     "did you mean `rules`?"),
    ("date = 2026-12-01", "version 1, `date`: write a date as 2026-12-01"),
])
def test_a_malformed_changelog_says_what_and_where(tmp_path: Path, mistake: str, said: str) -> None:
    wrong = {"rulings = [": 'rulings = ["first_player"',
             'rules = ["setup.first_tile"]': 'rule = ["setup.first_tile"]',
             "date = 2026-12-01": 'date = "the first of December"'}[mistake]
    problems = _problems(_with_changelog(tmp_path, TWO_VERSIONS.replace(mistake, wrong, 1)))
    assert any(said in p and "changelog.toml:" in p for p in problems), problems


@pytest.mark.xdist_group("rulebook")
def test_the_books_that_keep_a_changelog_link_it_from_their_front_page(site: Path) -> None:
    for slug in ("trian-deluxe", "trian-new-order", "among-the-stars"):
        front = built_page(site / slug / "index.html")
        assert 'href="versions/">Rules version 1.0</a>' in front, slug
        assert "Version 1.0" in built_page(site / slug / "versions" / "index.html")
