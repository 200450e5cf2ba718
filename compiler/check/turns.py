"""Checks of rounds, game attributes, orders of play, `next turn` and steps each player takes.

A mixin of `Checker` (see `compiler/check/__init__.py`): it collects the names these
declarations introduce (`game.<round>`, `game.<attribute>`, order names, which are
collections of players) and types their expressions, with errors that say what was
expected and how to write it.
"""

from __future__ import annotations

from typing import Any

from compiler.diagnostics import did_you_mean
from compiler.ir import model as m


class TurnsChecks:
    """`d_round`, `d_game_attribute`, `d_order`, `d_next_turn` and the `each player` part of
    `step`, for `Checker`."""

    sy: Any
    rs: m.Ruleset
    types: Any

    def report(self, *args: Any, **kwargs: Any) -> None:  # provided by Checker
        raise NotImplementedError

    def collect_turns(self) -> None:
        """Record rounds, game attributes and orders, each name once."""
        sy = self.sy
        for d in self.rs.all_decls():
            if isinstance(d, m.RoundDecl):
                if sy.rounds:
                    first = next(iter(sy.rounds.values()))
                    self.report(d.loc, "duplicate", f"a second kind of round, `{d.id}`: the "
                                f"turns are already grouped in `{first.id}`",
                                hint="a game has one kind of round; count turns within it "
                                     "with a game attribute")
                else:
                    sy.rounds[d.id] = d
            elif isinstance(d, m.GameAttribute):
                a = d.attribute
                if a.name in sy.game_attrs:
                    self.report(a.loc, "duplicate", f"game attribute `{a.name}` is declared "
                                                    f"twice")
                sy.game_attrs.setdefault(a.name, a)
            elif isinstance(d, m.OrderDecl):
                if d.id in sy.orders:
                    self.report(d.loc, "duplicate", f"order `{d.id}` is declared twice")
                elif sy.category(d.id) is not None or d.id in sy.defines:
                    self.report(d.loc, "duplicate", f"order `{d.id}` has the name of "
                                                    f"something else the rules declare")
                sy.orders.setdefault(d.id, d)
        for name in sy.game_attrs:
            if name in sy.rounds:
                self.report(sy.game_attrs[name].loc, "duplicate",
                            f"game attribute `{name}` has the name of the round: `game.{name}` "
                            f"is already the round's number")

    def d_round(self, d: m.RoundDecl) -> None:
        if d.count < 1:
            self.report(d.loc, "range", f"a game of {d.count} {d.id}s has no turns",
                        hint="`count` is how many rounds are played, at least 1")
        self.types.expect(d.turns, {}, "int", f"the number of turns in a {d.title}")
        ends = [x for x in self.rs.all_decls() if isinstance(x, m.EndDecl)]
        if ends:
            self.report(ends[0].loc, "structure",
                        f"the game already ends with its last {d.title} (`round {d.id}`), so "
                        f"`game ends after turn when` cannot end it too",
                        hint="drop one: rounds end the game after the last turn of the last "
                             "round")

    def d_game_attribute(self, d: m.GameAttribute) -> None:
        if d.attribute.given is not None:
            self.report(d.attribute.given.loc, "structure",
                        f"`given as` belongs to an area's attribute; game attribute "
                        f"`{d.attribute.name}` is set by the rules or written in the position")

    def d_order(self, d: m.OrderDecl) -> None:
        for t in d.order:
            self.types.expect(t.expr, {"it": "player"}, "int",
                              f"a measure of the order `{d.id}` (`it` is each player)")
        if d.start is not None:
            self.types.expect(d.start, {}, "player", "the player `seats from` starts at")

    def d_next_turn(self, d: m.NextTurnDecl) -> None:
        self.types.expect(d.expr, {}, "player", "the player who plays the next turn")
        more = [x for x in self.rs.all_decls() if isinstance(x, m.NextTurnDecl)]
        if len(more) > 1 and more[0] is not d:
            self.report(d.loc, "duplicate", "`next turn to` is declared twice: which player "
                                            "plays next must be said once")

    def check_step_who(self, d: m.StepDecl) -> None:
        """The order an `each player in ORDER` step names exists."""
        if d.order is not None and d.order not in self.sy.orders:
            self.report(d.loc, "unknown-name", f"step `{d.id}` goes round in unknown order "
                        f"`{d.order}`", hint=did_you_mean(d.order, self.sy.orders) or
                        f"declare it: `order {d.order} \"…\" = most it.POINTS then seats "
                        f"from me`")

    def check_round_moment(self, ev: m.Event) -> None:
        """`at start of round R`: R is the game's round."""
        if ev.round not in self.sy.rounds:
            said = f"unknown round `{ev.round}`"
            self.report(ev.loc, "unknown-name", said,
                        hint=did_you_mean(ev.round or "", self.sy.rounds) or
                        "declare the rounds: `round NAME \"…\" { count N  turns M }`")
