"""Audits: a judge brings a position to the table and asks what is wrong with it.

The fixture `tests/rulesets/trian_audited` is Galaxy of Trian with two audits:
`table` (a research station stands only in an area its owner controls) and
`contested` (one race to an area, and no controller without a piece in its
area), and a rule that lets a player withdraw from a contested area when step
4 begins, reading `faulty(contested)`.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compiler.cli import app
from compiler.engine.audit import run_audit
from compiler.engine.formats import PositionModel, position_from_model
from compiler.engine.position import Position, Rules
from compiler.engine.scenario import run_example, settled
from compiler.load import load_ruleset
from compiler.parse import parse_rules
from tests.conftest import compile_errors

FIXTURE = Path(__file__).parent / "rulesets" / "trian_audited"
runner = CliRunner()


@pytest.fixture(scope="module")
def audited() -> Rules:
    return Rules(load_ruleset(FIXTURE))


def table(**position: object) -> dict[str, object]:
    """A three-player position of the fixture: two tiles sharing one nebula, and what is given."""
    base: dict[str, object] = {
        "format": "rulebook-position", "ruleset": "trian_audited",
        "players": [{"seat": "quuylto"}, {"seat": "xemh"}, {"seat": "khaarquar"}],
        "tiles": [{"tile": "t01", "face": "b", "at": "0,0", "rotation": 0},
                  {"tile": "t05", "face": "b", "at": "1,0", "rotation": 1}],
        "pieces": [], "turn": {"number": 9, "player": "khaarquar", "step": "tile"},
        "stacks": [["t11"], ["t30"]]}
    base.update(position)
    return base


def at_table(rules: Rules, position: dict[str, object]) -> Position:
    return settled(position_from_model(rules, PositionModel.model_validate(position)))


def emissary(owner: str, at: str) -> dict[str, str]:
    return {"kind": "emissary", "owner": owner, "at": at}


TWO_BREACHES = table(
    pieces=[emissary("quuylto", "0,0:nebula"), emissary("xemh", "1,0:nebula")],
    areas=[{"at": "0,0:nebula", "attributes": {"controller": "khaarquar"}}])


# ------------------------------------------------------------ Position.audit


def test_a_position_with_two_breaches_lists_both_with_their_rules(audited: Rules) -> None:
    found = at_table(audited, TWO_BREACHES).audit()
    assert [(f.audit, f.rule.id if f.rule else None, f.where) for f in found] == [
        ("contested", "audits.contested", "0,0:nebula"),
        ("contested", "areas.lapse", "0,0:nebula")]
    contested, lapse = found
    assert contested.rule is not None and contested.rule.number == "12.2"
    assert contested.rule.url.endswith("/trian-audited/audits/#audits-contested")
    assert contested.message == "The nebula at 0,0:nebula: emissaries of two races stand in it"
    assert lapse.rule is not None and lapse.rule.title == "Losing control"
    assert lapse.element == "area" and lapse.audit_title == "Areas held by one race"


def test_a_clean_position_lists_no_breach(audited: Rules) -> None:
    pos = at_table(audited, table(pieces=[emissary("xemh", "0,0:nebula"),
                                          emissary("xemh", "1,0:nebula")]))
    assert pos.audit() == []


def station(owner: str, at: str) -> dict[str, str]:
    return {"kind": "station", "owner": owner, "at": at}


def test_a_breach_of_a_rule_elsewhere_cites_that_rule_and_names_the_piece(
        audited: Rules) -> None:
    # Xemh's station stands on Xemh's emissary in a nebula nobody controls.
    pos = at_table(audited, table(pieces=[emissary("xemh", "0,0:nebula"),
                                          station("xemh", "0,0:nebula")]))
    [found] = pos.audit()
    assert (found.audit, found.where, found.element) == ("table", "0,0:nebula", "piece")
    assert found.rule is not None and found.rule.id == "actions.station"
    assert found.message == "Xemh’s research station at 0,0:nebula: it stands in an area its " \
                            "owner does not control"


def test_findings_come_in_declaration_order_then_element_order(audited: Rules) -> None:
    pos = at_table(audited, table(
        pieces=[emissary("xemh", "0,0:nebula"), station("xemh", "0,0:nebula"),
                emissary("quuylto", "1,0:nebula")],
        areas=[{"at": "0,0:nebula", "attributes": {"controller": "khaarquar"}}]))
    assert [(f.audit, f.rule.id if f.rule else None) for f in pos.audit()] == [
        ("table", "actions.station"), ("contested", "audits.contested"),
        ("contested", "areas.lapse")]
    game, st = pos.game, pos.state
    assert [f.rule for f in run_audit(game, st, "contested")] == ["audits.contested",
                                                                  "areas.lapse"]
    assert pos.audit() == pos.audit()  # the same answer every time


def test_an_audit_changes_nothing_on_the_table(audited: Rules) -> None:
    pos = at_table(audited, TWO_BREACHES)
    before = json.dumps(PositionModel.model_validate(TWO_BREACHES).model_dump(), sort_keys=True)
    pos.audit()
    assert pos.legal_moves() == at_table(audited, TWO_BREACHES).legal_moves()
    assert json.dumps(PositionModel.model_validate(TWO_BREACHES).model_dump(),
                      sort_keys=True) == before


# --------------------------------------------------------------------- faulty


def test_faulty_lets_a_player_withdraw_from_a_contested_area_at_the_end_of_their_turn(
        audited: Rules) -> None:
    pos = at_table(audited, table(
        pieces=[emissary("quuylto", "0,0:nebula"), emissary("khaarquar", "1,0:nebula")],
        turn={"number": 9, "player": "khaarquar", "step": "action", "placed": "1,0"}))
    after = pos.apply("research")
    assert [after.notation(m) for m in after.legal_moves()] == [
        "withdraw emissary@1,0:nebula", "pass"]
    ruling = after.adjudicate("withdraw emissary@1,0:nebula")
    assert ruling.verdict == "LEGAL"
    assert "audits.withdraw" in [r.id for mv in ruling.moves for r in mv.decided_by]
    assert after.apply("withdraw emissary@1,0:nebula").audit() == []
    refused = after.adjudicate("withdraw emissary@0,0:nebula")  # Quuylto's, not theirs
    assert refused.verdict == "ILLEGAL"
    assert [b.rule.id for mv in refused.moves for b in mv.breaches if b.rule] == [
        "audits.withdraw"]


def test_faulty_offers_nothing_to_a_player_with_no_emissary_in_a_contested_area(
        audited: Rules) -> None:
    pos = at_table(audited, table(
        pieces=[emissary("quuylto", "0,0:nebula"), emissary("xemh", "1,0:nebula")],
        turn={"number": 9, "player": "khaarquar", "step": "action", "placed": "1,0"}))
    after = pos.apply("research")
    assert after.situation().player == "quuylto"  # the turn passed; nothing was granted
    assert len(after.audit()) == 1


# ------------------------------------------------------------------ the CLI


def run(*args: str):
    return runner.invoke(app, list(args))


def test_rulebook_audit_lists_the_breaches_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(TWO_BREACHES))
    result = run("audit", str(FIXTURE), str(path))
    assert result.exit_code == 1
    assert "2 breaches found:" in result.output
    assert "✗ 12.2 One race to an area: The nebula at 0,0:nebula: emissaries of two races " \
           "stand in it" in result.output
    assert "✗ 8.11 Losing control" in result.output
    assert "#areas-lapse" in result.output


def test_rulebook_audit_json_gives_each_breach_with_its_rule(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(TWO_BREACHES))
    result = run("audit", str(FIXTURE), str(path), "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert [b["rule"]["id"] for b in data["breaches"]] == ["audits.contested", "areas.lapse"]
    assert data["breaches"][0]["where"] == "0,0:nebula"
    assert data["situation"]["player"] == "khaarquar"


def test_rulebook_audit_of_a_clean_position_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(table(pieces=[emissary("xemh", "0,0:nebula")])))
    result = run("audit", str(FIXTURE), str(path))
    assert result.exit_code == 0, result.output
    assert "Nothing wrong" in result.output
    assert json.loads(run("audit", str(FIXTURE), str(path), "--json").output)["breaches"] == []


def test_rulebook_audit_of_a_ruleset_without_audits_says_so_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({**table(), "ruleset": "trian_deluxe"}))
    result = run("audit", "trian_deluxe", str(path))
    assert result.exit_code == 0
    assert "declares no audit" in result.output


def test_rulebook_audit_refuses_a_bad_position_and_a_wrong_ruleset(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text('{"ruleset": "trian_audited", "players": [], "turn": {}}')
    result = run("audit", str(FIXTURE), str(path))
    assert result.exit_code == 2 and "turn.player" in result.output
    result = run("audit", "trian_delux", str(path))
    assert result.exit_code == 2 and "did you mean `trian_deluxe`" in result.output


def test_rulebook_help_mentions_audit() -> None:
    assert "audit" in run("--help").output
    assert "exit" in run("audit", "--help").output.lower()


# -------------------------------------------------------- checker mistakes


HEAD = """
ruleset probe extends trian_deluxe {
    chapters overview, components, setup, turn, gathering, tiles, actions, areas, specials,
             end, situations, audits
}
"""


def audit_errors(tmp_path: Path, body: str) -> list[str]:
    chapter = 'chapter audits "Audits" {\n' + textwrap.indent(textwrap.dedent(body), "    ") + "}\n"
    return [f"{d.message} | {d.hint}" for d in compile_errors(
        tmp_path, ruleset=HEAD, audits=chapter)]


def test_the_breaches_of_one_audit_must_find_one_kind_of_thing(tmp_path: Path) -> None:
    errors = audit_errors(tmp_path, """
        rule audits.mixed "Mixed" {
            audit mixed "Mixed" {
                breach "a tile" in tiles
                breach "an area" in areas
            }
        }
    """)
    assert any("the breaches of audit `mixed` must find one kind of thing: the first finds "
               "tiles, this one areas" in e for e in errors), errors


def test_a_breach_lists_things_on_the_table_not_a_number(tmp_path: Path) -> None:
    errors = audit_errors(tmp_path, """
        rule audits.count "Count" {
            audit count_it "A number" {
                breach "a number" in count(tiles)
            }
        }
    """)
    assert any("a breach lists what is found wrong (a collection of tiles, pieces, areas, "
               "players or cards), but this is a number" in e for e in errors), errors


def test_faulty_of_an_unknown_audit_gets_did_you_mean(tmp_path: Path) -> None:
    errors = audit_errors(tmp_path, """
        rule audits.one "One" {
            audit crowded "Crowded" {
                breach "crowded" in areas where count(pieces in it) > 3
            }
            at end of turn {
                for each a in faulty(crowdd) {
                    clear a.controller
                }
            }
        }
    """)
    assert any("`faulty` takes the name of an audit, not `crowdd` | did you mean `crowded`?"
               in e for e in errors), errors


def test_a_breach_per_an_unknown_rule_gets_did_you_mean(tmp_path: Path) -> None:
    errors = audit_errors(tmp_path, """
        rule audits.one "One" {
            audit crowded "Crowded" {
                breach "crowded" per areas.lapsed in areas where count(pieces in it) > 3
            }
        }
    """)
    assert any("`per areas.lapsed` cites an unknown rule" in e and "areas.lapse" in e
               for e in errors), errors


def test_an_audit_outside_a_rule_must_say_which_rule_its_breaches_break(tmp_path: Path) -> None:
    errors = audit_errors(tmp_path, """
        audit crowded "Crowded" {
            breach "crowded" in areas where count(pieces in it) > 3
        }
    """)
    assert any("a breach of audit `crowded` cites no rule" in e and "per RULE" in e
               for e in errors), errors


def test_an_audit_cannot_be_decided_by_its_own_findings(tmp_path: Path) -> None:
    errors = audit_errors(tmp_path, """
        rule audits.one "One" {
            audit loop "Loop" {
                breach "loop" in faulty(loop)
            }
        }
    """)
    assert any("audit `loop` uses `faulty(loop)`" in e for e in errors), errors


def test_two_audits_of_one_name_are_refused(tmp_path: Path) -> None:
    errors = audit_errors(tmp_path, """
        rule audits.one "One" {
            audit twice "Once" { breach "a" in tiles }
            audit twice "Twice" { breach "b" in tiles }
        }
    """)
    assert any("audit `twice` is declared twice" in e for e in errors), errors


def test_an_example_expecting_a_breach_of_an_unknown_audit_gets_did_you_mean(
        tmp_path: Path) -> None:
    errors = audit_errors(tmp_path, """
        rule audits.one "One" {
            audit crowded "Crowded" {
                breach "crowded" in areas where count(pieces in it) > 3
            }
        }
    """) + [e for e in compile_errors(tmp_path, probe_example="""
        example probe_ex "Probe" {
            illustrates audits.one
            expect breach crowdd
        }
    """) and []]
    assert errors == []
    found = [f"{d.message} | {d.hint}" for d in compile_errors(tmp_path, probe_example="""
        example probe_ex "Probe" {
            illustrates audits.one
            expect breach crowdd
        }
    """)]
    assert any("`expect breach crowdd` names no audit and no rule an audit cites | did you "
               "mean `crowded`?" in e for e in found), found


# ------------------------------------------------------------- the language


AMONG_THE_STARS_CHECK = '''
chapter year "Year" {
    rule year.check "The check" {
        audit station "A station without mistakes" {
            breach "more copies of a location than its limit allows" per year.check.copies
                in tiles as t where t is location and not (t is reactor)
                    and count(tiles of t.owner where it is location and it.name == t.name) > t.max
        }
        action repair "take a faulty location out" {
            notation "take out {t}"
            choose t from faulty(station) where it.owner == me per year.check.copies
        }
    }
}
example check_copies "Two Control Rooms" {
    expect breach year.check.copies at red/1,0
    expect no breach
}
'''


def test_the_audit_lines_of_among_the_stars_parse_as_written() -> None:
    chapter, example = parse_rules(AMONG_THE_STARS_CHECK)
    audit = chapter.rules[0].decls[0]
    assert (audit.id, audit.title) == ("station", "A station without mistakes")
    assert [b.rule for b in audit.breaches] == ["year.check.copies"]
    assert [(f.fact, f.args) for f in example.expect] == [
        ("breach", ["year.check.copies", "red/1,0"]), ("no_breach", [])]


def test_a_breach_cites_the_rule_it_sits_in_unless_per_another() -> None:
    [chapter] = parse_rules('''
        chapter c "C" {
            rule c.one "One" {
                audit a "A" {
                    breach "here" in tiles
                    breach "there" per c.two in tiles
                }
            }
        }
    ''')
    assert [b.rule for b in chapter.rules[0].decls[0].breaches] == ["c.one", "c.two"]


# ------------------------------------------------------------------ examples


def test_the_audit_examples_of_the_fixture_pass_in_the_engine(audited: Rules) -> None:
    own = [ex for ex in audited.ruleset.examples
           if ex.loc is not None and ex.loc.file.endswith("trian_audited/examples.rules")]
    assert len(own) == 4
    for ex in own:
        result = run_example(audited, ex)
        assert result.ok, (ex.id, result.failures)


def test_an_example_expecting_a_breach_elsewhere_says_where_the_audit_finds_it(
        audited: Rules) -> None:
    [example] = parse_rules('''
        example misplaced "Looking in the wrong place" {
            given {
                players quuylto, xemh, khaarquar
                turn 9 khaarquar step tile
                tile t01 b at 0,0 rotation 0
                tile t05 b at 1,0 rotation 1
                emissary quuylto at 0,0:nebula
                emissary xemh at 1,0:nebula
                stacks [t11], [t30]
            }
            expect breach contested at 1,0:space
            expect no breach
        }
    ''')
    failures = run_example(audited, example).failures
    assert failures == [
        "expected a breach of contested at 1,0:space, but the audits find it only at "
        "0,0:nebula (line 12)",
        "expected no breach, but the audits find audits.contested at 0,0:nebula (line 13)"]


def test_the_positions_page_tells_how_to_audit_a_table_where_the_rules_have_audits(
        audited: Rules, rules: Rules) -> None:
    from compiler.rulebook.pages import RulesetPages
    text = RulesetPages(audited, {}).formats_page().text
    assert "## Checking a whole table" in text
    assert "$ rulebook audit trian_audited position.json" in text
    assert "**Areas held by one race**" in text
    assert "## Checking a whole table" not in RulesetPages(rules, {}).formats_page().text


# ------------------------------------------------------------------- cards


def test_an_audit_may_find_printed_cards(tmp_path: Path) -> None:
    """A card game's audit lists cards: the bazaar's stall cards dearer than any purse."""
    bazaar = (Path(__file__).parent / "fixtures" / "bazaar" / "bazaar.rules").read_text(
        encoding="utf-8")
    folder = tmp_path / "bazaar"
    folder.mkdir()
    bazaar = bazaar.replace("chapters market", "chapters market, audit_chapter")
    (folder / "bazaar.rules").write_text(bazaar + textwrap.dedent('''
        chapter audit_chapter "Audits" {
            rule audit_chapter.dear "Dear stalls" {
                audit dear "Stalls within reach" {
                    breach "it costs more than a purse holds" per market.purse
                        in stall where it.cost > 3
                }
            }
        }
    '''), encoding="utf-8")
    rules = Rules(load_ruleset(folder))
    [found] = rules.start(2, stacks=[["well", "spice"]]).audit()
    assert (found.where, found.element, found.rule.id if found.rule else None) == (
        "spice", "card", "market.purse")
