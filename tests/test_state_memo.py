"""What a position's state keeps while it stands still (State.memo, the areas in order).

A position's moves are listed, then the move chosen is checked, on the same state: the
definitions and walks worked out while listing serve the check (engine/evaluate.py,
`cited_once`), with the conditions they found true cited again. So a ruling must not
depend on whether the moves were listed first: judged on a fresh copy of the position
(nothing kept) and on the position whose moves were just listed, it is the same ruling.
Checked along a seeded random game of the expansion, whose ships walk the board through
definitions (`open_to`, `contested`) at every move.
"""

import random

import pytest

from compiler.engine.position import Position, Rules
from tests import compiled


@pytest.fixture(scope="module")
def conquest() -> Rules:
    return compiled.rules("trian_conquest")


def _positions(rules: Rules, seed: int, every: int) -> list[Position]:
    """Every `every`-th position of a seeded random game, with its last few."""
    rng = random.Random(seed)
    pos, _ = Position.set_up(rules, 4, seed=seed, sampler=rng)
    seen = [pos]
    while not pos.finished:
        pos, _ = pos.play(rng.choice(pos.legal_moves()), chance=rng)
        seen.append(pos)
    return seen[::every] + seen[-4:-1]


@pytest.mark.parametrize("name", ["trian_conquest", "trian_new_order"])
def test_a_ruling_is_the_same_whether_or_not_the_moves_were_listed_first(name: str) -> None:
    rules = compiled.rules(name)
    judged = 0
    for pos in _positions(rules, seed=3, every=9):
        moves = pos.legal_moves()
        # One move of each action (New Order's cite the conditions that held), and the
        # first aimed off the board (refused, citing what forbids it).
        texts = list({m.action: pos.notation(m) for m in reversed(moves)}.values())
        for text in texts + [t.replace(",", "9,", 1) for t in texts[:1]]:
            cold = Position(pos.rules, pos.state.clone())  # a copy: nothing kept yet
            assert cold.state.memo == {}
            warm = pos.adjudicate(text)
            assert warm.model_dump() == cold.adjudicate(text).model_dump(), text
            judged += 1
    assert judged > 40


def test_a_clone_starts_without_what_its_original_kept(conquest: Rules) -> None:
    played = next(p for p in reversed(_positions(conquest, seed=1, every=1))
                  if any(m.action == "sail" for m in p.legal_moves()))  # ships walk the board
    # As a judge sets it up: its moves not listed yet (play lists them as it moves on).
    pos = Position(conquest, played.state.clone())
    pos.legal_moves()
    assert pos.state.memo  # listing kept what it worked out
    assert pos.state.clone().memo is None  # a state being changed keeps nothing


def test_the_areas_in_order_follow_every_tile_laid(conquest: Rules) -> None:
    game = conquest.game
    for pos in _positions(conquest, seed=5, every=7):
        st = pos.state
        assert game.all_areas(st) == tuple(game.sorted_areas(st, st.areas.roots()))


BRAG = '''
    rule main.brag "Bragging" {
        text """A bold player may brag for a point."""
        action brag "brag" {
            notation "brag {k}"
            choose k from upto(3)
            require may_brag(me)
            give 1 points to me
        }
        define may_brag(p) "{p} may brag" = bold(p) and p.points == 0
    }
    rule main.bold "Boldness" {'''


def test_a_check_cites_the_conditions_found_true_while_the_moves_were_listed(tmp_path) -> None:
    from compiler.engine.actions import candidates, check
    from tests.test_citations import GAME, load
    rules = load(tmp_path, GAME.replace('''
    rule main.bold "Boldness" {''', BRAG))
    pos = rules.start(2, stacks=[["s1", "s2"]]).apply("stake 3")  # Ann keeps 2 coins: bold
    game, st = pos.game, pos.state
    brag = game.actions["brag"]
    cold: dict[str, None] = {}
    assert check(game, st.clone(), brag, {"k": 1}, cold) == []  # a clone: nothing kept
    assert list(cold) == ["main.bold"]
    # Listed: `may_brag(me)` is kept, with the condition it found true inside it (nobody
    # citing then); the check then cites it as it would have found it.
    assert list(candidates(game, st, brag, {}))
    warm: dict[str, None] = {}
    assert check(game, st, brag, {"k": 1}, warm) == []
    assert warm == cold


TWICE = '''
    rule main.brag "Bragging" {
        text """A player without points may brag for one; still without any, five more."""
        action brag "brag" {
            notation "brag"
            if pointless(me) {
                give 1 points to me
            }
            if pointless(me) {
                give 5 points to me
            }
        }
        define pointless(p) "{p} has no points" = p.points == 0
    }
    rule main.bold "Boldness" {'''


def test_effects_do_not_trust_what_was_worked_out_before_a_change(tmp_path) -> None:
    """While effects run, a definition is kept between two statements that change nothing
    (engine/effects.py); the first `give` changes Ann's points, so the second `if` works
    `pointless(me)` out again: one point, not six."""
    from tests.test_citations import GAME, load
    text = GAME.replace('''
    rule main.bold "Boldness" {''', TWICE).replace("must one of stake", "must one of stake, brag")
    pos = load(tmp_path, text).start(2, stacks=[["s1", "s2"]])
    assert pos.apply("brag").scores()["ann"] == 1


def test_a_value_that_rolls_a_die_is_never_kept() -> None:
    """`chance.rolls`: a die, directly or in a definition called (at any depth), makes an
    expression's value a fresh roll at every use; other definitions may be kept."""
    from compiler.engine.chance import rolls
    from compiler.ir import nodes as n

    def call(func: str, defined: bool = False) -> n.Call:
        return n.Call(func=func, args=[n.Number(value=6)] if func == "die" else [],
                      defined=defined)

    defines = {"roll": call("die"), "twice": n.Arith(first=call("roll", True),
                                                   rest=[("+", call("roll", True))]),
               "calm": n.Number(value=1)}
    assert rolls(call("die"), defines)
    assert rolls(call("twice", True), defines)
    assert not rolls(call("calm", True), defines)
    assert not rolls(n.Arith(first=call("calm", True), rest=[("+", n.Number(value=2))]), defines)
