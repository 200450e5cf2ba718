"""Printed cards laid on boards per player: copies, recorded attributes, audits.

The outposts fixture (`tests/rulesets/outposts`) is grown here in a copy: its
hut is printed twice, a hut remembers a `stamp` that a position may leave
unrecorded, a player may stamp a hut whose stamp nobody knows, and an audit
finds every hut. Each test builds a table, does one thing and looks at what a
judge would see.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from compiler.engine.formats import PositionError, PositionModel, position_from_model
from compiler.engine.position import Position, Rules
from compiler.load import load_files, load_ruleset
from tests import compiled

OUTPOSTS = Path(__file__).parent / "rulesets" / "outposts" / "outposts.rules"


def grown(source: str) -> str:
    source = source.replace("must one of build, burn, clear", "must one of build, burn, clear, mark")
    source = source.replace('attribute filled: int "has been filled {value} times"',
                            'attribute filled: int "has been filled {value} times"\n'
                            '            attribute stamp: int "is stamped {value}" recorded')
    source = source.replace('card hut1 "Hut" { }', 'card hut1 "Hut" { copies 2 }')
    source = source.replace("chapters camp", "chapters camp, stamps")
    return source + textwrap.dedent('''
        chapter stamps "Stamps" {
            rule stamps.mark "Stamping a hut" {
                text "A player may stamp a hut of their camp whose stamp nobody knows."
                action mark "stamp a hut" {
                    notation "mark {t}"
                    choose t from tiles of me where it is hut and it.stamp is none
                    set t.stamp to 1
                }
            }
            rule stamps.huts "Huts on the table" {
                audit huts "Every hut" {
                    breach "a hut stands here" in tiles where it is hut
                }
            }
        }
    ''')


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    folder = tmp_path_factory.mktemp("outposts")
    (folder / "outposts.rules").write_text(grown(OUTPOSTS.read_text(encoding="utf-8")),
                                           encoding="utf-8")
    return Rules(load_ruleset(folder))


def table(rules: Rules, tiles: list[dict[str, Any]], stack: list[str]) -> Position:
    """Red to act; `tiles` as a position file lists them."""
    model = {"format": "rulebook-position", "ruleset": "outposts",
             "players": [{"seat": "red"}, {"seat": "blue"}],
             "tiles": [{"face": "front", **t} for t in tiles],
             "stacks": [stack], "turn": {"number": 4, "player": "red", "step": "act"}}
    return position_from_model(rules, PositionModel.model_validate(model))


def test_a_card_printed_twice_may_lie_twice_on_the_table(rules: Rules) -> None:
    pos = table(rules, [{"board": "red", "at": "0,0", "tile": "t1"},
                        {"board": "red", "at": "1,0", "tile": "hut1"},
                        {"board": "red", "at": "0,1", "tile": "hut1"}], ["t2", "t3"])
    assert [pos.state.board[c][0] for c in sorted(pos.state.board)].count("hut1") == 2


def test_a_card_laid_more_often_than_it_is_printed_is_refused(rules: Rules) -> None:
    with pytest.raises(PositionError) as e:
        table(rules, [{"board": "red", "at": "0,0", "tile": "hut1"},
                      {"board": "red", "at": "1,0", "tile": "hut1"},
                      {"board": "blue", "at": "0,0", "tile": "hut1"}], ["t2", "t3"])
    assert any("hut1 is on the board 3 times, but the game has "
               "2 copies of it" in msg for _, msg in e.value.problems), e.value.problems


def test_a_stamp_a_position_leaves_out_is_unknown(rules: Rules) -> None:
    pos = table(rules, [{"board": "red", "at": "0,0", "tile": "t1"},
                        {"board": "red", "at": "1,0", "tile": "hut1"}], ["t2", "t3"])
    assert pos.adjudicate("mark 1,0").verdict == "LEGAL"


def test_a_stamp_a_position_gives_is_known(rules: Rules) -> None:
    pos = table(rules, [{"board": "red", "at": "0,0", "tile": "t1"},
                        {"board": "red", "at": "1,0", "tile": "hut1",
                         "attributes": {"stamp": 0}}], ["t2", "t3"])
    ruling = pos.adjudicate("mark 1,0")
    assert ruling.verdict == "ILLEGAL"
    assert [b.rule.id for mv in ruling.moves for b in mv.breaches if b.rule] == ["stamps.mark"]


def test_a_hut_laid_in_play_starts_with_its_stamp_known(rules: Rules) -> None:
    pos = table(rules, [{"board": "red", "at": "0,0", "tile": "t1"}], ["hut2", "t3"])
    after = pos.apply("hut2 front at 1,0")
    cell = next(c for c, placed in after.state.board.items() if placed[0] == "hut2")
    assert after.state.tile_attrs[cell]["stamp"] == 0


def test_an_audit_names_the_board_of_what_it_finds(rules: Rules) -> None:
    pos = table(rules, [{"board": "red", "at": "0,0", "tile": "t1"},
                        {"board": "blue", "at": "0,0", "tile": "t2"},
                        {"board": "blue", "at": "1,0", "tile": "hut2"}], ["t3", "t4"])
    assert [f.where for f in pos.audit()] == ["blue/1,0"]


def test_a_definition_used_only_by_a_cards_ability_is_not_reported_unused(
        tmp_path: Path) -> None:
    source = grown(OUTPOSTS.read_text(encoding="utf-8"))
    source = source.replace('card hut2 "Hut" { }', 'card hut2 "Hut" { tally(t) { grant burn } }')
    source = source.replace("holds wood\n", 'holds wood\n            ability tally(t: tile)\n', 1)
    source = source.replace(
        "card kind plot", 'define size(p) = count(tiles of p)\n        card kind plot', 1)
    source = source.replace("{ grant burn }", "{ give size(t.owner) points to t.owner  grant burn }")
    (tmp_path / "outposts.rules").write_text(source, encoding="utf-8")
    _, _, diagnostics = load_files([tmp_path / "outposts.rules"])
    said = [d.message for d in diagnostics]
    assert not any("size" in m or "burn" in m for m in said), said


def test_an_effect_waiting_for_its_step_on_a_laid_card_is_written_and_read_back() -> None:
    """Among the Stars: red has built a Trade Center; its effect waits for the effects
    step, bound to the card at red/1,0. The position file says so, and reads back."""
    from compiler.engine.formats import from_state
    from compiler.engine.scenario import model_from_facts, settled
    rules = compiled.rules("among_the_stars")
    example = next(e for e in rules.ruleset.examples if e.id == "effects_in_play_order")
    pos = settled(position_from_model(rules, model_from_facts(rules, example.given)))
    built = pos.apply("red: build trade_center at 1,0")
    written = from_state(rules, built.state)
    assert [p.bindings for p in written.turn.pending] == [{"t": "red/1,0"}]
    again = position_from_model(rules, PositionModel.model_validate(written.model_dump()))
    assert from_state(rules, again.state) == written
