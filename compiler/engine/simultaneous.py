"""Choices made at once: `each player at once` steps, `grant … to each … at once`, and
the `secret` player attributes those choices set.

A table where everybody chooses at the same time is sequenced internally in seat order
(the step's queue, or the group's grants in order), but nothing a player chooses there
may be seen by another before everyone has chosen (the checker makes sure of it:
`compiler/check/simultaneous.py`). So the order does not matter, and anyone who has not
chosen yet may choose first: `bring_forward` puts that player at the front, and the move
is judged there. A player who has chosen is refused, citing the rule that asks for the
choice.

`legal_moves()` still lists the choices of the first seat still to choose only, as in any
step each player takes: the others' choices are the same ones made in another order, so
random play and the records it writes stay in seat order, and every move listed is a
decision of the one player the position says decides now (so a view for that seat, which
hides the others' secrets, lists exactly the same moves).

A `secret` attribute set during such a choice is marked hidden (`State.hidden_attrs`)
until everyone has chosen; `unseen_attributes` says which values a seat cannot see (for
views of a position), `reveal NAME` shows them early.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from compiler.engine.evaluate import Env
from compiler.engine.state import Grant, GrantGroup, State
from compiler.ir import nodes as n

if TYPE_CHECKING:
    from compiler.engine.game import Game


@dataclass(frozen=True)
class CompiledGrantEach:
    """What a group of grants made by one `grant … to each` does after its last choice."""

    then: Callable[[Env], None] | None
    rule: str | None
    at_once: bool
    types: tuple[str | None, ...] = ()   # of `then`'s arguments (how positions write them)


# ------------------------------------------------------------------ who may choose now


@dataclass(frozen=True)
class AlreadyChosen:
    """Why a seat may not choose: it has made its choice already."""

    rule: str | None
    message: str


def _at_once_step(game: Game, st: State) -> bool:
    """Whether the players still in the step's queue are choosing at once now."""
    return game.steps[st.turn.step].at_once and st.turn.phase == "step" and bool(st.turn.queue)


def _open_group(st: State, seat: int) -> GrantGroup | None:
    """The group of choices made at once that `seat` is (or was) part of, if one is open."""
    return next((g for g in st.turn.groups if g.at_once and seat in g.seats), None)


def bring_forward(game: Game, st: State, seat: int) -> State | AlreadyChosen | None:
    """A move named for `seat`, who does not decide now: when everyone is choosing at once
    and `seat` has not chosen yet, the state with `seat` deciding now (a clone); when it
    has chosen, why not; None when nobody is choosing at once (the move waits its turn)."""
    names = game.seat_name
    actor = st.turn.actor
    group = _open_group(st, seat)
    if group is not None and actor != st.turn.principal:
        mine = tuple(g for g in st.turn.grants if g.group == group.id and g.player == seat)
        if not mine:
            still = [names(g.player) for g in st.turn.grants
                     if g.group == group.id and g.player is not None]
            return AlreadyChosen(group.rule, f"{names(seat)} has already chosen: everyone "
                                 f"chooses once, in secret" + _still(still))
        if seat == st.turn.principal:
            return None  # the player whose turn it is chooses after the others
        out = st.clone()
        out.turn = out.turn.but(grants=mine + tuple(g for g in st.turn.grants if g not in mine))
        return out
    if not _at_once_step(game, st) or actor != st.turn.principal:
        return None
    step = game.steps[st.turn.step]
    if seat not in st.turn.queue:
        return AlreadyChosen(step.rule, f"{names(seat)} has already chosen in step "
                             f"“{step.title}” this turn: everyone chooses once, at the same "
                             f"time" + _still([names(p) for p in st.turn.queue]))
    if st.turn.taken or st.turn.grants or any(
            p.step == step.id and p.me == seat for p in st.turn.pending):
        return None  # the player choosing now is in the middle of it: the move waits
    out = st.clone()
    out.turn = out.turn.but(queue=(seat,) + tuple(p for p in st.turn.queue if p != seat),
                            placed=None)
    return out


@dataclass(frozen=True)
class AtOnce:
    """Who is choosing at once now: everyone taking part, and those still to choose."""

    seats: tuple[int, ...]       # who takes part, in seat order
    still: tuple[int, ...]       # who has not chosen yet, in seat order
    everyone: bool               # a step every player takes (not grants to some)


def choosing_at_once(game: Game, st: State) -> AtOnce | None:
    """The choice made at once that the player deciding now is part of, if any: a
    position's situation says it ("every player chooses at once (still to choose: …)")
    rather than naming one player to play, since any of them may choose first."""
    if st.finished:
        return None
    actor = st.turn.actor
    group = _open_group(st, actor)
    if group is not None and actor != st.turn.principal:
        still = {g.player for g in st.turn.grants if g.group == group.id and g.player is not None}
        return AtOnce(tuple(sorted(group.seats)), tuple(sorted(still)), False)
    if _at_once_step(game, st) and actor == st.turn.principal:
        return AtOnce(tuple(range(st.players)), tuple(sorted(st.turn.queue)), True)
    return None


def _still(names: list[str]) -> str:
    if not names:
        return ""
    return f" (still to choose: {', '.join(names)})"


# ------------------------------------------------------------------ secrets


def committing(env: Env) -> bool:
    """Whether `me` is now making a choice that the others may not see yet."""
    st, me = env.state, env.me
    if any(g.at_once and me in g.seats for g in st.turn.groups):
        return True
    return _at_once_step(env.game, st) and me in st.turn.queue


def set_secret(env: Env, seat: int, name: str) -> None:
    """A `secret` attribute of `seat` was set: hidden while a choice made at once is open,
    shown (no longer hidden) when set openly."""
    st = env.state
    key = (seat, name)
    if committing(env):
        st.hidden_attrs = st.hidden_attrs | {key}
    elif key in st.hidden_attrs:
        st.hidden_attrs = st.hidden_attrs - {key}


def unseen_attributes(st: State, seat: int | None) -> frozenset[tuple[int, str]]:
    """The (seat, attribute) values that `seat` cannot see here: the others' secret
    choices not shown yet (a judge, `seat` None, sees everything)."""
    if seat is None:
        return frozenset()
    return frozenset(k for k in st.hidden_attrs if k[0] != seat)


def show(env: Env, rule: str | None, seats: Any = None, name: str | None = None) -> None:
    """Show the hidden values of `seats` (default: every seat), of attribute `name`
    (default: every one), each with a consequence that says it, in seat order."""
    from compiler.engine.effects import note
    st, game = env.state, env.game
    shown = sorted(k for k in st.hidden_attrs
                   if (seats is None or k[0] in seats) and (name is None or k[1] == name))
    if not shown:
        return
    st.hidden_attrs = st.hidden_attrs - set(shown)
    for seat, attr in shown:
        value = st.player_attrs[seat].get(attr)
        said = game.describe_player_attribute(attr, value)
        if said is None:
            said = f"has {attr} {value}"
        if (seat, attr) in st.unseen_attrs:  # a view never knew it (engine/views.py)
            said = f"shows their {attr}, unknown in {game.seat_name(st.view or 0)}'s view"
        note(env, "revealed", rule, f"now shown: {game.seat_name(seat)} {said}",
             player=game.seat_id(seat), attribute=attr, value=value)


def reveal_statement(game: Game, cx: Any, s: n.Reveal) -> Callable[[Env], None]:
    """`reveal NAME [of p]` for a secret player attribute."""
    owner = cx(s.owner) if s.owner is not None else None
    name, rule = s.zone, s.rule

    def reveal(env: Env) -> None:
        show(env, rule, None if owner is None else (owner(env),), name)
    return reveal


def read_hidden(builder: Any, st: State, seat: int, names: list[str]) -> None:
    """A position's `players[i].hidden`: secret attributes not shown yet (reported through
    the position builder's `bad` when a name is no secret attribute)."""
    from compiler.diagnostics import did_you_mean
    attrs = builder.game.player_attrs
    for j, name in enumerate(names):
        decl = attrs.get(name)
        path = f"players[{seat}].hidden[{j}]"
        if decl is None:
            hint = did_you_mean(name, attrs)
            builder.bad(path, f"no player attribute {name!r}" + (f"; {hint}" if hint else ""))
        elif not decl.secret:
            builder.bad(path, f"player attribute {name!r} is not secret: everyone sees it")
        else:
            st.hidden_attrs = st.hidden_attrs | {(seat, name)}


# ------------------------------------------------------------------ grants to each


def compile_grant_each(sc: Any, s: n.GrantEach) -> Callable[[Env], None]:
    """`grant [must] A to each P [at once] [then apply E(…)]`."""
    from compiler.engine.effects import _third_person, note, to_ref
    game: Game = sc.game
    players = sc.expr(s.players)
    then, args, types = None, [], []
    if s.then is not None:
        args = [sc.expr(a) for a in s.then.args]
        types = [a.type for a in s.then.args]
        # `then` reads its arguments from where they were kept when the grants were made.
        kept = s.then.model_copy(update={"args": [
            n.Name(id=_kept(i), ref="var", type=a.type, loc=a.loc)
            for i, a in enumerate(s.then.args)]})
        then = sc(kept)
    index = len(game.grant_eachs)
    game.grant_eachs.append(CompiledGrantEach(then, s.rule, s.at_once, tuple(types)))
    actions, rule, must, at_once = (s.action,), s.rule, s.must, s.at_once

    def grant(env: Env) -> None:
        st = env.state
        n_ = st.players
        start = st.turn.principal
        seats = sorted({int(p) for p in players(env) if p is not None},
                       key=lambda p: (p - start) % n_)
        values = tuple(to_ref(st, f(env), t) for f, t in zip(args, types))
        group = GrantGroup(id=1 + max((g.id for g in st.turn.groups), default=0),
                           seats=tuple(seats), at_once=at_once, then=index, args=values,
                           rule=rule, me=env.me)
        if not seats:  # nobody to ask: what follows the choices follows now
            _finish(env, group)
            return
        st.turn = st.turn.but(
            grants=st.turn.grants + tuple(Grant(actions, 1, (), rule, p, must, group.id)
                                          for p in seats),
            groups=st.turn.groups + (group,))
        said = _third_person(game.actions[s.action].decl.title)
        who = _listed([game.seat_name(p) for p in seats])
        how = ", each in secret" if at_once else ""
        note(env, "granted", rule, f"{who} {'must' if must else 'may'} now {said}{how}",
             actions=list(actions), players=[game.seat_id(p) for p in seats])
    return grant


def _kept(i: int) -> str:
    return f"then#{i}"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def settle_groups(env: Env) -> bool:
    """Every group of grants whose last choice has been made (or declined): its secrets
    are shown and what follows runs. True if any was settled."""
    done = [g for g in env.state.turn.groups
            if not any(x.group == g.id for x in env.state.turn.grants)]
    for group in done:
        st = env.state
        st.turn = st.turn.but(groups=tuple(g for g in st.turn.groups if g.id != group.id))
        _finish(env, group)
    return bool(done)


def _finish(env: Env, group: GrantGroup) -> None:
    from compiler.engine.effects import drain, from_ref
    info: CompiledGrantEach = env.game.grant_eachs[group.then] \
        if group.then is not None else CompiledGrantEach(None, group.rule, group.at_once)
    if group.at_once:
        show(env, group.rule, group.seats)
    if info.then is None:
        return
    saved_me, saved_vars = env.me, env.vars
    env.me = group.me
    env.vars = {_kept(i): from_ref(env.state, v) for i, v in enumerate(group.args)}
    try:
        info.then(env)
        drain(env)
    finally:
        env.me, env.vars = saved_me, saved_vars


# ------------------------------------------------------------------ positions


def grant_each_name(game: Game, index: int) -> str:
    """`RULE#N`: the Nth `grant … to each` of its rule (how positions name it)."""
    rule = game.grant_eachs[index].rule
    k = sum(1 for x in game.grant_eachs[:index] if x.rule == rule)
    return f"{rule}#{k + 1}"


def write_groups(game: Game, st: State) -> list[Any]:
    """`turn.groups` of a position: the groups of grants still waiting for answers."""
    from compiler.engine.effects import from_ref
    from compiler.engine.formats import GroupState
    out = []
    for grp in st.turn.groups:
        info = game.grant_eachs[grp.then] if grp.then is not None else None
        types = info.types if info is not None else ()
        then = [_write_value(game, st, from_ref(st, v), t) for v, t in zip(grp.args, types)]
        out.append(GroupState(id=grp.id, grant=grant_each_name(game, grp.then or 0),
                              players=[game.seat_id(p) for p in grp.seats],
                              me=game.seat_id(grp.me), then=then))
    return out


def _write_value(game: Game, st: State, v: Any, t: str | None) -> Any:
    if v is None or isinstance(v, bool) or (isinstance(v, int) and t != "player"):
        return v
    if t == "player":
        return game.seat_id(v)
    if t == "tile":
        return game.format_cell(v)
    if t == "area":
        return game.format_area(st, v)
    if t == "piece":
        return game.format_piece(st, v)
    return str(v)


def read_groups(builder: Any, st: State, groups: list[Any], n: int) -> None:
    """`turn.groups`: each group names its `grant … to each`, its players and `me`; every
    grant of a group names one of them, and every group has a grant still open."""
    game: Game = builder.game
    names = {grant_each_name(game, i): i for i in range(len(game.grant_eachs))}
    out: list[GrantGroup] = []
    for i, g in enumerate(groups):
        path = f"turn.groups[{i}]"
        index = names.get(g.grant)
        if index is None:
            from compiler.diagnostics import did_you_mean
            hint = did_you_mean(g.grant, names)
            builder.bad(f"{path}.grant", f"no `grant … to each` {g.grant!r}"
                        + (f"; {hint}" if hint else ""))
            continue
        if any(x.id == g.id for x in out):
            builder.bad(f"{path}.id", f"two groups have the id {g.id}")
            continue
        info: CompiledGrantEach = game.grant_eachs[index]
        seats = [builder.seat(f"{path}.players[{j}]", p, n) for j, p in enumerate(g.players)]
        me = builder.seat(f"{path}.me", g.me, n)
        if len(g.then) != len(info.types):
            builder.bad(f"{path}.then", f"what follows takes {len(info.types)} value(s), "
                                        f"{len(g.then)} given")
            continue
        args = [_read_value(builder, st, f"{path}.then[{j}]", v, t, n)
                for j, (v, t) in enumerate(zip(g.then, info.types))]
        if None in seats or me is None:
            continue
        out.append(GrantGroup(id=g.id, seats=tuple(seats), at_once=info.at_once, then=index,
                              args=tuple(args), rule=info.rule, me=me))
    ids = {x.id for x in out}
    for i, gr in enumerate(st.turn.grants):
        if gr.group is not None and gr.group not in ids:
            builder.bad(f"turn.grants[{i}].group", f"no group {gr.group} in `turn.groups`")
        elif gr.group is not None and gr.player not in next(
                x.seats for x in out if x.id == gr.group):
            builder.bad(f"turn.grants[{i}].player", "the grant's player is not among its "
                                                    "group's players")
    for x in out:
        if not any(gr.group == x.id for gr in st.turn.grants):
            builder.bad("turn.groups", f"group {x.id} has no grant left open: what follows "
                                       f"it has already run (leave the group out)")
    st.turn = st.turn.but(groups=tuple(out))


def _read_value(builder: Any, st: State, path: str, v: Any, t: str | None, n: int) -> Any:
    from compiler.engine.effects import to_ref
    if v is None or t in ("int", "bool", None) or not isinstance(v, str):
        return v
    if t == "player":
        return to_ref(st, builder.seat(path, v, n), t)
    if t == "tile":
        return builder.cell(path, v)
    if t == "area":
        site = builder.site(st, path, v)
        return to_ref(st, builder.game.site_area(st, site), t) if site is not None else None
    if t == "piece":
        return to_ref(st, builder.piece(st, path, v), t)
    return v
