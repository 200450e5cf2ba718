"""A refused move changes nothing, and `adjudicate` and `apply` always agree.

Positions come from random legal play from seeded starts, in every ruleset
and at every table size the seeds reach. At each, a move is tried: one of the
legal moves, the same move with chance outcomes added or spoiled, a move that
was legal somewhere else in the game, or a legal move with one word changed.
Then, within the time and memory bounds:

- the position is exactly as it was, whatever the verdict;
- `adjudicate` says LEGAL exactly when `apply` carries the move out, and
  the position `apply` returns is the one the ruling describes;
- a refusal says why in words, and only the project's errors are raised.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compiler.engine.notation import NotationError
from compiler.engine.position import IllegalMove
from compiler.load import ruleset_dirs
from tests.fuzzing import FUZZ, GROUP, budget, bounded, canonical, plain, positions

pytestmark = GROUP

RULESETS = sorted(ruleset_dirs())
# Seeded starts: in the suite one per ruleset, alternating the table size;
# fuzzing, two per ruleset, played further.
DECISIONS = 80 if FUZZ else 50


def seeds(name: str) -> tuple[int, ...]:
    return (1, 2) if FUZZ else (1 + RULESETS.index(name) % 2,)


@st.composite
def situations(draw: st.DrawFn) -> tuple[object, str]:
    """A position from random play and a move to try there."""
    name = draw(st.sampled_from(RULESETS))
    seed = draw(st.sampled_from(seeds(name)))
    met = positions(name, seed, DECISIONS)
    pos = draw(st.sampled_from(met))
    legal = [pos.notation(m) for m in pos.legal_moves()]
    elsewhere = draw(st.sampled_from(met))
    other = [elsewhere.notation(m) for m in elsewhere.legal_moves()] or ["pass"]
    kind = draw(st.sampled_from(["legal", "legal", "chance", "elsewhere", "changed", "two"]))
    if kind == "legal" and legal:
        move = draw(st.sampled_from(legal))
    elif kind == "chance" and legal:
        outcomes = draw(st.lists(st.sampled_from(["1", "2", "3", "6", "7", "0", "x", "-1"]),
                                 min_size=1, max_size=4))
        move = draw(st.sampled_from(legal)) + " ! " + " ".join(outcomes)
    elif kind == "changed" and legal:
        words = draw(st.sampled_from(legal)).split()
        i = draw(st.integers(0, len(words) - 1))
        words[i] = draw(st.sampled_from(
            ["0,0", "99,99", "-1,2", "a", "b", "r1", "r9", "pass", "research", words[i][:-1],
             words[i] + "x", words[i].upper(), "", "!"]))
        move = " ".join(words)
    elif kind == "two" and legal:
        move = draw(st.sampled_from(legal)) + "; " + draw(st.sampled_from(other))
    else:
        move = draw(st.sampled_from(other))
    return pos, move


@budget(90)
@given(case=situations())
def test_a_refused_move_changes_nothing_and_the_verdicts_agree(case: tuple[object, str]
                                                               ) -> None:
    pos, move = case
    before = canonical(pos)
    with bounded():
        try:
            ruling = pos.adjudicate(move)
        except NotationError as e:  # a move that cannot be read may be refused unjudged
            plain(str(e))
            ruling = None
        assert canonical(pos) == before, f"adjudicating `{move}` changed the position"
        try:
            after = pos.apply(move)
        except IllegalMove as e:
            refused = e.ruling
            assert refused.verdict != "LEGAL"
            for mv in refused.moves:
                for b in mv.breaches:
                    plain(b.message)
            after = None
        except NotationError as e:
            plain(str(e))
            after = None
        assert canonical(pos) == before, f"a refused or applied `{move}` changed the position"
    if ruling is None:
        assert after is None, f"`{move}` was not judged, but apply carried it out"
        return
    assert (ruling.verdict == "LEGAL") == (after is not None), \
        f"adjudicate says {ruling.verdict} of `{move}`, apply " \
        f"{'carried it out' if after is not None else 'refused it'}"
    if after is not None:
        assert ruling.after is not None and ruling.after == after.situation()
    else:
        assert any(b.message for mv in ruling.moves for b in mv.breaches), \
            f"`{move}` is refused without a reason"


@pytest.mark.parametrize("name", RULESETS)
def test_every_legal_move_of_a_played_position_applies(name: str) -> None:
    """In each ruleset, at a position from random play, every listed move is LEGAL and applies."""
    met = positions(name, seeds(name)[0], DECISIONS)
    pos = met[len(met) // 2]
    before = canonical(pos)
    for move in pos.legal_moves()[:40]:
        text = pos.notation(move)
        ruling = pos.adjudicate(move)
        if ruling.verdict == "ILLEGAL":  # only chance may stand in the way of a listed move
            assert all(b.code == "chance" for mv in ruling.moves for b in mv.breaches), \
                ruling.render()
            continue
        assert pos.apply(text).situation() == ruling.after
    assert canonical(pos) == before
