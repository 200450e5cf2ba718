"""The final standings: who won, and the sentence a judge reads out about it.

The winner is found by the ruleset's `winner` measures in order, each a tie-break
for the one before. The note says what the winners scored on the first measure
and, when that was a tie, which later measure broke it and by how much, so a
table can check it: "Red tied with Blue on 46 points; Red wins on most towers
left in supply (3 against 2)". Sides are teams when the ruleset has them for this
number of players, players otherwise; the words for a measure come from the
ruleset (resource and piece names, a definition's title).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from compiler.engine.evaluate import Env
from compiler.engine.state import State
from compiler.ir import model as m
from compiler.ir import nodes as n

if TYPE_CHECKING:
    from compiler.engine.game import Game


@dataclass(frozen=True)
class Measure:
    """One `most`/`fewest` term of the winner declaration, with its words."""

    direction: str          # "most" or "fewest"
    expr: Any               # the IR expression, in terms of `it` (each player)
    plain: str | None       # "points": words that follow a number, if any
    title: str | None       # "the points of {who}'s team": a definition's title


def measures(game: Game) -> list[Measure]:
    """The winner measures, or the score alone when the ruleset declares none."""
    terms = game.winner_terms
    if not terms:
        score = n.Attr(obj=n.Name(id="it"), name=game.score)
        return [Measure("most", score, game.title(game.score, True), None)]
    return [Measure(t.direction, t.expr, *_words(game, t.expr)) for t in terms]


def _words(game: Game, e: Any) -> tuple[str | None, str | None]:
    """(plain words, definition title) for a measure; both None if it has no words."""
    if isinstance(e, n.Attr) and _is_it(e.obj) and game.category(e.name) == "resource":
        return game.title(e.name, True), None
    kinds = _supplies(e)
    if kinds:
        names = [game.title(k, True) for k in kinds]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"{listed} left in supply", None
    if isinstance(e, n.Call) and e.defined and all(_is_it(a) for a in e.args):
        d = next((d for d in game.decls if isinstance(d, m.Define) and d.id == e.func), None)
        if d is not None and d.title:
            title = d.title
            for p in d.params:
                title = title.replace("{" + p + "}", "{who}")
            return None, title
    return None, None


def _is_it(e: Any) -> bool:
    return isinstance(e, n.Name) and e.id == "it"


def _supplies(e: Any) -> list[str]:
    """The piece kinds of `supply(it, k)`, or of a sum of such terms; [] otherwise."""
    if isinstance(e, n.Call) and e.func == "supply" and not e.defined and _is_it(e.args[0]):
        return [e.args[1].id]
    if isinstance(e, n.Arith) and all(op == "+" for op, _ in e.rest):
        parts = [_supplies(x) for x in (e.first, *(x for _, x in e.rest))]
        if all(parts):
            return [k for p in parts for k in p]
    return []


def _count(game: Game, words: str, value: Any) -> str:
    """"1 point", "46 points": singular and plural are the ruleset's."""
    if value == 1:
        for cat, decl in game.kinds.values():
            plural = decl.plural or decl.title + "s"
            if cat in ("resource", "piece") and words in (plural, f"{plural} left in supply"):
                words = decl.title + words[len(plural):]
                break
    return f"{value} {words}"


class Standings:
    """The measures of every player, and the story of how the winners were found."""

    def __init__(self, game: Game, st: State) -> None:
        self.game, self.st = game, st
        self.measures = measures(game)
        env = Env(game, st)
        self.values: dict[int, list[int]] = {}
        for p in range(st.players):
            if game.winner_order:
                env.vars = {"it": p}
                self.values[p] = [f(env) or 0 for _, f in game.winner_order]
            else:
                self.values[p] = [st.player_res[p].get(game.score, 0)]

    def key(self, p: int) -> tuple[int, ...]:
        return tuple(v * (1 if ms.direction == "most" else -1)
                     for ms, v in zip(self.measures, self.values[p]))

    def winners(self) -> tuple[int, ...]:
        keys = {p: self.key(p) for p in range(self.st.players)}
        best = max(keys.values())
        return tuple(p for p in range(self.st.players) if keys[p] == best)

    # ----------------------------------------------------------- the note

    def note(self) -> str:
        won = self.winners()
        sides = self._sides()
        winning = [tuple(p for p in s if p in won) for s in sides if any(p in won for p in s)]
        # Follow the measures down: who is still in contention after each.
        alive = list(sides)
        cut_at: dict[int, list[tuple[int, ...]]] = {}
        for i in range(len(self.measures)):
            best = max(self.key(s[0])[i] for s in alive)
            left = [s for s in alive if self.key(s[0])[i] == best]
            if len(left) < len(alive):
                cut_at[i] = [s for s in alive if s not in left]
            alive = left
        first = self.measures[0]
        lead = winning[0][0]
        if len(winning) > 1:
            tied = self._list(winning)
            more = " and on every tie-break" if len(self.measures) > 1 else ""
            return (f"{tied} share the victory, tied on "
                    f"{self._value(first, self.values[lead][0], 'each')}{more}")
        names = self._label(winning[0])
        verb = "wins" if len(winning[0]) == 1 else "win"
        broken = [i for i in cut_at if i > 0]
        if not broken:
            said = f"{names} {verb} with {self._value(first, self.values[lead][0], lead)}"
            others = [s for s in sides if s not in winning and not set(s) & set(won)]
            if others:
                second = max(others, key=lambda s: self.key(s[0])[0])
                said += f", against {self.values[second[0]][0]} for {self._label(second)}"
            return said
        decider = broken[-1]
        level = [s for s in sides if self.key(s[0])[0] == self.key(lead)[0] and s not in winning]
        measure = self.measures[decider]
        runner = max(cut_at[decider], key=lambda s: self.key(s[0])[decider])
        return (f"{names} tied with {self._list(level)} on "
                f"{self._value(first, self.values[lead][0], 'each')}; {names} {verb} on "
                f"{self._noun(measure)} ({self.values[lead][decider]} against "
                f"{self.values[runner[0]][decider]})")

    def _sides(self) -> list[tuple[int, ...]]:
        """Teams in seat order when the ruleset has them for this count, else players."""
        seen: list[tuple[int, ...]] = []
        for p in range(self.st.players):
            team = self.game.team_of(self.st.players, p) or (p,)
            if team not in seen:
                seen.append(team)
        return seen

    def _label(self, side: tuple[int, ...]) -> str:
        names = [self.game.seat_name(p) for p in side]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def _list(self, sides: list[tuple[int, ...]]) -> str:
        labels = [self._label(s) for s in sides]
        if len(labels) == 1:
            return labels[0]
        if all(len(s) == 1 for s in sides):
            return ", ".join(labels[:-1]) + " and " + labels[-1]
        return ", and with ".join(labels)

    def _value(self, measure: Measure, value: Any, who: int | str) -> str:
        """"46 points"; "the points of Red's team: 15"."""
        if measure.plain is not None:
            return _count(self.game, measure.plain, value)
        if measure.title is not None:
            return f"{self._titled(measure.title, who)}: {value}"
        return f"{value}"

    def _noun(self, measure: Measure) -> str:
        """"most towers left in supply": the measure that broke the tie."""
        if measure.plain is not None:
            return f"{measure.direction} {measure.plain}"
        if measure.title is not None:
            return f"{measure.direction} {self._titled(measure.title, 'each').removeprefix('the ')}"
        return f"the {measure.direction} by a later tie-break"

    def _titled(self, title: str, who: int | str) -> str:
        """A definition's title said of one player, or of every side ("each team")."""
        if who == "each":
            return title.replace("{who}'s ", "each ").replace("{who}", "each player")
        return title.replace("{who}", self.game.seat_name(int(who)))
