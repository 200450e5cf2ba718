"""1000 random 4-player games of the Deluxe base game.

Every game must end; along the way nothing is created or lost (pieces,
mineral markers, tiles); every point scored is accounted for by a
consequence citing its rule; and the end-of-game score equals an
independent computation from the final position.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from compiler.engine import zones
from compiler.engine.position import Position, Rules
from compiler.engine.records import History, parse_record, replay, write_record
from compiler.engine.state import STACKS
from compiler.kernel.areas import recompute
from tests import compiled

GAMES = 1000
CHUNKS = 20


def independent_end_score(pos: Position) -> dict[int, int]:
    """End-of-game points from the final board, computed from scratch (flood-fill areas)."""
    st, g = pos.state, pos.game
    truth = recompute(g.lattice, st.board, g.catalogue)
    areas: dict[frozenset, list] = {}
    for key, (members, open_edges) in truth.items():
        areas.setdefault(members, [open_edges])
    out = {p: 0 for p in range(st.players)}
    for members, (open_edges,) in areas.items():
        cell, seg = next(iter(members))
        card, face, _ = st.board[cell]
        kind = g.catalogue.faces[(card, face)].segments[seg].kind
        if kind not in ("nebula", "system") or open_edges:
            continue
        root = st.areas.area_of(cell, seg)
        owner = st.area_attrs.get(root, {}).get("controller")
        if owner is None:
            continue
        tiles = {c for c, _ in members}
        sites = set()
        feats = {"planet": 0, "extractor": 0}
        for c, s in members:
            info = g.catalogue.faces[(st.board[c][0], st.board[c][1])]
            for site in info.sites.values():
                if site.segment == s:
                    sites.add((c, site.name))
                    if site.is_feature and site.kind in feats:
                        feats[site.kind] += 1
        pieces = [st.pieces[p] for site in sites for p in st.stack_of(site)]
        kinds = [p.kind for p in pieces]
        if kind == "nebula":
            level = kinds.count("station") - kinds.count("base") + feats["extractor"] \
                + 2 * kinds.count("base")
            out[owner] += len(tiles) * level
        else:
            tech = 10 if "base" in kinds else 4 if "station" in kinds else 0
            out[owner] += tech * (feats["planet"] + kinds.count("emissary"))
    for p in range(st.players):
        out[p] += 3 * st.player_res[p].get("mineral", 0)
    return out


def assert_nothing_created_or_lost(st: Any, setup: dict[str, int], tiles: int, where: Any
                                   ) -> None:
    """Every piece is in a supply or on the board, the 100 minerals are all somewhere, and
    every tile dealt is on the board, in a stack or set aside."""
    on_board = Counter((q.owner, q.kind) for q in st.pieces.values())
    for p in range(st.players):
        for kind, total in setup.items():
            assert st.supply[p][kind] + on_board[(p, kind)] == total, (where, p, kind)
    minerals = st.pool.get("mineral", 0) + sum(d.get("mineral", 0) for d in st.player_res) \
        + sum(d.get("mineral", 0) for d in st.area_res.values())
    assert minerals == 100, where
    assert len(st.board) + zones.size(st, STACKS) + len(st.discarded) == tiles, where


def play_one(rules: Rules, seed: int) -> None:
    pos = rules.start(4, seed=seed)
    rng = random.Random(seed)
    history = History(pos, [rules.game.seat_id(i) for i in range(4)],
                      [[c for c in reversed(s)] for s in pos.state.stacks], seed)
    ledger = {p: 0 for p in range(4)}
    end_points = {p: 0 for p in range(4)}
    setup = rules.game.supply_table.rows[4]
    while not pos.finished:
        move = rng.choice(pos.listed_moves())  # (legal_moves, index for index)
        history.add(pos, move)
        pos, ruling = pos.play(move)
        for c in ruling.consequences:
            if c.kind == "gave" and c.data["resource"] == "points":
                p = rules.game.seat_index(c.data["to"], 4)
                ledger[p] += c.data["amount"]
                if c.rule and c.rule.id.startswith("end."):
                    end_points[p] += c.data["amount"]
        assert_nothing_created_or_lost(pos.state, setup, 72, seed)
    st = pos.state
    scores = [st.player_res[p].get("points", 0) for p in range(4)]
    assert scores == [ledger[p] for p in range(4)], seed
    assert [end_points[p] for p in range(4)] == [independent_end_score(pos)[p] for p in range(4)]
    assert pos.winners()
    if seed % 50 == 0:  # records round-trip and replay to the same end
        text = write_record(history, pos)
        again = replay(rules, parse_record(text))
        assert again.scores() == pos.scores()
        assert again.state.board == pos.state.board


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_four_player_games(rules: Rules, chunk: int) -> None:
    per = GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        play_one(rules, seed)


@pytest.mark.parametrize("ruleset", ["trian_family", "trian_more_tiles", "trian_conquest",
                                     "trian_teams"])
def test_random_games_of_the_variants_end_with_everything_accounted_for(ruleset: str) -> None:
    """A few games of each variant: pieces and minerals conserved, every point cited, and
    each record replays to the same end."""
    rules = compiled.rules(ruleset)
    stacks = rules.game.stacks_zone
    tiles = stacks.dealt.get(4, len(rules.ruleset.tiles())) if stacks else len(rules.ruleset.tiles())
    setup = rules.game.supply_table.rows[4]
    for seed in range(4):
        pos = rules.start(4, seed=seed)
        rng = random.Random(seed)
        history = History(pos, [rules.game.seat_id(i) for i in range(4)],
                          [[c for c in reversed(s)] for s in pos.state.stacks], seed)
        ledger = {p: 0 for p in range(4)}
        while not pos.finished:
            move = rng.choice(pos.listed_moves())  # (legal_moves, index for index)
            history.add(pos, move)
            pos, ruling = pos.play(move)
            for c in ruling.consequences:
                if c.kind == "gave" and c.data["resource"] == "points":
                    sign = 1 if c.data["to"] != "pool" else 0
                    if sign:
                        ledger[rules.game.seat_index(c.data["to"], 4)] += c.data["amount"]
                    if c.data.get("source") not in (None, "pool"):
                        ledger[rules.game.seat_index(c.data["source"], 4)] -= c.data["amount"]
            assert_nothing_created_or_lost(pos.state, setup, tiles, (ruleset, seed))
        st = pos.state
        assert [st.player_res[p].get("points", 0) for p in range(4)] == \
            [ledger[p] for p in range(4)], (ruleset, seed)
        again = replay(rules, parse_record(write_record(history, pos)))
        assert again.scores() == pos.scores() and again.state.board == st.board
