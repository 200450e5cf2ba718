"""`Position`: the engine's public face.

    pos = Position.start(game, players=3, seed=7)
    pos.legal_moves()            # every legal move here
    pos.adjudicate("research")   # LEGAL / ILLEGAL, the rules deciding it, what follows
    pos = pos.apply("research")  # a new position; the old one is untouched
    nxt, ruling = pos.play(move, chance=rng)    # one move and its ruling (random play)
    done = pos.perform(move, chance=rng)        # the same, its ruling written only if asked

A position never changes: `apply` works on a copy and hands it back only if
the whole move went through. A refused move raises `IllegalMove` carrying the
ruling that refused it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from compiler import links
from compiler.engine import chance, simultaneous, zone_json, zone_play, zones
from compiler.engine.actions import CompiledAction, Violation, check
from compiler.engine.audit import AuditFinding, findings
from compiler.engine.effects import Consequence, drain
from compiler.engine.evaluate import ChanceError, Env, RuleError
from compiler.engine.game import Game
from compiler.engine.notation import ListedMoves, Move, Notation, NotationError, NotThere
from compiler.engine.performed import Performed, Recorded, Standing
from compiler.engine.ruling import Breach, Effect, MoveRuling, RuleCitation, Ruling, Situation
from compiler.engine.state import STACKS, Grant, State
from compiler.engine.turns import (
    ALSO_SOURCE, STEP_SOURCE, Listing, advance, decline, end_game, enter_step, lapse, move_on,
    must_act, offered, start_game,
)
from compiler.ir.english import English, Vocabulary
from compiler.ir import model as m


class IllegalMove(ValueError):
    def __init__(self, ruling: Ruling) -> None:
        self.ruling = ruling
        super().__init__(ruling.render())


class GameEndRefused(ValueError):
    """`Position.end_game()` cannot run the end here: the game is already over, or its end
    needs what nothing here gives. The message says which, in words."""


def _by(game: Game, rule_id: str | None) -> str:
    """" (rule 9.1 “The end”)": the rule deciding, as a parenthesis, or nothing."""
    r = game.rules.get(rule_id) if rule_id else None
    return f" (rule {r.number} “{r.title}”)" if r is not None else ""


class Rules:
    """A compiled ruleset with what rulings need: notation, citations, English."""

    def __init__(self, ruleset: m.Ruleset, seating: tuple[str, ...] | None = None) -> None:
        self.ruleset = ruleset
        self.seating = seating
        self.game = Game(ruleset, seating)
        self._seated: dict[tuple[str, ...], Rules] = {}
        self.notation = Notation(self.game)
        self.english = English(Vocabulary.of(ruleset))
        self._citations: dict[str, RuleCitation] = {}
        # What every ruling of an action cites whatever the move, by action (made when
        # first asked: engine/performed.py).
        self.standing: dict[str, Standing] = {}
        self.page_of = links.rule_pages(ruleset)  # where each rule is in the rulebook

    def cite(self, rule_id: str | None) -> RuleCitation | None:
        # Made once per rule or card: a ruling may cite dozens. Frozen: shared, never copied.
        found = self._citations.get(rule_id)  # type: ignore[arg-type]
        if found is not None:
            return found
        if rule_id is not None and rule_id in self.game.cards.by_citation:
            card = self.game.cards.by_citation[rule_id]  # a card is cited like a rule
            found = RuleCitation(id=rule_id, number=card.number, title=card.title,
                                 url=links.card_url(self.ruleset.id, card.cited))
        elif rule_id is None or rule_id not in self.game.rules:
            return None
        else:
            r = self.game.rules[rule_id]
            found = RuleCitation(id=r.id, number=r.number, title=r.title,
                                 url=links.rule_url(self.ruleset.id, self.page_of[r.id], r.id))
        self._citations[rule_id] = found
        return found

    def effect(self, c: Consequence) -> Effect:
        """A consequence as a ruling says it, with the rules it cites."""
        also = [x for r in c.also if (x := self.cite(r)) is not None]
        return Effect(kind=c.kind, rule=self.cite(c.rule), text=c.text, data=c.data, also=also)

    def seated(self, seats: list[str] | tuple[str, ...]) -> Rules:
        """These rules for a table where `seats` (seat ids, in playing order) play.

        By default a game of n players seats the first n seats declared; a
        table may choose others (a race, a colour). Unknown or repeated seats
        are refused with the reason.
        """
        seats = tuple(seats)
        declared = [s.id for s in self.ruleset.seats]
        base = self._base()
        if list(seats) == declared[:len(seats)]:
            return base
        unknown = [s for s in seats if s not in declared]
        if unknown:
            raise ValueError(f"no seat {unknown[0]!r} in {self.ruleset.id} "
                             f"(seats: {', '.join(declared)})")
        if len(set(seats)) != len(seats):
            raise ValueError("a seat is taken twice: " + ", ".join(seats))
        if seats not in base._seated:
            base._seated[seats] = Rules(self.ruleset, seats)
            base._seated[seats]._parent = base
        return base._seated[seats]

    def absent(self, text: str) -> tuple[str, Breach] | None:
        """Why `text`, unreadable here, is a move of a related ruleset this one lacks (or None)."""
        from compiler.engine.elsewhere import absent_action
        return absent_action(self, text)

    def _base(self) -> Rules:
        """The rules with the default seating, which keep every other seating made."""
        return getattr(self, "_parent", None) or self

    def start(self, players: int, seed: int | None = None,
              stacks: list[list[str]] | None = None,
              seats: list[str] | None = None, setup: list[str] | None = None) -> Position:
        rules = self.table(players, seats)
        return Position.start(rules, players, seed, stacks, setup)

    def table(self, players: int, seats: list[str] | None = None) -> Rules:
        """These rules seated for a table of `players`: the seats given, else (a team game)
        the teams seated in turn, else the first seats declared."""
        if seats is None and self.seating is None:
            # A team game seats its teams in turn by default (see `Game.team_seating`).
            seats = list(self.game.team_seating(players) or ()) or None
        return self.seated(seats) if seats else self


class Position:
    __slots__ = ("rules", "state", "_listing")

    def __init__(self, rules: Rules, state: State, listing: Listing | None = None) -> None:
        self.rules = rules
        self.state = state
        # The legal moves here, as far as they were found: the move that led here
        # started it (`turns.advance`); None until someone asks.
        self._listing = listing
        if state.memo is None:  # a position's state stands still: what is read of it is kept
            state.memo = {}

    @property
    def game(self) -> Game:
        return self.rules.game

    # ------------------------------------------------------------ set-up

    @classmethod
    def start(cls, rules: Rules, players: int, seed: int | None = None,
              stacks: list[list[str]] | None = None, setup: list[str] | None = None
              ) -> Position:
        """A new game. Stacks are given top first, or shuffled from `seed`.

        `setup` lists what chance decided while the game was set up, in order,
        if its rules shuffle, draw or roll then (a record keeps it in its
        `Setup` tag): given, it is all the set-up may use. Not given, `seed`
        decides it, and without a seed a set-up that needs chance raises
        `ValueError` saying what is missing. `set_up` also returns the outcomes used.
        """
        return cls.set_up(rules, players, seed, stacks, setup)[0]

    @classmethod
    def set_up(cls, rules: Rules, players: int, seed: int | None = None,
               stacks: list[list[str]] | None = None, setup: list[str] | None = None,
               sampler: random.Random | None = None) -> tuple[Position, tuple[str, ...]]:
        """A new game and what chance decided in its set-up, in order (for the record's
        `Setup` tag). `sampler` decides what `setup` does not say (random play); without
        one, a seed decides it unless `setup` is given."""
        game = rules.game
        rs = rules.ruleset
        if not rs.players_min <= players <= rs.players_max:
            raise ValueError(f"{rs.title or rs.id} is for {rs.player_counts} players, "
                             f"not {players}")
        problem = game.seating_problem(players)
        if problem:
            raise ValueError(problem)
        st = State(players)
        row = game.supply_table.rows.get(players, {}) if game.supply_table else {}
        st.supply = [dict(row) for _ in range(players)]
        for res in game.resources.values():
            if res.limit is not None:
                st.pool[res.id] = res.limit
        if stacks is None:
            cards = sorted(game.catalogue.card_faces)
            random.Random(seed).shuffle(cards)
            decl = game.stacks_zone
            sets = decl.dealt_from.get(players) if decl else None
            if sets:  # only these sets' tiles are shuffled in (one box of two, say)
                cards = [c for c in cards if game.tile_set.get(c) in sets]
            dealt = decl.dealt.get(players) if decl else None
            if dealt is not None:
                cards = cards[:dealt]  # the rest stay in the box
            piles = zones.split(cards, game.zones[STACKS[0]].piles)
        else:
            problem = stacks_problem(game, stacks)
            if problem:
                raise ValueError(problem)
            piles = tuple(tuple(reversed(s)) for s in stacks)
        zones.set_up(st, game.zones)
        home = zone_play.start_zone(game)
        if home is not None and (stacks is None or not any(stacks)):
            # The cards start in a zone of their own (`cards start in box`): the stacks stay
            # empty, and the rules deal from there.
            have = zone_json.copies(game)
            zones.set_piles(st, home.key(), [[c for c in sorted(have) for _ in range(have[c])]])
        else:
            st.zones[STACKS] = piles
        env = Env(game, st)
        env.chance = list(setup or ())
        if sampler is None and setup is None and seed is not None:
            sampler = random.Random(seed)
        env.sampler = sampler
        try:
            start_game(env)
            enter_step(env)
            listing = advance(env)
        except ChanceError as e:
            # A move's outcomes follow its `!`; the set-up's are listed on their own.
            said = str(e).replace(" after `!`", "")
            raise ValueError(f"the set-up of the game leaves something to chance: {said} (what "
                             f"chance decides at the set-up is given in order: a record's "
                             f"[Setup \"…\"] tag, an example's `start setup \"…\"`)") from None
        except RuleError as e:
            raise ValueError(f"the rules cannot set up this game: {e}") from None
        if env.chance:
            raise ValueError(f"the set-up was given more chance outcomes than it uses: "
                             f"{' '.join(env.chance)} left over")
        return cls(rules, st, _kept(st, listing)), tuple(env.drawn)

    # ----------------------------------------------------------- queries

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def active(self) -> int:
        """The player to decide now (the active player, unless a choice was granted out of turn)."""
        return self.state.turn.actor

    def scores(self) -> dict[str, int]:
        g = self.game
        return {g.seat_id(p): self.state.player_res[p].get(g.score, 0)
                for p in range(self.state.players)}

    def winners(self) -> list[str]:
        return [self.game.seat_id(w) for w in (self.state.winners or ())]

    def situation(self) -> Situation:
        st, g = self.state, self.game
        step = g.steps[st.turn.step]
        out_of_turn = st.turn.actor != st.turn.active and not st.finished
        together = simultaneous.choosing_at_once(g, st)
        return Situation(turn=st.turn.number, player=g.seat_id(st.turn.actor), step=step.id,
                         finished=st.finished, scores=self.scores(),
                         player_name=g.seat_name(st.turn.actor), step_title=step.title,
                         turn_of=g.seat_name(st.turn.active) if out_of_turn else None,
                         at_once=[g.seat_name(p) for p in together.seats] if together else [],
                         still_to_choose=[g.seat_name(p) for p in together.still]
                         if together else [],
                         every_player=together.everyone if together else False)

    def view(self, seat: int | str) -> Position:
        """The table as the player at `seat` (an index or a seat id) sees it: every card they
        cannot see is unknown (engine/views.py). An ordinary position: it lists moves,
        judges them and serialises."""
        from compiler.engine.views import seat_of, view_state
        return Position(self.rules, view_state(self.game, self.state,
                                               seat_of(self.game, self.state.players, seat)))

    def audit(self) -> list[AuditFinding]:
        """Every breach the ruleset's audits find here, each with its rule and where it is:
        audits in declaration order, then their breaches, then each collection's order."""
        return findings(self.rules, self.state)

    def legal_moves(self) -> list[Move]:
        moves = Move.all_listed(self._listed().all())
        if moves and not must_act(self.game, self.state):
            moves.append(Move("pass"))
        return moves

    def listed_moves(self) -> ListedMoves:
        """`legal_moves`, in the same order, each move made only when asked for (random
        play draws one of hundreds: see `ListedMoves`)."""
        return ListedMoves(self._listed().all(), not must_act(self.game, self.state))

    def _listed(self) -> Listing:
        """The legal moves here, found as far as anyone asked (kept: the state never
        changes)."""
        if self._listing is None:
            self._listing = Listing(self.game, self.state)
        return self._listing

    def notation(self, move: Move) -> str:
        return self.rules.notation.format(self.state, move)

    def parse(self, text: str) -> Move:
        return self.rules.notation.parse(self.state, text)

    # ---------------------------------------------------------- judging

    def adjudicate(self, moves: str | Move | Iterable[str | Move]) -> Ruling:
        """Judge a move, or a sequence of moves ("a; b; c"), without changing anything."""
        return self.judge(moves)[0]

    def judge(self, moves: str | Move | Iterable[str | Move]) -> tuple[Ruling, Position | None]:
        """`adjudicate`, with the position the moves lead to if they are all legal (else
        None): for whoever wants both, each move judged and carried out once."""
        items = split_moves(moves)
        pos = self
        rulings: list[MoveRuling] = []
        verdict = "LEGAL"
        for item in items:
            done = pos._judge(item)
            if not isinstance(done, Performed):
                rulings.append(done)
                verdict = done.verdict
                break
            rulings.append(done.ruling())
            pos = done.after
        view = self.state.view
        guessed = any(mr.depends_on_unseen for mr in rulings)
        ruling = Ruling(ruleset=self.rules.ruleset.id, verdict=verdict,  # type: ignore[arg-type]
                        moves=rulings, before=self.situation(),
                        after=pos.situation() if verdict == "LEGAL" and not guessed else None,
                        view=self.game.seat_id(view) if view is not None else None,
                        view_name=self.game.seat_name(view) if view is not None else None)
        return ruling, pos if verdict == "LEGAL" else None

    def apply(self, moves: str | Move | Iterable[str | Move]) -> Position:
        pos = self
        for item in split_moves(moves):
            pos = pos.perform(item).after
        return pos

    def play(self, move: str | Move, chance: random.Random | None = None
             ) -> tuple[Position, MoveRuling]:
        """Apply one move and return the new position with its ruling (consequences included).

        `chance`, if given, decides any random outcome the move needs and was
        not given (random play); the ruling's move text records what came up.
        Raises `IllegalMove` if the move is not legal here.
        """
        # Recorded as it is carried out: its ruling is written at once, and a move performed
        # unrecorded would be carried out a second time to write it.
        done = self.perform(move, chance, record=True)
        return done.after, done.ruling()

    def perform(self, move: str | Move, chance: random.Random | None = None, *,
                record: bool = False) -> Performed:
        """`play` whose ruling is written only when asked (`ruling()`): for random play,
        benchmarks and simulations, which need only the next position (`after`) and what
        chance decided (`chance`). Raises `IllegalMove`, with the full ruling, if the move
        is not legal here.

        The move is carried out without noting what a ruling is made of (the definitions
        that took effect, how each amount was reached) unless `record` says so: whoever
        then asks for its ruling, its consequences or the rules that decided it has the
        move carried out again from here, recording, with what chance decided the first
        time (the same move, to the letter). `record` is for callers that read those of
        every move (a simulation counting the rules that apply)."""
        done = self._judge(move, chance, record)
        if not isinstance(done, Performed):
            raise IllegalMove(Ruling(ruleset=self.rules.ruleset.id, verdict=done.verdict,
                                     moves=[done], before=self.situation()))
        return done

    def end_game(self, decided: list[str] | None = None) -> tuple[Position, list[Effect]]:
        """Run the end of the game now, whatever is left to play (for worked examples).
        `decided` receives the rules that ran and changed nothing (an effect that brought
        0 points): a worked example may be about them.

        Raises `GameEndRefused`, saying why, if the game is already over (its end was
        scored once: a second end would score it twice) or if its end cannot be run here
        (it needs chance, which nothing here decides, or the rules cannot carry it out)."""
        game = self.game
        if self.state.finished:
            raise GameEndRefused(f"the game is already over{_by(game, game.end_rule)}: its "
                                 f"end was scored once, and ending it again would score it "
                                 f"twice")
        st = self.state.clone()
        env = Env(game, st)
        env.trace = []
        try:
            end_game(env)
        except ChanceError as e:
            raise GameEndRefused(f"the end of the game leaves something to chance{_by(game, e.rule)}"
                                 f", and nothing here says what it decided: {e}; play the game "
                                 f"to its end instead, where the last move carries the outcome "
                                 f"after `!`") from None
        except RuleError as e:
            raise GameEndRefused(f"the rules cannot carry out the end of the game: {e}") from None
        st.gone.clear()
        if decided is not None:
            decided += [r for r in env.decided if r not in decided]
        return Position(self.rules, st), [self.rules.effect(c) for c in env.log]

    def _judge(self, item: str | Move, sampler: random.Random | None = None,
               record: bool = True) -> Performed | MoveRuling:
        """The move carried out, or the ruling that refuses it."""
        game, st = self.game, self.state
        try:
            move = item if isinstance(item, Move) else self.parse(item)
        except NotThere as e:
            # A well-formed move naming something not on the table: the rule that
            # needed the thing (the `choose` of that parameter) refuses it.
            action = game.actions[e.action]
            param = next((p for p in action.params if p.name == e.param), None)
            rule = (param.rule if param else None) or action.rule
            return self._refuse(item, action, [Breach(rule=self.rules.cite(rule), code="domain",
                                                      message=str(e))])
        except NotationError as e:
            text = str(item)
            absent = self.rules.absent(text)
            if absent is not None:  # a move of an action this ruleset does not have
                return MoveRuling(move=text, verdict=absent[0], breaches=[absent[1]])
            return MoveRuling(move=text, verdict="UNREADABLE", breaches=[Breach(
                rule=None, code="notation", message=str(e), detail=e.detail)])
        if st.finished:
            return self._refuse(item, None, [Breach(rule=self.rules.cite(game.end_rule),
                                                    code="game-over", message="the game is over")])
        step = game.steps[st.turn.step]
        if move.seat is not None and move.seat != st.turn.actor:
            # Everyone choosing at once: anyone who has not chosen may choose first.
            ahead = simultaneous.bring_forward(game, st, move.seat)
            if isinstance(ahead, State):
                return Position(self.rules, ahead)._judge(item, sampler, record)
            if isinstance(ahead, simultaneous.AlreadyChosen):
                return self._refuse(item, game.actions.get(move.action), [Breach(
                    rule=self.rules.cite(ahead.rule), code="unavailable",
                    message=ahead.message)])
            # A step taken in a declared order of play is decided by that order's rule.
            order = game.turn_rules.orders.get(step.order) if step.order and \
                move.seat in st.turn.queue else None
            return self._refuse(item, game.actions.get(move.action), [Breach(
                rule=self.rules.cite(order.rule if order and order.rule else step.rule),
                code="unavailable", message=self._not_theirs(move.seat))])
        if move.action == "pass":
            forced = [g for g in st.turn.grants if g.must and
                      (st.turn.principal if g.player is None else g.player) == st.turn.actor]
            if forced and self._listed().any():
                said = " or ".join(game.actions[a].decl.title for a in forced[0].actions)
                return self._refuse(item, None, [Breach(
                    rule=self.rules.cite(forced[0].rule), code="must-act",
                    message=f"{game.seat_name(st.turn.actor)} must first {said}: "
                            f"this choice cannot be declined")])
            if must_act(game, st) and self._listed().any():
                rule, message = self._must_first()
                return self._refuse(item, None, [Breach(
                    rule=self.rules.cite(rule), code="must-act", message=message)])
            return self._perform(item, None, STEP_SOURCE, {}, move.chance, sampler, {}, record)
        action = game.actions[move.action]
        offers = [(src, fixed) for a, src, fixed in offered(game, st) if a.id == action.id]
        if not offers:
            # Not open in this step; say also what the action's own rules say of
            # the move, which is usually why the step has moved on. When the
            # decision is someone else's first, say only that.
            pending = self._pending_grant()
            also = [] if pending is not None else \
                [self._breach(action, v) for v in check(game, st, action, dict(move.values))]
            return self._refuse(item, action, [Breach(
                rule=self.rules.cite(step.rule), code="unavailable",
                message=self._not_now(action))] + self._granted_instead(action) + also)
        best: list[Violation] | None = None
        # Where the listing of this position's moves found this one legal first: that
        # source's check would pass (the check of its rules waits for the ruling).
        listed = self._listing.source(action.id, move.args) if self._listing else None
        for src, fixed in offers:
            values = dict(move.args)  # (move.values, without a dict made to be copied)
            if fixed:  # (most offers fix nothing)
                if any(k in values and values[k] != v for k, v in fixed.items()):
                    continue
                values.update(fixed)
            if src == listed:
                return self._perform(item, action, src, values, move.chance, sampler, None,
                                     record)
            cites: dict[str, None] = {}
            found = check(game, st, action, values, cites)
            if not found:
                return self._perform(item, action, src, values, move.chance, sampler, cites,
                                     record)
            if best is None or len(found) < len(best):
                best = found
        if best is None:
            return self._refuse(item, action, [Breach(
                rule=self.rules.cite(action.rule), code="unavailable",
                message=f"“{action.decl.title}” is granted only for something else here")])
        return self._refuse(item, action, [self._breach(action, v) for v in best])

    def _granted_instead(self, action: CompiledAction) -> list[Breach]:
        """The rules whose grants are open now but do not offer `action` (say, the
        extra actions a bonus gives): they decide what may still be done."""
        st, out = self.state, []
        for rid in dict.fromkeys(g.rule for g in st.turn.grants
                                 if g.rule and action.id not in g.actions
                                 and (g.player if g.player is not None else st.turn.principal)
                                 == st.turn.actor):
            titles = sorted({self.game.actions[a].decl.title for g in st.turn.grants
                             if g.rule == rid for a in g.actions})
            out.append(Breach(rule=self.rules.cite(rid), code="unavailable",
                              message=f"“{action.decl.title}” is not among what it allows now: "
                                      f"{', '.join(titles)}"))
        return out

    def _pending_grant(self) -> Grant | None:
        """The choice that must be made before anything else, or that another player makes
        out of turn, if there is one: it decides what is open now."""
        st = self.state
        actor = st.turn.actor
        for g in st.turn.grants:
            holder = g.player if g.player is not None else st.turn.principal
            if holder == actor and (g.must or actor != st.turn.principal):
                return g
        return None

    def _must_first(self) -> tuple[str | None, str]:
        """Why passing is refused: the rule that requires a decision, and what it is."""
        g, st = self.game, self.state
        step = g.steps[st.turn.step]
        pending = self._pending_grant()
        actor = g.seat_name(st.turn.actor)
        if pending is not None and pending.must:
            said = " or ".join(g.actions[a].decl.title for a in pending.actions)
            return pending.rule or step.rule, f"{actor} must {said} before play goes on"
        return step.rule, f"in step “{step.title}” {actor} must take an action before passing"

    def _not_now(self, action: CompiledAction) -> str:
        """Why an action is not open: whose decision it is, in which step, and what is open."""
        g, st = self.game, self.state
        step = g.steps[st.turn.step]
        titles = sorted({a.decl.title for a, _, _ in offered(g, st)})
        open_now = " or ".join(titles)
        actor = g.seat_name(st.turn.actor)
        said = f"“{action.decl.title}” is not possible now: "
        pending = self._pending_grant()
        verb = "must" if pending is not None and pending.must else "may"
        if st.turn.actor != st.turn.principal:
            return said + (f"it is {actor}’s decision first, out of {g.seat_name(st.turn.principal)}’s "
                           f"turn {st.turn.number}: {actor} {verb} {open_now}" if open_now else
                           f"it is {actor}’s decision first")
        if pending is not None and pending.must:
            return said + f"{actor} must first {open_now}"
        if st.turn.phase != "step":  # the steps are over: a choice granted at the end is open
            rnd = g.turn_rules.round
            end = f"{rnd.title} {st.turn.round}" if st.turn.phase == "round_end" and rnd \
                else f"turn {st.turn.number}"
            return said + f"the steps of turn {st.turn.number} are over, and at the end of " \
                          f"{end} {actor} may {open_now or 'nothing more'}"
        said += f"it is {actor}’s turn {st.turn.number}, step “{step.title}”"
        return said + (f", where {actor} may {open_now}" if open_now else "")

    def _not_theirs(self, seat: int) -> str:
        """Why a move named for `seat` is refused: the decision is someone else's now."""
        g, st = self.game, self.state
        who, actor = g.seat_name(seat), g.seat_name(st.turn.actor)
        step = g.steps[st.turn.step]
        if seat in st.turn.queue:
            return (f"{who} takes step “{step.title}” after {actor}, who decides now "
                    f"(still to take it, in order: "
                    f"{', '.join(g.seat_name(p) for p in st.turn.queue)})")
        if st.turn.queue or st.turn.phase != "step":
            return f"it is {actor}’s decision now, not {who}’s"
        return f"it is {actor}’s decision now, in {g.seat_name(st.turn.principal)}’s turn " \
               f"{st.turn.number}, not {who}’s"

    def _breach(self, action: CompiledAction, v: Violation) -> Breach:
        """A broken rule in words: the author's message first, else what failed here.

        The reason names the pieces and tiles of this position (see
        `compiler.engine.explain`); the rule as written is the last resort.
        """
        eng = self.rules.english
        rule = self.rules.cite(v.rule)
        if v.code == "domain":
            p = v.node
            written = f"the {p.name.replace('_', ' ')} must be one of {eng.collection(p.domain)}"
        elif v.code == "requirement":
            written = f"the rule requires that {eng(v.node)}"
        elif v.code == "forbidden":
            f = v.node
            written = f"{eng.v.one(f.kind)} may not go where {eng(f.cond)}"
        else:
            written = v.message
        msg = v.message or v.detail or written
        detail = v.detail if v.message else None
        also = [c for r in v.because if r != v.rule and (c := self.rules.cite(r)) is not None]
        return Breach(rule=rule, code=v.code, message=msg, detail=detail,  # type: ignore[arg-type]
                      also=also)

    def _refuse(self, item: str | Move, action: CompiledAction | None, breaches: list[Breach]
                ) -> MoveRuling:
        return MoveRuling(move=item if isinstance(item, str) else self.notation(item),
                          verdict="ILLEGAL", action=action.id if action else None,
                          action_rule=self.rules.cite(action.rule) if action else None,
                          breaches=breaches)

    def _perform(self, item: str | Move, action: CompiledAction | None, source: int,
                 values: dict[str, Any], chance: tuple[str, ...],
                 sampler: random.Random | None, checked: dict[str, None] | None,
                 record: bool = True) -> Performed | MoveRuling:
        """Carry out a move found legal (`checked`: the rules of the conditions its check
        found true, None if it was listed as legal here and not checked again), `record`ing
        what its ruling is made of or not (see `perform`). A view records always: what a
        move there reads of the unseen is noted on its state as the move is recorded."""
        game = self.game
        st = self.state.clone()
        env = Env(game, st)
        if chance:  # (an Env starts with none)
            env.chance = list(chance)
        env.sampler = sampler
        record = record or st.view is not None
        held: dict[str, None] | None = None
        if record:
            env.cites = held = {}  # conditions that held decide too
            env.trace = []
        try:
            if action is None:
                if st.turn.actor != st.turn.principal:
                    decline(env)
                else:
                    lapse(env, st.turn.grants, "declined")
                    move_on(env)
            else:
                if source == STEP_SOURCE:
                    st.turn = st.turn.but(taken=st.turn.taken + 1)
                elif source >= 0:
                    st.turn = st.turn.but(grants=_use_grant(st.turn.grants, source))
                env.action = action.id
                env.vars = dict(values)
                action.effects(env)
                env.vars = {}
                drain(env)
                env.action = None
            env.cites = None
            listing = advance(env)
        except ChanceError as e:  # cited by the rule that called on chance, if it is known
            return self._refuse(item, action, [Breach(
                rule=self.rules.cite(e.rule or (action.rule if action else None)),
                code="chance", message=str(e))])
        except RuleError as e:
            return self._refuse(item, action, [Breach(
                rule=self.rules.cite(action.rule if action else None), code="impossible",
                message=f"the rules cannot carry this out: {e}")])
        if env.chance:
            return self._refuse(item, action, [Breach(
                rule=None, code="chance",
                message=f"the move was given more chance outcomes than it uses: "
                        f"{' '.join(env.chance)} left over")])
        return Performed(before=self, after=Position(self.rules, st, _kept(st, listing)),
                         action=action, source=source, values=values, checked=checked,
                         chance=tuple(env.drawn), table_chance=tuple(env.table_drawn()),
                         recorded=None if held is None else Recorded(
                             held, env.log or [], [*env.decided, *(env.trace or ())],
                             env.guessed_at))


def _kept(st: State, listing: Listing | None) -> Listing | None:
    """Forget the pieces a move took off the table (`gone`: they are remembered only while
    the move runs), and keep the listing `advance` started, unless it started while
    they were still remembered."""
    if st.gone:
        st.gone.clear()
        return None
    return listing


def stacks_problem(game: Game, stacks: list[list[str]]) -> str | None:
    """Why these stacks (top first) cannot be the game's, or None: every tile is one of the
    game's, and none is in them twice."""
    count = game.zones[STACKS[0]].piles
    if len(stacks) != count:
        return f"the game is played with {count} stack{'s' if count != 1 else ''} of tiles, " \
               f"not {len(stacks)}"
    seen: set[str] = set()
    for i, stack in enumerate(stacks):
        for card in stack:
            where = f"stack {i + 1}" if count > 1 else "the stack"
            if card not in game.catalogue.card_faces:
                from compiler.diagnostics import did_you_mean
                hint = did_you_mean(card, game.catalogue.card_faces)
                shown = card if len(card) <= 20 else card[:19] + "…"
                return f"{where} lists `{shown}`, which is not a tile of this game" + \
                    (f" ({hint})" if hint else "")
            if card in seen:
                return f"{where} lists {card} a second time; every tile is in the stacks once"
            seen.add(card)
    return None


def _use_grant(grants: tuple[Grant, ...], i: int) -> tuple[Grant, ...]:
    g = grants[i]
    if g.remaining > 1:
        used = replace(g, remaining=g.remaining - 1)
        return grants[:i] + (used,) + grants[i + 1:]
    return grants[:i] + grants[i + 1:]


def split_moves(moves: str | Move | Iterable[str | Move]) -> list[str | Move]:
    """The moves of a sequence "a; b; c". A final `;` is allowed; an empty move is not
    (it is kept, and read as unreadable, rather than silently dropped)."""
    if isinstance(moves, Move):
        return [moves]
    if isinstance(moves, str):
        parts = [p.strip() for p in moves.split(";")]
        if len(parts) > 1 and not parts[-1]:
            parts.pop()
        out: list[str | Move] = []
        for part in parts:  # a table decision `! …` adds its outcomes to the move before it
            outcomes = chance.table_outcomes(part)
            if outcomes and out and isinstance(out[-1], str):
                out[-1] = chance.with_table(out[-1], outcomes)
            else:
                out.append(part)
        return out
    return list(moves)


__all__ = ["ALSO_SOURCE", "GameEndRefused", "IllegalMove", "Position", "Rules", "split_moves"]
