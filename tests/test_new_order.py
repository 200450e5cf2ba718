"""Galaxy of Trian: New Order, played at random to the end.

Chance (dice, minerals and tokens drawn) is sampled and written into each
move, so every game is a record that replays exactly. Whatever happens,
nothing is created or lost: pieces, the 120 minerals of four colours and the
22 combat tokens are all somewhere, and every credit a player holds was paid
by a rule the engine cites.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from compiler.engine.position import Rules
from compiler.engine.records import History, parse_record, replay, write_record
from tests import compiled

MINERALS = ("red", "blue", "green", "yellow")


@pytest.fixture(scope="module", params=["trian_new_order", "trian_new_order_beginner"])
def rules(request: pytest.FixtureRequest) -> Rules:
    return compiled.rules(request.param)


def everything_accounted_for(st: Any, setup: dict[str, int]) -> None:
    for p in range(st.players):
        for kind, total in setup.items():
            on_board = sum(1 for q in st.pieces.values() if q.owner == p and q.kind == kind)
            assert st.supply[p][kind] + on_board == total, (p, kind)
    for kind in MINERALS:
        held = st.pool.get(kind, 0) + sum(d.get(kind, 0) for d in st.player_res) \
            + sum(d.get(kind, 0) for d in st.area_res.values())
        assert held == 30, kind
    tokens = sum(st.pool.get(k, 0) + sum(d.get(k, 0) for d in st.player_res)
                 for k in ("reroll", "plus"))
    assert tokens == 22


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_game_ends_with_everything_accounted_for(rules: Rules, seed: int) -> None:
    players = 3
    pos = rules.start(players, seed=seed)
    seats = [rules.game.seat_id(i) for i in range(players)]
    history = History(pos, seats, [[c for c in reversed(s)] for s in pos.state.stacks], seed)
    setup = rules.game.supply_table.rows[players]
    rng = random.Random(seed)
    ledger = {s: 10 for s in seats}  # the purse each player starts with
    while not pos.finished:
        move = rng.choice(pos.legal_moves())
        nxt, ruling = pos.play(move, chance=rng)
        if "!" in ruling.move:
            move = replace(move, chance=tuple(ruling.move.partition("!")[2].split()))
        history.add(pos, move)
        for c in ruling.consequences:
            if c.kind == "gave" and c.data["resource"] == "credits":
                assert c.rule is not None  # every credit is paid by a rule
                if c.data["to"] in ledger:
                    ledger[c.data["to"]] += c.data["amount"]
                if c.data["source"] in ledger:
                    ledger[c.data["source"]] -= c.data["amount"]
        pos = nxt
        everything_accounted_for(pos.state, setup)
    assert pos.scores() == ledger
    assert pos.winners()
    again = replay(rules, parse_record(write_record(history, pos)))
    assert again.scores() == pos.scores()
    assert again.state.board == pos.state.board


def test_a_table_may_seat_any_races_and_its_record_says_which() -> None:
    rules = compiled.rules("trian_new_order")
    pos = rules.start(2, seed=4, seats=["xemh", "sslyx"])
    assert list(pos.scores()) == ["xemh", "sslyx"]
    history = History(pos, ["xemh", "sslyx"], [[c for c in reversed(s)] for s in pos.state.stacks],
                      4)
    rng = random.Random(4)
    for _ in range(40):
        move = rng.choice(pos.legal_moves())
        nxt, ruling = pos.play(move, chance=rng)
        if "!" in ruling.move:
            move = replace(move, chance=tuple(ruling.move.partition("!")[2].split()))
        history.add(pos, move)
        pos = nxt
    text = write_record(history, pos)
    assert '[Players "xemh sslyx"]' in text
    again = replay(rules, parse_record(text))
    assert again.state.player_res == pos.state.player_res
    assert again.game.seat_id(1) == "sslyx"


def test_a_seat_taken_twice_or_unknown_is_refused() -> None:
    rules = compiled.rules("trian_new_order")
    with pytest.raises(ValueError, match="taken twice"):
        rules.start(2, seats=["xemh", "xemh"])
    with pytest.raises(ValueError, match="no seat 'zorg'"):
        rules.start(2, seats=["xemh", "zorg"])
