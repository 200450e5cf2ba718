"""A move listed as legal is carried out without being checked again, and its ruling is
written only when asked (engine/performed.py): neither may change a game or a ruling.

At positions along random games of rulesets with grants, chance, cards and choices made
at once, every listed move is played twice: at the position that listed it (not checked
again, its conditions found when the ruling is written) and at a fresh copy of that
position that never listed its moves (checked first, as any move typed in is). The
rulings and the positions they lead to must be the same.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from compiler.engine.formats import from_state
from compiler.engine.position import Position, Rules
from compiler.load import RULES_DIR
from tests import compiled

TESTS = RULES_DIR.parent / "tests" / "rulesets"
RULESETS = [RULES_DIR / "trian_deluxe", RULES_DIR / "trian_new_order",
            RULES_DIR / "trian_conquest", RULES_DIR / "among_the_stars",
            TESTS / "sealed_picks", TESTS / "seasons", TESTS / "outposts"]
DECISIONS = 80  # the first decisions of each game
EVERY = 5       # every listed move is tried at one position in this many
MOVES = 8       # at most this many of them (spread over the list)


def _outcome(pos: Position, move, seed: int) -> tuple[dict, dict]:
    after, ruling = pos.play(move, chance=random.Random(seed))
    return ruling.model_dump(), from_state(after.rules, after.state).model_dump()


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_a_listed_move_plays_as_a_checked_one(path) -> None:
    rules = compiled.rules_at(path)
    players = max(rules.ruleset.players_min, min(3, rules.ruleset.players_max))
    rng = random.Random(11)
    pos, _ = Position.set_up(rules.table(players), players, seed=11, sampler=rng)
    tried = 0
    for decision in range(DECISIONS):
        if pos.finished:
            break
        moves = pos.legal_moves()
        assert moves, "no legal move and the game is not over"
        if decision % EVERY == 0:
            step = max(1, len(moves) // MOVES)
            for i, move in enumerate(moves[::step][:MOVES]):
                fresh = Position(pos.rules, pos.state)  # lists nothing: checks the move
                assert _outcome(pos, move, i) == _outcome(fresh, move, i), \
                    f"{pos.notation(move)} at decision {decision}"
                tried += 1
        done = pos.perform(rng.choice(moves), chance=rng)
        assert done.ruling() == done.ruling()  # written once, then kept
        pos = done.after
    assert tried


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_a_move_carried_out_unrecorded_writes_the_ruling_play_writes(path) -> None:
    """Random play carries a move out without noting what its ruling is made of (the
    definitions that took effect, how each amount was reached, the words of each
    consequence). Asked for its ruling, the move is carried out again from where it was
    played, with what chance decided the first time: the ruling is the one `play` writes
    at once, consequences, decisive rules and all, and the position it leads to the same."""
    rules = compiled.rules_at(path)
    players = max(rules.ruleset.players_min, min(3, rules.ruleset.players_max))
    rng = random.Random(7)
    pos, _ = Position.set_up(rules.table(players), players, seed=7, sampler=rng)
    for _ in range(DECISIONS):
        if pos.finished:
            break
        move = rng.choice(pos.legal_moves())
        done = pos.perform(move, chance=rng)
        assert done.recorded is None  # nothing noted yet
        after, played = pos.play(replace(move, chance=done.chance))
        assert done.ruling() == played
        assert done.log == after_log(pos, move, done.chance)
        assert from_state(after.rules, done.after.state) == from_state(after.rules, after.state)
        pos = done.after


def after_log(pos: Position, move, chance: tuple[str, ...]) -> list:
    """The consequences of a move carried out recording (what a simulation reads)."""
    return pos.perform(replace(move, chance=chance), record=True).log


def test_an_illegal_move_still_gets_its_full_ruling(rules: Rules) -> None:
    pos = rules.start(players=2, seed=3)
    pos.legal_moves()  # the listing is complete: the move is not in it
    text = pos.notation(pos.legal_moves()[0]).replace(",", "9,", 1)
    ruling = pos.adjudicate(text)
    assert ruling.verdict == "ILLEGAL"
    assert ruling.moves[0].breaches and ruling.moves[0].breaches[0].rule is not None
    assert ruling == Position(pos.rules, pos.state).adjudicate(text)


def test_the_conditions_a_listed_move_was_checked_by_are_cited(tmp_path) -> None:
    """A stake of 3 is high (a condition of its own rule), and any stake may be chosen:
    checking a stake of 1 finds the condition true while reading what may be staked, and
    cites it. A listed stake is not checked before it is carried out; its ruling finds
    the same conditions when it is written."""
    from tests.test_citations import GAME, load
    high = GAME.replace('''            choose k from upto(min(3, me.coin))''', '''            choose k from upto(min(3, me.coin)) where high(it) or it >= 0''').replace(
        '''    rule main.bold "Boldness" {''', '''    rule main.high "High stakes" {
        text """A stake of 3 coins is high."""
        condition high(k) "{k} is a high stake" = k >= 3
    }
    rule main.bold "Boldness" {''')
    start = load(tmp_path, high).start(2, stacks=[["s1", "s2"]])
    stake = next(m for m in start.legal_moves() if m.args == (("k", 1),))
    assert start.perform(stake).checked is None  # not checked again
    ruling = start.play(stake)[1]
    assert [c.id for c in ruling.decided_by] == ["main.board", "main.stake", "main.high"]
    assert ruling == Position(start.rules, start.state).play(stake)[1]
