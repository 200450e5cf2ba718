"""Mutated positions, records and moves end in the project's own errors, with a place.

Seeds are real: position files written from random play, the records of
those games, and the moves legal in them. Each case spoils one (a value of
the wrong kind, a number of 5,000 digits, a key removed or unknown, a cut, a
byte that is not UTF-8) and hands it to the engine as the command line does.
Within the time and memory bounds the answer is a result, or:

- for a position file: pydantic's `ValidationError` (which the command line
  words, path by path) or `PositionError`, each problem with its JSON path;
- for a record: `RecordError`, with the line and column;
- for a move: a ruling whose every refusal says why, or `NotationError`.

A position that is accepted must then be usable: its legal moves listed,
one of them judged.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from compiler.diagnostics import CompileError, decode_source
from compiler.engine.formats import PositionError, PositionModel, from_state, position_from_model
from compiler.engine.notation import NotationError
from compiler.engine.records import History, RecordError, parse_record, replay, write_record
from compiler.engine.scenario import settled
from tests import compiled
from tests.fuzzing import (
    GROUP, budget, bounded, canonical, located, plain, played, positions,
)

pytestmark = GROUP

# A base game, a game with ships, a game with dice and chance, a team game.
RULESETS = ("trian_deluxe", "trian_conquest", "trian_new_order", "trian_teams")
SEED, DECISIONS = 3, 40

HUGE = "9" * 5000
# JSON values to put anywhere in a position file.
VALUES: list[Any] = [None, True, False, 0, -1, 1, 7, 2**63, 1.5, "", "x", "²", "١٢", "0,0",
                     "99,99:planet", "-1,-1:space", "t99", "a" * 300, [], {}, [[[[]]]],
                     {"x": 1}, "\u2028", "\x00", "1,0:", ":nebula", "9" * 30]


def _json_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _json_paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _json_paths(v, (*path, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


@functools.lru_cache(maxsize=None)
def _declared(name: str) -> dict[str, list[str]]:
    """What a position file of this ruleset names: area and player attributes, resources, pieces."""
    rs = compiled.rules(name).ruleset
    found: dict[str, set[str]] = {"areas": set(), "players": set(), "resources": set(),
                                  "supply": set()}
    for d in rs.all_decls():
        if d.decl == "area":
            found["areas"].update(a.name for a in d.attributes)
        elif d.decl == "player_attribute":
            found["players"].add(d.attribute.name)
        elif d.decl in ("resource", "family"):
            found["resources"].add(d.id)
        elif d.decl == "piece":
            found["supply"].add(d.id)
    return {k: sorted(v | {"nosuch"}) for k, v in found.items()}


def _names(name: str) -> list[str]:
    return sorted({n for names in _declared(name).values() for n in names}
                  | {s.id for s in compiled.rules(name).ruleset.seats} | {"grants", "pending", "x"})


@st.composite
def position_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """The JSON of a position met in random play, spoiled in one to three places."""
    name = draw(st.sampled_from(RULESETS))
    pos = draw(st.sampled_from(positions(name, SEED, DECISIONS)))
    doc = json.loads(from_state(pos.rules, pos.state).model_dump_json(exclude_none=True))
    huge_at: list[str] = []
    for _ in range(draw(st.integers(1, 2))):
        paths = _json_paths(doc)
        path = draw(st.sampled_from(paths))
        what = draw(st.sampled_from(["attribute", "value", "extra", "huge", "remove", "copy"]))
        if what == "value":
            doc = _set(doc, path, draw(st.sampled_from(VALUES)))
        elif what == "remove" and path:
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            del parent[path[-1]]
        elif what == "extra":  # into a dict or list: a key of the ruleset's, or one more item
            containers = [p for p in paths if isinstance(_get(doc, p), (dict, list))]
            target = _get(doc, draw(st.sampled_from(containers))) if containers else None
            if isinstance(target, dict):
                target[draw(st.sampled_from(_names(name)))] = draw(st.sampled_from(VALUES))
            elif isinstance(target, list):
                target.append(target[0] if target else draw(st.sampled_from(VALUES)))
        elif what == "attribute" and isinstance(doc, dict):  # an area's or a player's
            key = draw(st.sampled_from(["areas", "players"]))
            holders = [x for x in doc.get(key) or [] if isinstance(x, dict)] \
                if isinstance(doc.get(key), list) else []
            if holders:
                holder = draw(st.sampled_from(holders))
                field = draw(st.sampled_from(["attributes", "resources", "supply"]))
                if not isinstance(holder.get(field), dict):
                    holder[field] = {}
                names = _declared(name)[key if field == "attributes" else field]
                holder[field][draw(st.sampled_from(names))] = draw(st.sampled_from(VALUES))
        elif what == "copy" and path:
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            if isinstance(parent, list):
                parent.append(parent[path[-1]])
        elif what == "huge":
            marker = f"@@HUGE{len(huge_at)}@@"
            huge_at.append(marker)
            doc = _set(doc, path, marker)
    text = json.dumps(doc)
    for marker in huge_at:
        text = text.replace(f'"{marker}"', draw(st.sampled_from([HUGE, "-" + HUGE, f'"{HUGE}"'])))
    data = text.encode("utf-8")
    cut = draw(st.sampled_from(["none", "none", "none", "cut", "byte"]))
    if cut == "cut":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + data[at + draw(st.integers(1, 50)):]
    elif cut == "byte":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + b"\xff" + data[at:]
    return name, data


def load_position(name: str, data: bytes, file: str = "pos.json") -> Any:
    """Read a position file as the command line does; None if it was refused properly."""
    rules = compiled.rules(name)
    try:
        text = decode_source(data, file)
    except CompileError as e:
        for d in e.diagnostics:
            located(d)
        return None
    try:
        return settled(position_from_model(rules, PositionModel.model_validate_json(text)))
    except ValidationError as e:
        for problem in e.errors():
            assert problem["loc"] is not None and problem["msg"]
        return None
    except PositionError as e:
        assert e.problems
        for path, message in e.problems:
            assert path, f"a problem with no JSON path: {message}"
            plain(message)
        return None


@budget(80)
@given(case=position_files())
def test_a_spoiled_position_file_is_refused_with_its_path_or_plays(case: tuple[str, bytes]
                                                                   ) -> None:
    name, data = case
    with bounded():
        pos = load_position(name, data)
        if pos is None:
            return
        moves = pos.legal_moves()
        pos.situation()
        from_state(pos.rules, pos.state)
        if moves:
            before = canonical(pos)
            pos.adjudicate(moves[0])
            assert canonical(pos) == before


# ------------------------------------------------------------------- records


def _record(name: str, decisions: int) -> str:
    history = played(name, SEED, DECISIONS)
    part = History(start=history.start, seats=history.seats, stacks=history.stacks,
                   seed=history.seed, moves=history.moves[:decisions])
    return write_record(part)


RECORD_BITS = ["[", "]", '"', "\n", ";", "!", "1.", "0.", "-1.", HUGE + ".", "99999999999999.",
               '[Players "nosuch xemh"]', '[Players ""]', '[Players "quuylto quuylto"]',
               '[Stacks "t01 t01 | nosuch"]', '[Stacks "|||"]', '[Seed "' + HUGE + '"]',
               '[Seed "²"]', '[Ruleset "trian_new_order"]', '[Result "xemh 999; winner xemh"]',
               "pass", "research", "emissary 0,0:planet", "\u2028", "\x00", "\t", "{", "}",
               '{"format": "rulebook-position"}', "²", "p0", "p99"]


@st.composite
def records(draw: st.DrawFn) -> tuple[str, str]:
    """A record of a seeded game, cut short, and spoiled in one to three places."""
    name = draw(st.sampled_from(RULESETS))
    text = _record(name, draw(st.integers(0, 30)))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        what = draw(st.sampled_from(["insert", "cut", "swap", "word"]))
        if what == "insert":
            text = text[:at] + draw(st.sampled_from(RECORD_BITS)) + text[at:]
        elif what == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif what == "swap":
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        else:
            words = list(re.finditer(r"[^\s;\[\]\"]+", text))
            if words:
                w = draw(st.sampled_from(words))
                text = text[:w.start()] + draw(st.sampled_from(RECORD_BITS + [w.group(0)[:-1]])) \
                    + text[w.end():]
    return name, text


@budget(60)
@given(case=records())
def test_a_spoiled_record_is_refused_at_its_line_or_replays(case: tuple[str, str]) -> None:
    name, text = case
    rules = compiled.rules(name)
    lines = text.count("\n") + 1
    with bounded():
        try:
            pos = replay(rules, parse_record(text, "game.record"))
        except RecordError as e:
            d = e.diagnostic
            located(d, {"game.record"})
            assert 1 <= d.line <= lines + 1, f"line {d.line} of a record of {lines}: {d.render()}"
            return
        pos.legal_moves()
        pos.situation()


# --------------------------------------------------------------------- moves

MOVE_BITS = ["", " ", ";", ";;", "!", "! 3", "! " + HUGE, HUGE, "pass", "pass; pass",
             "research; " * 200, "0,0", "99999999999999999999,0:planet", "1,0:planet",
             "-0,-0:space", "²,1:planet", "t01 a at 0,0 r" + HUGE, "r-1", "\u2028", "\x00",
             "é", "emissary", "emissary emissary", "{site}", "(", ")", "a" * 1000]


@st.composite
def move_texts(draw: st.DrawFn) -> tuple[Any, str]:
    name = draw(st.sampled_from(RULESETS))
    pos = draw(st.sampled_from(positions(name, SEED, DECISIONS)))
    legal = [pos.notation(m) for m in pos.legal_moves()] or ["pass"]
    base = draw(st.sampled_from(legal))
    what = draw(st.sampled_from(["bits", "edit", "text"]))
    if what == "bits":
        move = draw(st.sampled_from(MOVE_BITS))
    elif what == "edit":
        at = draw(st.integers(0, len(base)))
        move = base[:at] + draw(st.sampled_from(MOVE_BITS)) + base[at + draw(st.integers(0, 3)):]
    else:
        move = draw(st.text(max_size=30))
    return pos, move


@budget(60)
@given(case=move_texts())
def test_a_spoiled_move_is_judged_or_refused_in_words(case: tuple[Any, str]) -> None:
    pos, move = case
    before = canonical(pos)
    with bounded():
        try:
            ruling = pos.adjudicate(move)
        except NotationError as e:
            plain(str(e))
            return
        finally:
            assert canonical(pos) == before
    assert ruling.verdict in ("LEGAL", "ILLEGAL", "UNREADABLE")
    for mv in ruling.moves:
        for b in mv.breaches:
            plain(b.message)
