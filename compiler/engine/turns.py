"""The turn: steps in order, what each allows, and moving on when nothing is left to decide.

A step is `must one of` (exactly one action), `may one of` (at most one),
`may any of` (any number) or `automatic` (none). `also` actions may be taken
any number of times without using up the step. Granted actions (a trade
a bonus space's extra actions, taking pieces back) are offered until used or
until the step ends.

After every move the engine advances by itself until someone has a real
decision to make: a step with nothing legal to do is left (a compulsory one
is skipped, and the log says so), deferred triggers run when their step
begins, and the turn, then the game, end when their time comes.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any

from compiler.engine import simultaneous
from compiler.engine.actions import CompiledAction, Placements, candidate_batches, listing_env
from compiler.engine.effects import _third_person, drain, note, run_pending, run_trigger
from compiler.engine.evaluate import Env, RuleError
from compiler.engine.lazy import LazySequence
from compiler.engine.standings import Standings
from compiler.engine.state import State
from compiler.ir.english import counted

if TYPE_CHECKING:
    from compiler.engine.game import Game

PASS = "pass"
STEP_SOURCE = -1   # the step's own list
ALSO_SOURCE = -2   # the step's `also` list


def offered(game: Game, st: State) -> list[tuple[CompiledAction, int, dict[str, Any]]]:
    """(action, source, fixed parameters) for every action open now.

    Source is STEP_SOURCE, ALSO_SOURCE or the index of the grant that allows it.
    """
    if st.finished:
        return []
    step = game.steps[st.turn.step]
    turn = st.turn
    if not turn.grants:  # nothing granted (most of the time): the step's actions, or none
        if step.mode == "automatic" or turn.phase != "step" or \
                (step.mode in ("must_one", "may_one") and turn.taken >= 1):
            return []
        return _step_offers(game, turn.step)
    out = []
    actor = turn.actor
    forced = [(i, g) for i, g in enumerate(st.turn.grants)
              if g.must and _holder(g, st) == actor]
    if forced:  # a choice that must be made comes before anything else
        for i, g in forced:
            fixed = {k: _resolve(st, v) for k, v in g.bindings}
            out += [(game.actions[a], i, fixed) for a in g.actions]
        return out
    if actor != turn.principal:  # someone else decides first; only their grants are open
        for i, g in enumerate(st.turn.grants):
            if g.player == actor:
                fixed = {k: _resolve(st, v) for k, v in g.bindings}
                out += [(game.actions[a], i, fixed) for a in g.actions]
        return out
    full = step.mode in ("must_one", "may_one") and turn.taken >= 1
    # Between turns (a decision granted at the end of a turn) only the grants are open.
    if step.mode != "automatic" and not full and turn.phase == "step":
        # `also` actions stand beside the step's own, without using it up.
        out += _step_offers(game, turn.step)
    for i, g in enumerate(st.turn.grants):
        fixed = {k: _resolve(st, v) for k, v in g.bindings}
        out += [(game.actions[a], i, fixed) for a in g.actions]
    return out


def _step_offers(game: Game, index: int) -> list[tuple[CompiledAction, int, dict[str, Any]]]:
    """The step's own actions, then its `also` actions, as `offered` gives them: the same
    for every turn, so made once per step and game (not to be changed)."""
    kept = game.step_offers.get(index)
    if kept is None:
        step = game.steps[index]
        kept = game.step_offers[index] = \
            [(game.actions[a], STEP_SOURCE, {}) for a in step.actions] + \
            [(game.actions[a], ALSO_SOURCE, {}) for a in step.also]
    return kept


def _drop_lost_grants(st: State) -> None:
    """A grant made for a piece that has since left the board lapses (say, a choice
    offered for a pawn that was captured before it was made). (`advance` asks only when
    something is granted.)"""
    from compiler.engine.effects import refers_to_lost_piece
    if any(refers_to_lost_piece(st, v) for g in st.turn.grants for _, v in g.bindings):
        st.turn = st.turn.but(grants=tuple(
            g for g in st.turn.grants
            if not any(refers_to_lost_piece(st, v) for _, v in g.bindings)))


def lapse(env: Env, grants: Iterable[Any], why: str) -> None:
    """Say that granted choices went unused, so a ruling never loses one silently:
    "Blue lets pass the choice to fish" (declined), or "… lapses, as
    nothing legal is left to choose"."""
    game, st = env.game, env.state
    for g in grants:
        if g.remaining <= 0:
            continue
        who = game.seat_name(_holder(g, st))
        said = " or ".join(_third_person(game.actions[a].decl.title) for a in g.actions)
        if g.remaining > 1 or len(g.actions) > 3:  # "up to 2 more actions: …" was said
            text = f"{who} lets pass {counted(g.remaining, 'more action', 'more actions')}"
            if why != "declined":
                text += ", as nothing legal is left to do"
        elif why == "declined":
            text = f"{who} lets pass the choice to {said}"
        else:
            text = f"{who}’s {'obligation' if g.must else 'choice'} to {said} lapses, as " \
                   f"nothing legal is left to choose"
        note(env, "lapsed", g.rule, text, actions=list(g.actions), player=game.seat_id(
            _holder(g, st)))


def _holder(g: Any, st: State) -> int:
    """The player a grant belongs to."""
    return g.player if g.player is not None else st.turn.principal


def _resolve(st: State, v: Any) -> Any:
    from compiler.engine.effects import from_ref
    return from_ref(st, v)


def _listed(game: Game, st: State, sources: dict[tuple[str, tuple[Any, ...]], int],
            runs: list[tuple[int, str, Placements, int]],
            offers: list[tuple[CompiledAction, int, dict[str, Any]]]) -> Iterator[None]:
    """Put every legal move of `offers` into `sources`, in order, as (action, values sorted
    by name) -> the source it was found legal in first (a move's own form: listing moves
    needs it, and the duplicates are found by it, so it is made once), or, for tile
    placements (`Placements`: their keys are made only when asked for, and no two are the
    same), into `runs` whole (see `Listing`). Pausing after each batch of candidates, so
    whoever needs only the first move stops there. (Given the listing's containers, not
    the listing: a generator holding its listing would keep both alive until the
    collector found the cycle.)"""
    env = None
    listed: set[str] = set()  # the actions offered so far (by the step, or a grant)
    for action, source, fixed in offers:
        aid = action.id
        if env is None:  # one for every action listed here
            env = listing_env(game, st)
        again = aid in listed  # offered twice: a move found before keeps its first source
        listed.add(aid)
        for batch in candidate_batches(game, st, action, fixed, env):
            if again:
                for items in batch:
                    if _found(sources, runs, aid, items) is None:
                        sources[(aid, items)] = source
            elif type(batch) is Placements:  # (not isinstance: an ABC's check is slow)
                if batch:
                    runs.append((len(sources), aid, batch, source))
            else:  # no move of this action is listed yet: all of them at once
                sources.update(zip(zip(repeat(aid), batch), repeat(source)))
            yield


def must_act(game: Game, st: State) -> bool:
    turn = st.turn  # (read once: asked at every decision)
    actor = turn.actor
    if turn.grants and any(g.must and _holder(g, st) == actor for g in turn.grants):
        return True
    if actor != turn.principal or turn.phase != "step":
        return False  # a choice granted out of turn, or between turns, may be declined
    return turn.taken == 0 and game.steps[turn.step].mode == "must_one"


class Listing:
    """The legal moves of one state, found only as far as someone asked, and kept.

    `advance` starts one to learn whether the player deciding has anything legal to do,
    and the position it leads to keeps it: listing that position's moves goes on from
    where `advance` stopped rather than finding the first ones again, and a move found
    here need not be checked again before it is carried out. A position's state never
    changes, so what was found stays true. Only each move's key and source are kept
    (a record keeps every position of a game: more would weigh on the collector), and
    tile placements only as their groups (`Placements`).
    """

    __slots__ = ("_rest", "_sources", "_runs")

    def __init__(self, game: Game, st: State,
                 offers: list[tuple[CompiledAction, int, dict[str, Any]]] | None = None) -> None:
        """`offers`: what `offered` gives for `st`, if the caller has it already."""
        # (action, values sorted by name) -> where it was found legal first, in order found
        self._sources: dict[tuple[str, tuple[Any, ...]], int] = {}
        # Tile placements, each run whole: (how many of `_sources` were found before it,
        # action, placements, source)
        self._runs: list[tuple[int, str, Placements, int]] = []
        self._rest: Iterator[None] | None = _listed(
            game, st, self._sources, self._runs, offered(game, st) if offers is None else offers)

    def any(self) -> bool:
        """Whether anything is legal (finding the first moves, if none was found yet)."""
        while not self._sources and not self._runs:
            if self._rest is None or next(self._rest, False) is False:
                self._rest = None
                return False
        return True

    def all(self) -> Sequence[tuple[str, tuple[Any, ...]]]:
        """Every legal move as (action, values sorted by name), in the order found (a new
        list, or `Keys` where tile placements were listed)."""
        if self._rest is not None:
            for _ in self._rest:
                pass
            self._rest = None
        found = list(self._sources)
        if not self._runs:
            return found
        parts: list[Sequence[tuple[str, tuple[Any, ...]]]] = []
        at = 0
        for before, aid, run, _ in self._runs:
            if before > at:
                parts.append(found[at:before])
            parts.append(_Tagged(aid, run))
            at = before
        if at < len(found):
            parts.append(found[at:])
        return Keys(parts)

    def source(self, action: str, items: tuple[Any, ...]) -> int | None:
        """Where the move (`action` with `items`, its values sorted by name) was found legal
        first: the step, its `also` list or a grant (see `offered`). None if it was not, or
        if the listing is not complete: completing it costs more than checking one move."""
        if self._rest is not None:
            return None
        return _found(self._sources, self._runs, action, items)


def _found(sources: dict[tuple[str, tuple[Any, ...]], int],
           runs: list[tuple[int, str, Placements, int]], action: str, items: tuple[Any, ...]
           ) -> int | None:
    """The source of a move among those listed so far (see `Listing.source`)."""
    src = sources.get((action, items))
    if src is None:
        for _, aid, run, source in runs:
            if aid == action and items in run:
                return source
    return src


class _Tagged(Sequence[tuple[str, tuple[Any, ...]]]):
    """A run of tile placements as the listing gives its moves: (action, key)."""

    __slots__ = ("_aid", "_run")

    def __init__(self, aid: str, run: Placements) -> None:
        self._aid, self._run = aid, run

    def __len__(self) -> int:
        return len(self._run)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [(self._aid, k) for k in self._run[i]]
        return (self._aid, self._run[i])

    def __iter__(self) -> Iterator[tuple[str, tuple[Any, ...]]]:
        return zip(repeat(self._aid), self._run)


class Keys(LazySequence[tuple[str, tuple[Any, ...]]]):
    """A listing's moves as (action, values sorted by name), in order: its parts one after
    another, each read only where asked (a run of placements makes only the key drawn)."""

    __slots__ = ("_parts", "_starts", "_len")

    def __init__(self, parts: list[Sequence[tuple[str, tuple[Any, ...]]]]) -> None:
        self._parts = [p for p in parts if p]
        starts, total = [], 0
        for p in self._parts:
            starts.append(total)
            total += len(p)
        self._starts, self._len = starts, total

    _missing = "no legal move of that index"

    def __len__(self) -> int:
        return self._len

    def _item(self, i: int) -> tuple[str, tuple[Any, ...]]:
        if len(self._parts) == 1:
            return self._parts[0][i]
        k = bisect.bisect_right(self._starts, i) - 1
        return self._parts[k][i - self._starts[k]]

    def __iter__(self) -> Iterator[tuple[str, tuple[Any, ...]]]:
        return chain.from_iterable(self._parts)


# ------------------------------------------------------------------ moving on


# How many turns may pass with nobody having anything to decide before the game is
# judged stuck. Generous (a game may run a few turns of automatic steps only), but
# finite: rules whose end never comes while nobody can act must not hang the engine.
STALLED_TURNS = 200


def advance(env: Env) -> Listing | None:
    """Leave steps, turns and finally the game until a player has a decision.

    Returns the listing of moves that found the decision (started, for whoever lists the
    moves to go on with), or None when the game ended. Raises `RuleError` when turn after
    turn passes with nobody able to decide anything and the game never ends (the rules
    leave it stuck), rather than going round forever.
    """
    game, st = env.game, env.state
    entered = st.turn.number
    while not env.state.finished:
        st = env.state
        if st.turn.number - entered > STALLED_TURNS:
            raise RuleError(f"the game is stuck: {STALLED_TURNS} turns passed with nobody "
                            f"able to do anything legal, and the end of the game never came")
        if st.turn.grants:  # (most of the time nothing is granted: nothing can be lost)
            _drop_lost_grants(st)
        if st.turn.groups and simultaneous.settle_groups(env):
            continue  # the last of the choices made together: what follows them ran
        offers = offered(game, st)
        if offers:  # (most steps, once taken, offer nothing: no listing is made for them)
            listing = Listing(game, st, offers)
            if listing.any():
                return listing
        turn = st.turn
        if turn.grants:  # (most of the time nothing is granted: nothing lapses)
            lapsed = tuple(g for g in turn.grants if g.must and _holder(g, st) == turn.actor)
            if lapsed:  # a compulsory choice with nothing legal to choose lapses
                lapse(env, lapsed, "nothing legal")
                st.turn = turn.but(grants=tuple(g for g in turn.grants if g not in lapsed))
                env.me = st.turn.actor
                continue
            if turn.actor != turn.principal:
                decline(env, why="nothing legal")
                continue
        if turn.queue and _run_next_pending(env):
            continue  # the next effect this player waits for comes before moving on
        if st.turn.grants:
            lapse(env, st.turn.grants, "nothing legal")
        if st.turn.groups:  # choices granted together lapsed: what follows them runs first
            st.turn = st.turn.but(grants=())
            continue
        if env.trace is not None and must_act(game, st):  # (said only while recorded)
            step = game.steps[st.turn.step]
            note(env, "skipped", step.rule,
                 f"{game.seat_name(st.turn.principal)} can do nothing legal in step "
                 f"“{step.title}”, so it is skipped", step=step.id)
        move_on(env)


def move_on(env: Env) -> None:
    """The one deciding is done (nothing legal is left, or they passed): the next player
    in a step each player takes, else the next step, else the rest of the end of the turn."""
    if env.state.turn.groups:  # choices granted together, declined: what follows them runs
        env.state.turn = env.state.turn.but(grants=())
        simultaneous.settle_groups(env)
        if env.state.turn.grants:
            return
    turn = env.state.turn
    if turn.phase != "step":
        resume_phases(env)
    elif len(turn.queue) > 1:
        next_actor(env)
    else:
        end_step(env)


def decline(env: Env, why: str = "declined") -> None:
    """The out-of-turn player passes: their grants lapse and play goes on."""
    st = env.state
    actor = st.turn.actor
    lapse(env, [g for g in st.turn.grants if g.player == actor], why)
    st.turn = st.turn.but(grants=tuple(g for g in st.turn.grants if g.player != actor))
    env.me = st.turn.actor


def end_step(env: Env) -> None:
    game, st = env.game, env.state
    step = game.steps[st.turn.step]
    if step.at_once:  # everyone has chosen: what they chose in secret is shown together,
        # and the rules for the end of the step are the active player's, chosen openly
        st.turn = st.turn.but(grants=(), taken=0, queue=())
        env.me = st.turn.active
        simultaneous.show(env, step.rule)
    due = game.at_moment.get(("end", "step", step.id))  # (_moment, without its call: most
    if due:                                               # steps set nothing off)
        _run_moment(env, due)
    st = env.state
    turn = st.turn
    if turn.queue:  # a step each player took: the active player is "me" again
        env.me = turn.active
    # One new turn, not one per change (none when nothing changes: the next turn is made
    # whole after the last step).
    if turn.step + 1 < len(game.steps):
        st.turn = turn.but(grants=(), taken=0, queue=(), step=turn.step + 1)
        enter_step(env)
    else:
        if turn.grants or turn.taken or turn.queue:
            st.turn = turn.but(grants=(), taken=0, queue=())
        end_turn(env)


def enter_step(env: Env) -> None:
    game = env.game
    step = game.steps[env.state.turn.step]
    if step.who == "each":
        env.me = env.state.turn.active
    due = game.at_moment.get(("start", "step", step.id))  # (as in end_step)
    if due:
        _run_moment(env, due)
    if step.who == "each":
        _enter_each(env, step)
    else:
        run_pending(env, step.id)


# ------------------------------------------------- steps each player takes


def _enter_each(env: Env, step: Any) -> None:
    """A step that belongs to each player: who takes it, in what order; the rules waiting
    for the step as a whole run first, then the first player's part begins."""
    queue = env.game.turn_rules.queue(env, step)
    st = env.state
    whole = tuple(p for p in st.turn.pending if p.step == step.id and p.me is None)
    if whole:
        st.turn = st.turn.but(pending=tuple(p for p in st.turn.pending if p not in whole))
        _run_each(env, whole)
    env.state.turn = env.state.turn.but(queue=queue)
    _start_actor(env)


def next_actor(env: Env) -> None:
    """The player deciding now is done with the step: the next in the queue begins."""
    st = env.state
    st.turn = st.turn.but(queue=st.turn.queue[1:], taken=0, grants=(), placed=None)
    _start_actor(env)


def _start_actor(env: Env) -> None:
    """A player's part of the step begins: the rules they set waiting for this step run,
    one by one, until one of them gives them a decision (the rest wait for it to be made)."""
    env.me = env.state.turn.principal
    while _run_next_pending(env):
        if env.state.turn.grants:
            return


def _run_next_pending(env: Env) -> bool:
    """Run the next rule the deciding player set waiting for this step; False if none."""
    st = env.state
    step = env.game.steps[st.turn.step].id
    me = st.turn.principal
    due = next((p for p in st.turn.pending if p.step == step and p.me == me), None)
    if due is None:
        return False
    env.me = me
    st.turn = st.turn.but(pending=tuple(p for p in st.turn.pending if p is not due))
    _run_each(env, (due,))
    return True


def _run_each(env: Env, due: Iterable[Any]) -> None:
    for p in due:
        bindings = {k: _resolve(env.state, v) for k, v in p.bindings}
        run_trigger(env, env.game.triggers[p.trigger], bindings)
        drain(env)


# ------------------------------------------------------- the end of a turn


def end_turn(env: Env) -> None:
    """Leave the turn: the phases between the last step of one turn and the first of the next.

    Each phase is a function of its own, run in the order of `PHASES`: the end of the
    turn, the end of the round, whether the game is over, the next turn, the start of
    its round, the start of the turn, its first step. After the end of a turn or of a
    round, a decision the rules granted there is made before play goes on: the phase
    is kept in `Turn.phase`, and `resume_phases` carries on from it.
    """
    run_phases(env, 0)


def run_phases(env: Env, start: int) -> None:
    """Run the phases of the end of a turn from `start` on (see `PHASES`)."""
    for i in range(start, len(PHASES)):
        name, phase, pauses = PHASES[i]
        if i >= TABLE_PHASE:
            env.to_table()  # the turn is over: chance from here on is the table's
        if phase(env) is STOP:
            return
        st = env.state
        if pauses and st.turn.grants:
            st.turn = st.turn.but(phase=name)
            return


def resume_phases(env: Env) -> None:
    """The decisions granted at the end of a turn or round are made: carry on after it."""
    st = env.state
    at = next(i for i, (name, _, _) in enumerate(PHASES) if name == st.turn.phase)
    st.turn = st.turn.but(phase="step", grants=())
    env.me = st.turn.active
    run_phases(env, at + 1)


STOP = object()  # a phase returns it when nothing after it runs (the game ended)


def _turn_end(env: Env) -> object | None:
    """The rules for the end of the turn."""
    _moment(env, "end", "turn", None)
    return None


def _turn_resets(env: Env) -> object | None:
    """What is reset each turn."""
    game = env.game
    st = env.state
    names = game.turn_resets
    if names is None:  # the attributes declared to reset: the same every turn
        names = game.turn_resets = (
            frozenset(a.name for k in game.area_kinds for a in k.attributes if a.reset_each_turn),
            frozenset(a.name for a in game.player_attrs.values() if a.reset_each_turn),
            tuple(a.name for a in game.turn_rules.game_attrs.values() if a.reset_each_turn))
    resets, player_resets, game_resets = names
    if resets:
        for root, attrs in list(st.area_attrs.items()):
            if not resets.isdisjoint(attrs):
                st.area_attrs[root] = {k: v for k, v in attrs.items() if k not in resets}
    if player_resets:
        st.player_attrs = [{k: v for k, v in d.items() if k not in player_resets}
                           for d in st.player_attrs]
    if game_resets and any(k in st.game_attrs for k in game_resets):
        st.game_attrs = {k: v for k, v in st.game_attrs.items() if k not in game_resets}
    return None


def _round_end(env: Env) -> object | None:
    """After the last turn of a round, the rules for the end of the round."""
    rules = env.game.turn_rules
    if rules.round is not None and rules.last_of_round(env.state.turn):
        _moment(env, "end", "round", rules.round.id)
    return None


def _game_end(env: Env) -> object | None:
    """The game ends after this turn when its end condition holds, or with its last round."""
    game = env.game
    turn = env.state.turn
    rules = game.turn_rules
    if (game.end_cond is not None and game.end_cond(env)) or \
            (rules.last_of_round(turn) and rules.last_round(turn)):
        end_game(env)
        return STOP
    return None


def _next_turn(env: Env) -> object | None:
    """The turn passes to the next player (the next seat, unless the rules say whom)."""
    st = env.state
    rules = env.game.turn_rules
    nxt = rules.next_player(env)
    st.turn = rules.next_turn_of(st.turn, nxt)
    env.me = nxt
    return None


def _round_start(env: Env) -> object | None:
    """A new round: the rules for its start, then how many turns it has."""
    rules = env.game.turn_rules
    if rules.round is not None and env.state.turn.round_turn == 1:
        _moment(env, "start", "round", rules.round.id)
        rules.count_turns(env)
    return None


def _turn_start(env: Env) -> object | None:
    """The rules for the start of the turn."""
    _moment(env, "start", "turn", None)
    return None


def _first_step(env: Env) -> object | None:
    """The turn's first step begins."""
    enter_step(env)
    return None


# (name, phase, whether a decision granted in it is made before play goes on)
PHASES = (("turn_end", _turn_end, True), ("turn_resets", _turn_resets, False),
          ("round_end", _round_end, True), ("game_end", _game_end, False),
          ("next_turn", _next_turn, False), ("round_start", _round_start, False),
          ("turn_start", _turn_start, False), ("first_step", _first_step, False))
# From the end of the round on, the mover's turn is over: what chance decides is the
# table's (a record writes it after the move as a decision of its own, `! …`).
TABLE_PHASE = next(i for i, (name, _, _) in enumerate(PHASES) if name == "round_end")


def start_game(env: Env) -> None:
    """Run the rules for the start of the game, then those for the start of the first round
    and of the first turn."""
    _moment(env, "start", "game", None)
    # The set-up is no one's turn: what it lays is not "the tile laid this turn", has not
    # "arrived" this turn, and sets off nothing in the first turn's later steps.
    env.state.turn = env.state.turn.but(placed=None, arrived=(), pending=())
    rules = env.game.turn_rules
    if rules.round is not None:
        env.state.turn = env.state.turn.but(round=1, round_turn=1)
        _round_start(env)
    _moment(env, "start", "turn", None)


def end_game(env: Env) -> None:
    game = env.game
    note(env, "game-end", game.end_rule, "the game ends")
    _moment(env, "end", "game", None)
    st = env.state
    st.finished = True
    # Nothing is left to decide once the game is over (the clearing of the
    # board may have offered choices that no longer matter).
    st.turn = st.turn.but(grants=(), pending=())
    standings = Standings(game, st)
    st.winners = standings.winners()
    if env.trace is not None:  # recorded: said (see effects.note)
        note(env, "winner", game.winner_rule, standings.note(),
             winners=[game.seat_id(w) for w in st.winners])


def _moment(env: Env, moment: str, target: str, step: str | None) -> None:
    which = step if target in ("step", "round") else None
    due = env.game.at_moment.get((moment, target, which))
    if due:
        _run_moment(env, due)


def _run_moment(env: Env, due: Iterable[Any]) -> None:
    """Run the rules set off by a moment of the turn (`game.at_moment`), in order."""
    for trig in due:
        run_trigger(env, trig, {})
        drain(env)
