"""Numbers that stay put: what a variant's rules, rulings and examples are called.

Written as a player holding two rulebooks would check them: rule 3.2 of the
expansion is rule 3.2 of the base game, a rule the expansion adds shifts no
other, and an example id means one example across the whole site.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.ir import model as m
from compiler.judge.service import JudgeError, example_of
from compiler.load import load_files, read_header, ruleset_dirs
from tests import compiled
from compiler.numbering import code_clashes, derived_code, find, number, sort_key


def variant(tmp_path: Path, body: str, name: str = "my_variant") -> m.Ruleset:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / "ruleset.rules").write_text(textwrap.dedent(body), encoding="utf-8")
    return load_files(sorted(folder.glob("*.rules")))[0]


def errors(tmp_path: Path, body: str, name: str = "my_variant") -> list[str]:
    with pytest.raises(CompileError) as info:
        variant(tmp_path, body, name)
    return [d.message for d in info.value.diagnostics]


def numbers(rs: m.Ruleset) -> dict[str, str]:
    """Every chapter's and rule's number, by id."""
    return {c.id: c.number for c in rs.chapters} | {r.id: r.number for r in rs.all_rules()}


HEADER = """
ruleset my_variant extends trian_deluxe {
    subtitle "My variant"
}
"""


@pytest.fixture(scope="module")
def conquest() -> m.Ruleset:
    return compiled.ruleset("trian_conquest")


# ------------------------------------------------------------------ rules


def test_the_base_game_numbers_in_reading_order(deluxe: m.Ruleset) -> None:
    assert [c.number for c in deluxe.chapters] == [str(i) for i in
                                                   range(1, len(deluxe.chapters) + 1)]
    actions = next(c for c in deluxe.chapters if c.id == "actions")
    assert [r.number for r in actions.rules][:3] == ["7.1", "7.2", "7.3"]
    assert deluxe.rule_index()["areas.points.space"].number == "8.6.3"


def test_conquest_keeps_deluxes_rule_3_2(deluxe: m.Ruleset, conquest: m.Ruleset) -> None:
    ours, theirs = numbers(deluxe), numbers(conquest)
    three_two = next(rid for rid, n in ours.items() if n == "3.2")
    assert theirs[three_two] == "3.2"
    shifted = {rid: (n, theirs[rid]) for rid, n in ours.items()
               if rid in theirs and theirs[rid] != n}
    assert shifted == {}, "every rule Conquest inherits keeps Deluxe's number"


def test_conquests_chapters_between_deluxes_7_and_8_are_7a_7b_7c(conquest: m.Ruleset) -> None:
    said = [(c.number, c.id) for c in conquest.chapters]
    at = said.index(("7", "actions"))
    assert said[at:at + 5] == [("7", "actions"), ("7a", "fleet"), ("7b", "battles"),
                               ("7c", "blockade"), ("8", "areas")]
    assert conquest.rule_index()["fleet.ships"].number == "7a.1"
    assert conquest.rule_index()["fleet.launch.corvette"].number == "7a.5.1"


def test_a_rule_added_after_the_last_of_a_chapter_takes_the_next_whole_number(
        tmp_path: Path) -> None:
    rs = variant(tmp_path, HEADER + '''
        add to chapter actions {
            rule actions.rest "Resting" {
                text """A player may pass."""
                rule actions.rest.once "Once a game" { text """Only once.""" }
            }
        }
    ''')
    assert rs.rule_index()["actions.research"].number == "7.7"
    assert rs.rule_index()["actions.rest"].number == "7.8"
    assert rs.rule_index()["actions.rest.once"].number == "7.8.1"


def test_a_chapter_added_at_the_end_is_the_next_whole_number(tmp_path: Path) -> None:
    rs = variant(tmp_path, HEADER + '''
        chapter house "House rules" { text """Ours.""" }
    ''')
    assert [(c.number, c.id) for c in rs.chapters][-2:] == [("11", "situations"),
                                                            ("12", "house")]


def test_a_chapter_listed_between_3_and_4_is_3a(tmp_path: Path, deluxe: m.Ruleset) -> None:
    order = [c.id for c in deluxe.chapters]
    order.insert(3, "house")
    rs = variant(tmp_path, f'''
        ruleset my_variant extends trian_deluxe {{
            chapters {", ".join(order)}
        }}
        chapter house "House rules" {{
            text """Ours."""
            rule house.first "First" {{ text """One.""" }}
        }}
    ''')
    assert [c.number for c in rs.chapters][2:5] == ["3", "3a", "4"]
    assert rs.rule_index()["house.first"].number == "3a.1"


def test_an_inserted_rule_is_3_2a_and_the_next_3_2b() -> None:
    three = m.Chapter(id="three", title="Three", rules=[
        m.Rule(id="a", title="A", number="3.1"), m.Rule(id="b", title="B", number="3.2"),
        m.Rule(id="new1", title="New"), m.Rule(id="new2", title="Newer"),
        m.Rule(id="c", title="C", number="3.3")], number="3")
    rs = m.Ruleset(id="demo", chapters=[three])
    number(rs)
    assert [r.number for r in three.rules] == ["3.1", "3.2", "3.2a", "3.2b", "3.3"]
    assert sorted(["3.10", "3.2b", "3.2", "3.2a", "3.3"], key=sort_key) == \
        ["3.2", "3.2a", "3.2b", "3.3", "3.10"]


def test_a_replaced_rule_keeps_its_number(tmp_path: Path) -> None:
    rs = variant(tmp_path, HEADER + '''
        replace rule actions.research "Research" {
            text """Score 5 victory points."""
            action research "research" {
                notation "research"
                give 5 points to me
            }
        }
    ''')
    assert rs.rule_index()["actions.research"].number == "7.7"


def test_a_removed_rule_leaves_a_gap(tmp_path: Path) -> None:
    rs = variant(tmp_path, HEADER + '''
        remove rule situations.tidy
        add to chapter situations {
            rule situations.house "House rules" { text """Agree on them first.""" }
        }
    ''')
    situations = next(c for c in rs.chapters if c.id == "situations")
    assert [r.number for r in situations.rules] == ["11.1", "11.2", "11.3", "11.4", "11.6"]
    assert rs.retired == ["11.5"]


def test_the_family_variant_reads_7_2_then_7_5(tmp_path: Path) -> None:
    family = compiled.ruleset("trian_family")
    actions = next(c for c in family.chapters if c.id == "actions")
    assert [r.number for r in actions.rules][:3] == ["7.1", "7.2", "7.5"]


def test_a_variant_of_a_variant_keeps_numbers_all_the_way_down(deluxe: m.Ruleset) -> None:
    three = compiled.ruleset("trian_teams_3v3")  # deluxe → more tiles → six → teams → 3v3
    ours, theirs = numbers(deluxe), numbers(three)
    assert {rid: theirs[rid] for rid in ours if rid in theirs} == \
        {rid: n for rid, n in ours.items() if rid in theirs}
    gone = [n for rid, n in ours.items() if rid not in theirs]
    assert not set(gone) & set(theirs.values()), "a removed number is never given again"


# ----------------------------------------------------- rulings and examples


def test_deluxes_rulings_and_examples_carry_its_code(deluxe: m.Ruleset) -> None:
    assert [r.number for r in deluxe.rulings][:3] == ["TD-R1", "TD-R2", "TD-R3"]
    assert deluxe.examples[35].number == "TD-E36"


def test_e36_in_deluxe_and_conquests_own_e36_never_share_an_id(
        deluxe: m.Ruleset, conquest: m.Ruleset) -> None:
    theirs = {e.id: e.number for e in conquest.examples}
    e36 = deluxe.examples[35]
    assert theirs[e36.id] == "TD-E36", "Conquest keeps Deluxe's example under its id"
    own = next(e for e in conquest.examples if e.number == "TC-E36")
    assert own.id not in {e.id for e in deluxe.examples}
    said = [x.number for x in [*conquest.rulings, *conquest.examples]]
    assert len(said) == len(set(said))


def test_an_id_means_one_ruling_or_example_across_the_site() -> None:
    meant: dict[str, str] = {}
    for name in compiled.names():
        rs = compiled.ruleset(name)
        for x in [*rs.rulings, *rs.examples]:
            assert meant.setdefault(x.number, x.id) == x.id, f"{x.number} in {name}"
    assert "TD-R5" in meant and "ATS-R5" in meant and meant["TD-R5"] != meant["ATS-R5"]


def test_a_replaced_example_keeps_its_id_and_a_new_one_takes_the_variants_code(
        tmp_path: Path, deluxe: m.Ruleset) -> None:
    rs = compiled.ruleset("tutorial_deep_space")
    replaced = {c.id for c in rs.changes if c.kind == "example" and c.op == "replaced"}
    assert replaced
    before = {e.id: e.number for e in deluxe.examples}
    assert all(e.number == before[e.id] for e in rs.examples if e.id in replaced)
    assert [e.number for e in rs.examples if e.id not in before] == ["TDS-E1"]


def test_plain_e36_finds_the_example_when_only_one_has_it(deluxe: m.Ruleset,
                                                           conquest: m.Ruleset) -> None:
    assert find(deluxe.examples, "E36") == [deluxe.examples[35]]
    assert find(deluxe.examples, "td-e36") == [deluxe.examples[35]]
    assert [x.number for x in find(conquest.examples, "E36")] == ["TD-E36", "TC-E36"]
    with pytest.raises(JudgeError, match=r"more than one example 'E36': TD-E36 .*TC-E36"):
        example_of(compiled.rules("trian_conquest"), "E36")
    _, said = example_of(compiled.rules("trian_conquest"), "TC-E36")
    assert said["number"] == "TC-E36"


# ------------------------------------------------------------------ codes


def test_a_code_is_the_initials_of_the_name() -> None:
    assert derived_code("trian_deluxe") == "TD"
    assert derived_code("trian_teams_3v3") == "TT3"
    assert derived_code("among_the_stars") == "ATS"


def test_the_sites_rulesets_have_a_code_each() -> None:
    assert code_clashes(read_header(name) for name in ruleset_dirs()) == []


def test_two_rulesets_declaring_the_same_code_are_refused_with_a_message() -> None:
    solo = m.Ruleset(id="trian_solo", code="TS")
    assert code_clashes([read_header("trian_six"), solo]) == [
        "rulesets trian_six (from its name), trian_solo (declared) share the code `TS`, which "
        "prefixes their ruling and example ids (`TS-R1`, `TS-E1`); give each its own in its "
        "header: `code \"…\"`"]


def test_a_variant_with_its_bases_code_is_refused(tmp_path: Path) -> None:
    said = errors(tmp_path, '''
        ruleset my_variant extends trian_deluxe { code "TD" }
    ''')
    assert said == ["`my_variant` has the code `TD`, which a ruleset it builds on already "
                    "uses (TD-R1); declare another in its header: `code \"…\"`"]


def test_a_declared_code_names_its_own_rulings(tmp_path: Path) -> None:
    rs = variant(tmp_path, '''
        ruleset my_variant extends trian_deluxe { code "MV" }
        ruling mine "Ours" {
            question "Is it ours?"
            text "Yes."
            settles actions.research
        }
    ''')
    assert rs.rulings[-1].number == "MV-R1"


def test_a_code_in_lower_case_is_refused(tmp_path: Path) -> None:
    said = errors(tmp_path, '''
        ruleset my_variant extends trian_deluxe { code "mv-1" }
    ''')
    assert said == ["code `mv-1` cannot prefix ruling and example ids: write 1 to 6 capital "
                    "letters or digits, starting with a letter (like \"AB\")"]
