"""Worked examples as scenarios: given a position, play moves, expect results.

An example is strict. Its moves are adjudicated; every expectation is
compared with what the engine computed, and any difference fails it with a
readable "expected ... but ..." line. An example that expects a move to be
illegal names the rules that forbid it, and those must be exactly the rules
the engine cites.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from compiler.engine.audit import expectation_problem as audit_expectation
from compiler.engine.effects import from_ref
from compiler.engine.formats import (
    AreaState, GameState, PieceAt, PlayerState, PositionError, PositionModel, TileAt, TurnState,
    position_from_model,
)
from compiler.engine import card_facts, chance, zone_facts
from compiler.engine.evaluate import ChanceError, Env
from compiler.engine.position import GameEndRefused, Position, Rules
from compiler.engine.ruling import Effect, Ruling
from compiler.engine.turns import advance
from compiler.ir import model as m


@dataclass
class ExampleResult:
    example: m.Example
    before: Position | None = None
    after: Position | None = None
    ruling: Ruling | None = None
    end_effects: list[Effect] = field(default_factory=list)
    end_decided: list[str] = field(default_factory=list)  # rules that ran, changing nothing
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def model_from_facts(rules: Rules, facts: list[m.PositionFact]) -> PositionModel:
    """A `given { ... }` block as a position model: a partial one, since an example shows
    only what it is about (the cards it leaves unsaid are in the zone the cards start in)."""
    g = rules.game
    seats: list[str] = []
    players: dict[str, PlayerState] = {}
    tiles: list[TileAt] = []
    pieces: list[PieceAt] = []
    areas: dict[str, AreaState] = {}
    pool: dict[str, int] = {}
    stacks = None
    held: dict[str, Any] = {}
    turn: TurnState | None = None
    game_state: GameState | None = None
    waiting: list[str] | None = None
    on_tiles: dict[str, dict[str, int]] = {}  # what laid tiles hold, by their cell's text
    for f in facts:
        a = f.args
        if f.fact == "players":
            seats = [str(x) for x in a]
            players = {s: PlayerState(seat=s) for s in seats}
        elif f.fact == "turn":
            turn = TurnState(number=int(a[0]), player=str(a[1]), step=str(a[2]),
                             placed=a[3] if a[3] is not None else None)  # type: ignore[arg-type]
        elif f.fact == "tile":
            tiles.append(TileAt(tile=str(a[0]), face=str(a[1]), at=str(a[2]), rotation=int(a[3])))
        elif f.fact == "piece":
            pieces.append(PieceAt(kind=str(a[0]), owner=str(a[1]), at=str(a[2])))
        elif f.fact == "amount":
            res, holder, amount = str(a[0]), str(a[1]), int(a[2])  # type: ignore[arg-type]
            if holder == "pool":
                pool[res] = amount
            elif ":" in holder:
                areas.setdefault(holder, AreaState(at=holder)).resources[res] = amount
            elif "," in holder:  # a laid tile: `energy red/0,0 2`
                on_tiles.setdefault(holder, {})[res] = amount
            else:
                if holder not in players:
                    players[holder] = PlayerState(seat=holder)
                players[holder].resources[res] = amount
        elif f.fact == "area":
            site, name, value = a
            areas.setdefault(str(site), AreaState(at=str(site))).attributes[str(name)] = \
                _value(value)
        elif f.fact == "player":
            seat, name, value = str(a[0]), str(a[1]), a[2]
            players.setdefault(seat, PlayerState(seat=seat)).attributes[name] = _value(value)
        elif f.fact == "supply":
            seat, kind, count = str(a[0]), str(a[1]), int(a[2])  # type: ignore[arg-type]
            p = players.setdefault(seat, PlayerState(seat=seat))
            p.supply = dict(p.supply or {})
            p.supply[kind] = count
        elif f.fact == "stacks":
            stacks = [list(s) for s in a]  # type: ignore[union-attr]
        elif f.fact == "game":
            game_state = game_state or GameState()
            game_state.attributes[str(a[0])] = _value(a[1])
        elif f.fact == "round":
            game_state = game_state or GameState()
            game_state.round, game_state.turn = int(a[0]), int(a[1])  # type: ignore[arg-type]
        elif f.fact == "waiting":
            waiting = [str(x) for x in a]
        elif f.fact == "zone":
            zone_facts.given(held, rules.game, a)
        elif f.fact == "card":
            tiles.append(card_facts.laid_card(rules, a))
    for t in tiles:
        t.holds.update(on_tiles.pop(t.at, {}))
    if on_tiles:
        where = ", ".join(on_tiles)
        raise PositionError([("given", f"no tile is laid at {where}, so it holds nothing")])
    if not seats:
        seats = [g.seat_id(i) for i in range(rules.ruleset.players_min)]
        players = {s: players.get(s, PlayerState(seat=s)) for s in seats}
    if turn is None:
        turn = TurnState(player=seats[0], step=g.steps[0].id)
    if waiting is not None:
        turn.waiting = waiting
    return PositionModel(ruleset=rules.ruleset.id, players=[players[s] for s in seats],
                         tiles=tiles, pieces=pieces, areas=list(areas.values()),
                         pool=pool or None, stacks=stacks, zones=held or None, turn=turn,
                         game=game_state, partial=True)


def _value(v: Any) -> Any:
    if v == "true":
        return True
    if v == "false":
        return False
    return v


def settled(pos: Position) -> Position:
    """Move a freshly loaded position on to its first real decision."""
    st = pos.state.clone()
    env = Env(pos.game, st)
    advance(env)
    return Position(pos.rules, st)


def run_example(rules: Rules, ex: m.Example) -> ExampleResult:
    result = ExampleResult(ex)
    starting = any(f.fact == "start" for f in ex.given)
    try:
        if starting:  # the game as its set-up leaves it
            before = chance.started(rules, ex.given)
        else:
            before = settled(position_from_model(rules, model_from_facts(rules, ex.given)))
    except PositionError as e:
        result.failures += [f"the given position is not valid: {p}: {msg}" for p, msg in e.problems]
        return result
    except ValidationError as e:  # a number out of range (turn 0, a negative amount)
        result.failures += [f"the given position is not valid: "
                            f"{'.'.join(str(x) for x in problem['loc'])}: {problem['msg']}"
                            for problem in e.errors()]
        return result
    except ChanceError as e:  # the position moves on by itself, through chance not given
        result.failures.append(f"the given position goes on by itself to where chance must "
                               f"decide, and nothing says what it decided: {e}")
        return result
    except ValueError as e:  # a set-up the rules cannot make (chance not given, a bad seat)
        if not starting:
            raise
        result.failures.append(f"the game cannot be set up as given: {e}")
        return result
    result.before = before
    after = before
    expects_illegal = any(f.fact == "illegal" for f in ex.expect)
    if ex.play:
        ruling, moved = before.judge("; ".join(ex.play))
        result.ruling = ruling
        if moved is not None:
            after = moved
        elif not expects_illegal:
            reasons = "; ".join(f"{b.rule.number if b.rule else b.code} {b.message}"
                                for mv in ruling.moves for b in mv.breaches)
            result.failures.append(f"expected the moves to be legal, but the engine refuses them: "
                                   f"{reasons}")
    if ex.end_game:
        try:
            after, result.end_effects = after.end_game(result.end_decided)
        except GameEndRefused as e:
            result.failures.append(f"the game cannot be ended here: {e}")
            result.after = after
            return result
    result.after = after
    for f in ex.expect:
        problem = _check(rules, f, before, after, result.ruling)
        if problem:
            where = f" (line {f.loc.line})" if f.loc else ""
            result.failures.append(problem + where)
    return result


def _check(rules: Rules, f: m.PositionFact, before: Position, after: Position,
           ruling: Ruling | None) -> str | None:
    g = before.game  # the table's seating may differ from the ruleset's first seats
    a = f.args
    if f.fact == "legal":
        if ruling is None:
            return "expected a legal move, but the example plays none"
        if ruling.verdict != "LEGAL":
            return "expected LEGAL, but the engine says ILLEGAL"
        return None
    if f.fact == "illegal":
        if ruling is None:
            return "expected an illegal move, but the example plays none"
        if ruling.verdict != "ILLEGAL":
            return "expected ILLEGAL, but the engine says LEGAL"
        if a:
            cited = sorted({b.rule.id for mv in ruling.moves for b in mv.breaches if b.rule})
            want = sorted(str(x) for x in a)
            if cited != want:
                return f"expected the rules {', '.join(want)} to forbid it, but the engine cites " \
                       f"{', '.join(cited) or 'no rule'}"
        return None
    if f.fact in ("amount", "delta"):
        res, holder, value = str(a[0]), str(a[1]), int(a[2])  # type: ignore[arg-type]
        now = _amount(after, res, holder)
        said = g.title(res, plural=abs(value) != 1)  # in the kind's own words, plural unless 1
        who = "the pool" if holder == "pool" else holder
        if f.fact == "delta":
            then = _amount(before, res, holder)
            if now is None or then is None:
                return f"there is no {who} holding {g.title(res, plural=True)}"
            if now - then != value:
                return f"expected {who} to gain {value:+d} {said}, but the change is " \
                       f"{now - then:+d} ({then} → {now})"
            return None
        if now != value:
            return f"expected {who} to hold {value} {said}, but it holds {now}"
        return None
    if f.fact == "piece":
        kind, owner, site = str(a[0]), str(a[1]), str(a[2])
        if not _has_piece(after, kind, owner, site):
            return f"expected a {kind} of {owner} at {site}, but there is none"
        return None
    if f.fact == "no_piece":
        kind, site = str(a[0]), str(a[1])
        if _has_piece(after, kind, None, site):
            return f"expected no {kind} at {site}, but there is one"
        return None
    if f.fact == "area":
        site, name, value = str(a[0]), str(a[1]), a[2]
        root = _area(after, site)
        if root is None:
            return f"there is no area at {site}"
        st = after.state
        kind = st.areas.kind(root)
        actual = st.area_attrs.get(root, {}).get(name, g.attribute_default(kind, name))
        types = {d.name: d.type for d in g.kinds[kind][1].attributes}
        shown = g.seat_id(actual) if types.get(name) == "player" and actual is not None else actual
        want = _value(value)
        if str(shown).lower() != str(want).lower():
            return f"expected {name} of the area at {site} to be {want}, but it is {shown}"
        return None
    if f.fact == "player":
        seat, name, value = str(a[0]), str(a[1]), a[2]
        i = g.seat_index(seat, after.state.players)
        if i is None:
            return f"there is no player {seat}"
        if name not in g.player_attrs:
            return f"players have no attribute {name}"
        actual = after.state.player_attrs[i].get(name, g.player_default(name))
        if g.player_attrs[name].type == "player" and actual is not None:
            actual = g.seat_id(actual)
        want = _value(value)
        if str(actual).lower() != str(want).lower():
            return f"expected {name} of {seat} to be {want}, but it is {actual}"
        return None
    if f.fact in ("closed", "open"):
        root = _area(after, str(a[0]))
        if root is None:
            return f"there is no area at {a[0]}"
        closed = after.state.areas.closed(root)
        if closed != (f.fact == "closed"):
            return f"expected the area at {a[0]} to be {f.fact}, but it is " \
                   f"{'closed' if closed else 'open'}"
        return None
    if f.fact == "supply":
        seat, kind, count = str(a[0]), str(a[1]), int(a[2])  # type: ignore[arg-type]
        i = g.seat_index(seat, after.state.players)
        have = after.state.supply[i].get(kind, 0) if i is not None else None
        if have != count:
            return f"expected {seat} to have {count} {kind} in supply, but they have {have}"
        return None
    if f.fact == "winner":
        want = sorted(str(x) for x in a)
        got = sorted(after.winners())
        if want != got:
            return f"expected the winner(s) {', '.join(want)}, but the engine finds " \
                   f"{', '.join(got) or 'none (the game is not over)'}"
        return None
    if f.fact in ("zone", "zone_size"):
        return zone_facts.expected(after, f.fact, a)
    if f.fact == "step":
        step = g.steps[after.state.turn.step].id
        if step != a[0]:
            return f"expected to be in step {a[0]}, but the position is in step {step}"
        return None
    if f.fact in ("game", "round", "waiting"):
        from compiler.engine.rounds import expectation_problem
        return expectation_problem(after, f)
    if f.fact in ("card", "no_card"):
        return card_facts.card_problem(after, f)
    if f.fact == "value":
        return card_facts.value_problem(after, f)
    if f.fact in ("breach", "no_breach"):
        return audit_expectation(after.rules, after.state, f)
    return f"unknown expectation {f.fact}"


def _amount(pos: Position, res: str, holder: str) -> int | None:
    """What `holder` holds of `res`; a family name reads the total of its members."""
    st, g = pos.state, pos.game
    members = g.families.get(res, (res,))
    if holder == "pool":
        held = st.pool
    elif ":" in holder:
        root = _area(pos, holder)
        if root is None:
            return None
        held = st.area_res.get(root, {})
    elif "," in holder:  # a laid tile
        try:
            cell = g.parse_cell(holder, None, st.players)
        except ValueError:
            return None
        if cell not in st.board:
            return None
        held = st.tile_res.get(cell, {})
    else:
        i = g.seat_index(holder, st.players)
        if i is None:
            return None
        held = st.player_res[i]
    return sum(held.get(r, 0) for r in members)


def _area(pos: Position, site_text: str) -> Any:
    st, g = pos.state, pos.game
    cell_text, name = site_text.split(":")
    try:
        cell = g.parse_cell(cell_text, None, st.players)
    except ValueError:
        return None
    if cell not in st.board:
        return None
    try:
        return g.site_area(st, (cell, name))
    except KeyError:
        return None


def _has_piece(pos: Position, kind: str, owner: str | None, site_text: str) -> bool:
    st, g = pos.state, pos.game
    cell_text, name = site_text.split(":")
    try:
        site = (g.parse_cell(cell_text, None, st.players), name)
    except ValueError:
        return False
    for pid in st.stack_of(site):
        p = st.pieces[pid]
        if p.kind == kind and (owner is None or g.seat_id(p.owner) == owner):
            return True
    return False


__all__ = ["ExampleResult", "from_ref", "model_from_facts", "run_example", "settled"]
