"""Why a condition failed, said in the game's words, naming pieces and tiles.

A ruling must say which part of a rule a move breaks, not print the rule's
formula with its variables ("required: e is not covered"). When a
requirement, a prohibition or a choice's domain decides against a move, the
`Explainer` evaluates the parts of the deciding condition for the values of
this move (the conjuncts of an `and`, the `where` filter of a domain, the
definitions it calls, the restrictions of a movement) and says the part
that decided, with the actual pieces, sites, tiles and areas substituted:
"Blue's pawn at 1,0:lake has Red's tower on top".

Everything here is driven by the IR and its English reading
(`compiler.ir.english`); the words for kinds come from the ruleset. The
explainer only reads the position: it runs after the verdict is reached and
never changes it. Each reason also carries the rules of the definitions it
went through, so a ruling can cite the most specific rule that decided.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from compiler.engine.evaluate import Env, Fn, RuleError, cell_key
from compiler.engine.state import POOL, State
from compiler.ir import nodes as n
from compiler.ir.english import English, Vocabulary, agree, article, negate
from compiler.library import ATTRIBUTES, LIBRARY

if TYPE_CHECKING:
    from compiler.engine.game import Game

_UNKNOWN = object()
MAX_LISTED = 4  # pieces or tiles named in one reason before "and N more"


@dataclass
class Reason:
    """A sentence saying why, and the rules of the definitions it went through."""

    text: str
    rules: list[str] = field(default_factory=list)
    plain: bool = False  # only "x is not among …": no finer reason was found

    def __add__(self, other: Reason) -> Reason:
        return Reason(self.text, _merge(self.rules, other.rules))


def _merge(*lists: list[str]) -> list[str]:
    out: list[str] = []
    for xs in lists:
        out += [x for x in xs if x not in out]
    return out


@dataclass
class Ctx:
    """The values a condition is read with: bound names, the position, who moves."""

    env: Env
    vars: dict[str, Any]
    # Inside a definition one failing part is reason enough; at the rule's own
    # level every failing part is named.
    brief: bool = False

    def but(self, **more: Any) -> Ctx:
        return Ctx(self.env, {**self.vars, **more}, self.brief)

    def only(self, vars: dict[str, Any]) -> Ctx:
        """A definition's body sees only its parameters."""
        return Ctx(self.env, dict(vars), True)

    @property
    def state(self) -> State:
        return self.env.state


_EXPLAINERS: weakref.WeakKeyDictionary[Any, Explainer] = weakref.WeakKeyDictionary()


def explainer(game: Game) -> Explainer:
    """The explainer of a compiled ruleset (made once, on the first refusal)."""
    found = _EXPLAINERS.get(game)
    if found is None:
        found = _EXPLAINERS[game] = Explainer(game)
    return found


class Explainer:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.vocab = Vocabulary.of(game.ruleset)
        self.en = English(self.vocab)
        self._fns: dict[int, tuple[Any, Fn]] = {}

    # ------------------------------------------------------------ entry points

    def context(self, st: State, vars: dict[str, Any], action: str | None = None) -> Ctx:
        self._state = st
        env = Env(self.game, st)
        env.memo = {}
        env.action = action
        return Ctx(env, dict(vars))

    def requirement(self, cond: Any, ctx: Ctx) -> Reason:
        """Why a requirement does not hold."""
        return self.why(cond, ctx, False)

    def prohibition(self, cond: Any, ctx: Ctx, arriving: str, site: Any) -> Reason:
        """Why a `forbid` applies to a piece arriving at a site."""
        r = self.why(cond, ctx, True)
        return Reason(f"{arriving} may not go to {self.game.format_site(site)}, because "
                      f"{r.text}", r.rules)

    def domain(self, value: Any, domain: Any, ctx: Ctx, subset: bool, type_: str) -> Reason:
        """Why a chosen value is not among those the rule allows."""
        if subset:
            try:
                allowed = self.value(domain, ctx)
                outside = [x for x in value if x not in allowed]
            except (TypeError, RuleError):
                outside = []
            if outside:
                return self.not_in(outside[0], domain, ctx, type_)
        return self.not_in(value, domain, ctx, type_)

    # -------------------------------------------------------------- values

    def may_decide(self, action: Any) -> bool:
        """Whether a definition can ever take effect in allowing a move of `action`
        (`deciding`): one that has a rule (when it comes out true, non-zero or non-empty),
        a card's value ability (the card's own body runs), or a team read from a teams
        declaration that has a rule (see `_may_name`)."""
        teams = self.game.teams_decl
        return bool(teams is not None and teams.rule) or \
            self._may_name(action, lambda d: bool(d.rule))

    def may_cite(self, action: Any) -> bool:
        """Whether a condition can ever hold in allowing a move of `action` (what a check
        cites: `actions.check`): a definition that is a condition with a rule, or a card's
        value ability (see `_may_name`)."""
        conditions = self.game.conditions
        return bool(conditions) and \
            self._may_name(action, lambda d: bool(conditions.get(d.id)))

    def _may_name(self, action: Any, names: Callable[[Any], bool]) -> bool:
        """Whether allowing a move of `action` may work out a definition that `names` a
        rule where it holds, read from the rules alone (once per action: its caller keeps
        the answer, `performed.Standing`).

        Allowing a move works out the action's parameters and requirements, and, if it
        brings pieces, where they arrive (read from all its statements) and the
        prohibitions that may concern pieces of their kinds (all the action's, for a piece
        already on the table), with the definitions all these call. A prohibition holds
        against no move that is allowed: its condition came out false there
        (`_names_if_false`). When none of those can name a rule, none is named, and the
        move need not be worked out again to find that out."""
        game, decl = self.game, action.decl
        defines = game.expr.defines()
        read: list[Any] = [decl.params, decl.requires]
        forbids: list[Any] = []
        if action.arrivals:
            read.append(decl.effects)
            kinds = {a.kind or "" for a in action.arrivals if a.piece is None}
            moved = any(a.piece is not None for a in action.arrivals)
            forbids = [f.decl.cond for f in game.forbids
                       if (not f.actions or action.id in f.actions) and (
                           moved or f.decl.kind == "piece"
                           or any(game.is_a(k, f.decl.kind) for k in kinds))]
        return _names(read, defines, names) or \
            any(_names_if_false(c, defines, names) for c in forbids)

    def fn(self, node: Any) -> Fn:
        found = self._fns.get(id(node))
        if found is None or found[0] is not node:
            found = self._fns[id(node)] = (node, self.game.expr(node))
        return found[1]

    def value(self, node: Any, ctx: Ctx) -> Any:
        env = ctx.env
        saved = env.vars
        env.vars = dict(ctx.vars)
        try:
            return self.fn(node)(env)
        finally:
            env.vars = saved

    def safe(self, node: Any, ctx: Ctx) -> Any:
        try:
            return self.value(node, ctx)
        except (RuleError, KeyError, TypeError, IndexError):
            return _UNKNOWN

    def bound(self, node: Any, ctx: Ctx) -> bool:
        """Whether every variable the node reads has a value here."""
        return all(name in ctx.vars for name in n.names_in(node))

    # ------------------------------------------------------------ in words

    def words(self, ctx: Ctx) -> English:
        """English that says the values of this context instead of their names."""
        return self.en.with_values(lambda node: self._said(node, ctx))

    def _said(self, node: Any, ctx: Ctx) -> str | None:
        if isinstance(node, n.Name):
            if node.ref == "var" and node.id in ctx.vars:
                return self.describe(ctx.vars[node.id], node.type)
            if node.ref == "builtin" and node.id in LIBRARY:
                return LIBRARY[node.id].described(self, node, ctx)
            return None
        kernel = ATTRIBUTES.get((node.obj.type or "", node.name)) \
            if isinstance(node, n.Attr) else None
        if kernel is not None and kernel.described and self.bound(node, ctx):
            v = self.safe(node, ctx)
            if v is not _UNKNOWN and v is not None:
                return self.describe(v, node.type)
        return None

    def describe(self, value: Any, type_: str | None) -> str:
        """A value as a reader knows it: "Blue's pawn at 1,0:lake", "tile 2,0"."""
        g = self.game
        st: State | None = getattr(self, "_state", None)
        t = type_ or ""
        if t.startswith("set:"):
            items = list(value or ())
            if not items:
                return "none"
            return self.listing([self.describe(x, t[4:]) for x in items])
        if value is None:
            return "nobody" if t == "player" else "nothing"
        if t == "piece" and st is not None:
            p = st.pieces.get(value) or st.gone.get(value)
            if p is None:
                return "a piece no longer in play"
            if value < 0:  # a piece about to be put on the board
                return f"{_poss(g.seat_name(p.owner))} {g.title(p.kind)}"
            return f"{_poss(g.seat_name(p.owner))} {g.title(p.kind)} at " \
                   f"{g.format_site((p.cell, p.site), st.turn.actor)}"
        if t == "site" and isinstance(value, tuple):
            return g.format_site(value, st.turn.actor if st is not None else None)
        if t == "tile" and isinstance(value, tuple):
            actor = st.turn.actor if st is not None else None
            named = g.laid_card_words(st, value, actor) if st is not None else None
            return named or f"tile {g.format_cell(value, actor)}"
        if t == "cell" and isinstance(value, tuple):
            return f"position {g.format_cell(value, st.turn.actor if st is not None else None)}"
        if t == "area" and st is not None:
            return g.describe_area(st, value)
        if t == "player" and isinstance(value, int):
            return g.seat_name(value)
        if t == "holder":
            return g.ruleset.pool if value == POOL else g.seat_name(value)
        if t == "kind" and isinstance(value, str):
            return g.title(value)
        if t == "card" and isinstance(value, str) and g.card_title(value) is not None:
            return f"the {g.card_title(value)}"
        if t == "bool" or isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, str):
            return value
        return str(value)

    def listing(self, items: list[str]) -> str:
        if len(items) > MAX_LISTED:
            items = items[:MAX_LISTED - 1] + [f"{len(items) - MAX_LISTED + 1} more"]
        if len(items) == 1:
            return items[0]
        return ", ".join(items[:-1]) + " and " + items[-1]

    def _trace_member(self, value: Any, coll: Any, env: Env) -> None:
        """Evaluate what makes `value` a member of `coll`, with the trace on."""
        if isinstance(coll, n.Filtered):
            self._trace_member(value, coll.collection, env)
            saved = env.vars
            env.vars = {**saved, **_element(coll, value)}
            try:
                self.fn(coll.cond)(env)
            finally:
                env.vars = saved
        elif isinstance(coll, n.Collection):
            for part in (coll.within, coll.owner):
                if part is not None:
                    self.fn(part)(env)
        else:
            self.fn(coll)(env)

    # ------------------------------------------------------------- why

    def why(self, node: Any, ctx: Ctx, actual: bool) -> Reason:
        """Why `node` is `actual` (True or False) here, in words."""
        self._state = ctx.state
        handler = getattr(self, f"_why_{node.node}", None)
        if handler is not None:
            found = handler(node, ctx, actual)
            if found is not None:
                return found
        return Reason(self._plain(node, ctx, actual))

    def _plain(self, node: Any, ctx: Ctx, actual: bool) -> str:
        en = self.words(ctx)
        return en(node) if actual else en.negative(node)

    def _why_not(self, node: n.Not, ctx: Ctx, actual: bool) -> Reason:
        return self.why(node.value, ctx, not actual)

    def _why_logic(self, node: n.Logic, ctx: Ctx, actual: bool) -> Reason | None:
        truths = [(item, self.safe(item, ctx)) for item in node.items]
        if node.op == "and" and not actual:
            parts = [self.why(i, ctx, False) for i, v in truths if v is not _UNKNOWN and not v]
            parts = parts[:1] if ctx.brief else parts
        elif node.op == "or" and actual:
            parts = [self.why(i, ctx, True) for i, v in truths if v is not _UNKNOWN and v][:1]
        elif node.op == "or":
            same_kind = self._kinds_of_one(node, ctx) or self._has_none(node, ctx)
            if same_kind is not None:
                return same_kind
            parts = [self.why(i, ctx, False) for i, _ in truths]
        else:
            parts = [self.why(i, ctx, True) for i, _ in truths if not self._obvious(i, ctx)]
        if not parts:
            return None
        texts: list[str] = []
        for p in parts:
            if not any(p.text in t for t in texts):
                texts = [t for t in texts if t not in p.text] + [p.text]
        return Reason(_joined(texts), _merge(*(p.rules for p in parts)))

    def _kinds_of_one(self, node: n.Logic, ctx: Ctx) -> Reason | None:
        """"1,0:field is not a lake, a well or a tower (it is open country)"."""
        items = node.items
        if not all(isinstance(i, n.IsKind) and not i.negated for i in items):
            return None
        subject = items[0].value  # type: ignore[attr-defined]
        en = self.words(ctx)
        if len({en(i.value) for i in items}) != 1:  # type: ignore[attr-defined]
            return None
        text = en.negative(node)
        actual = self._kind_of(self.safe(subject, ctx), subject.type)
        if actual:
            text += f" (it is {actual})"
        return Reason(text)

    def _has_none(self, node: n.Logic, ctx: Ctx) -> Reason | None:
        """"the lake at … has no tower, well or bridge"."""
        items = node.items
        if not all(isinstance(i, n.Has) for i in items):
            return None
        en = self.words(ctx)
        subjects = {en(i.value) for i in items}  # type: ignore[attr-defined]
        if len(subjects) != 1 or (items[0].value.type or "").startswith("set:"):  # type: ignore[attr-defined]
            return None
        kinds = [self.vocab.one(i.kind) for i in items]  # type: ignore[attr-defined]
        listed = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]
        return Reason(agree(subjects.pop(), f"has no {listed}"))

    def _obvious(self, node: Any, ctx: Ctx) -> bool:
        """A kind test its subject's own description already says ("the lake at … is a
        lake", "1,0:well is a well": a site is named after its kind)."""
        if isinstance(node, n.Logic) and node.op == "or":
            return any(self._obvious(i, ctx) and self.safe(i, ctx) is True for i in node.items)
        if isinstance(node, n.IsKind) and not node.negated:
            if node.value.type == "site":
                return True
            said = self.words(ctx)(node.value)
            word = self.vocab.one(node.kind)
            return f"the {word} at " in said or f"’s {word} at " in said
        return False

    def _kind_of(self, value: Any, type_: str | None) -> str | None:
        """What a value is, with its article: "a research station", "outer space"."""
        g, st = self.game, self._state
        if value is _UNKNOWN or value is None:
            return None
        try:
            if type_ == "piece":
                p = st.pieces.get(value) or st.gone.get(value)
                return article(g.title(p.kind)) if p else None
            if type_ == "site":
                kind = g.site_info(st, value).kind
            elif type_ == "area":
                kind = st.areas.kind(value)
            elif type_ == "player":
                return g.seat_name(value)
            else:
                return None
        except (KeyError, TypeError):
            return None
        return self.vocab.a(kind)

    def _why_call(self, node: n.Call, ctx: Ctx, actual: bool) -> Reason | None:
        if not node.defined or node.type != "bool":
            return None
        d = self.vocab.defines.get(node.func)
        if d is None:
            return None
        args = [self.safe(a, ctx) for a in node.args]
        if _UNKNOWN in args:
            return None
        title = self._plain(node, ctx, actual)
        rules = [d.rule] if d.rule else []
        if not _worth_opening(d.expr):
            return Reason(title, rules)
        inner = ctx.only(dict(zip(d.params, args)))
        deeper = self.why(d.expr, inner, actual)
        rules = _merge(rules, deeper.rules)
        if deeper.text and deeper.text != title and _informative(deeper.text, title):
            return Reason(_because(title, deeper.text), rules)
        return Reason(title, rules)

    def _why_if_expr(self, node: n.IfExpr, ctx: Ctx, actual: bool) -> Reason | None:
        cond = self.safe(node.cond, ctx)
        if cond is _UNKNOWN:
            return None
        return self.why(node.then if cond else node.otherwise, ctx, actual)

    def _why_attr(self, node: n.Attr, ctx: Ctx, actual: bool) -> Reason | None:
        kernel = ATTRIBUTES.get((node.obj.type or "", node.name))
        return None if kernel is None else kernel.why(self, node, ctx, actual)

    def short_piece(self, pid: int) -> str:
        p = self._state.pieces[pid]
        return f"{_poss(self.game.seat_name(p.owner))} {self.game.title(p.kind)}"

    def _why_is_kind(self, node: n.IsKind, ctx: Ctx, actual: bool) -> Reason | None:
        text = self._plain(node, ctx, actual)
        holds = actual != node.negated
        if not holds:
            what = self._kind_of(self.safe(node.value, ctx), node.value.type)
            if what and node.value.type == "player":
                if text.startswith("you "):
                    text += f" (you are {what})"
            elif what:
                text += f" (it is {what})"
        return Reason(text)

    def _why_is_none(self, node: n.IsNone, ctx: Ctx, actual: bool) -> Reason | None:
        is_none = actual != node.negated
        phrased = self._phrased(node.value, ctx)
        if phrased is not None and not is_none:
            return Reason(phrased)
        if is_none:
            return None
        v = self.safe(node.value, ctx)
        if v is _UNKNOWN:
            return None
        said = self.words(ctx)(node.value)
        shown = self.describe(v, node.value.type)
        if shown == said:
            return None
        return Reason(agree(said, f"is {shown}"))

    def _phrased(self, node: Any, ctx: Ctx, value: Any = _UNKNOWN, but: Any = _UNKNOWN
                 ) -> str | None:
        """An attribute with a declared phrase, said with its value: "… is owned by Red".

        With `but`, the value the rule asked for follows: "…, not owned by Blue".
        """
        if not isinstance(node, n.Attr) or node.obj.type not in ("area", "player"):
            return None
        phrases = self.vocab.area_phrases if node.obj.type == "area" else self.vocab.player_phrases
        phrase = phrases.get(node.name)
        if phrase is None or "{value}" not in phrase:
            return None
        if value is _UNKNOWN:
            value = self.safe(node, ctx)
            if value is _UNKNOWN:
                return None
        subject = self.words(ctx)(node.obj)
        verb = "" if node.obj.type == "player" else "is "
        if value is None and but is not _UNKNOWN and but is not None:
            # "not owned by Blue" says more than "owned by nobody".
            return agree(subject, negate(f"{verb}{_fill(phrase, self.describe(but, node.type))}"
                                         .strip()) if verb else
                         negate(_fill(phrase, self.describe(but, node.type))))
        text = _fill(phrase, self.describe(value, node.type))
        if but is not _UNKNOWN:
            before = phrase.split("{value}", 1)[0].split()
            lead = f"{before[-1]} " if before and before[-1] in _PREPOSITIONS else ""
            text += f", not {lead}{self.describe(but, node.type)}"
        return agree(subject, f"{verb}{text}")

    def _why_compare(self, node: n.Compare, ctx: Ctx, actual: bool) -> Reason | None:
        left, right = node.left, node.right
        if isinstance(left, n.Call) and left.func == "count" and not left.defined:
            return self._why_count(node, ctx, actual)
        if isinstance(left, n.Call) and not left.defined and left.func in LIBRARY:
            found = LIBRARY[left.func].why_compared(self, node, ctx, actual)
            if found is not None:
                return found
        lv, rv = self.safe(left, ctx), self.safe(right, ctx)
        if lv is _UNKNOWN or rv is _UNKNOWN:
            return None
        if isinstance(left, n.Call) and left.func == "supply" and not left.defined:
            return Reason(self._plain(node, ctx, actual))
        if node.op in ("==", "!="):
            phrased = self._phrased(left, ctx, lv, _UNKNOWN if lv == rv else rv)
            if phrased is not None:
                return Reason(phrased)
        else:
            phrased = self._phrased(left, ctx, lv)
            if phrased is not None:
                rtext = self.words(ctx)(right)
                rtext += _shown(self.describe(rv, right.type), rtext)
                return Reason(f"{phrased} (the rule asks for {_WANTED[node.op]} {rtext})")
        en = self.words(ctx)
        held = self._holding(left, right, node.op, lv, rv, ctx)
        if held is not None:
            return Reason(held)
        op = node.op if actual else _FLIP[node.op]
        ltext, rtext = en(left), en(right)
        ltext += _shown(self.describe(lv, left.type), ltext)
        rtext += _shown(self.describe(rv, right.type), rtext)
        return Reason(agree(ltext, f"{_OPS[op]} {rtext}"))

    def _holding(self, left: Any, right: Any, op: str, lv: Any, rv: Any, ctx: Ctx
                 ) -> str | None:
        """A player's stock of a resource against a number, said as a judge would: "Red has
        0 coins; the rule asks for at least 1" (not "Red's coins (0) is less than 1")."""
        if not (isinstance(left, n.Attr) and left.obj.type == "player" and op in _WANTED
                and left.name in self.game.resources and isinstance(lv, int)
                and isinstance(rv, int)):
            return None
        en = self.words(ctx)
        noun = self.game.title(left.name, lv != 1)
        wanted = en(right)
        wanted += _shown(self.describe(rv, right.type), wanted)
        return f"{agree(en(left.obj), f'has {lv} {noun}')}; the rule asks for " \
               f"{_WANTED[op]} {wanted}"

    def _why_count(self, node: n.Compare, ctx: Ctx, actual: bool) -> Reason | None:
        coll = node.left.args[0]  # type: ignore[attr-defined]
        members = self.safe(coll, ctx)
        if members is _UNKNOWN:
            return None
        en = self.words(ctx)
        k = len(members)
        if k == 0:
            return Reason(f"there are no {en.collection(coll).removeprefix('the ')}")
        elem = (coll.type or "set:")[4:]
        listed = self.listing([self.describe(x, elem) for x in members])
        holder = self._holder_of(coll, ctx)
        rules: list[str] = []
        if holder is not None:
            text = agree(holder, f"holds {listed}")
        elif isinstance(coll, n.Filtered) and k == 1 and " for which " in en.collection(coll):
            # "among the pieces next to tile 1,0 for which it is a lake or it
            # is a well" reads badly aloud; say where it is, then what it is.
            (member,) = members
            said = self.describe(member, elem)
            why = self.why(coll.cond, ctx.but(**_element(coll, member)), True)
            what = why.text.removeprefix(said + " ") if why.text.startswith(said + " ") \
                else None
            text = f"{listed} is among {en.collection(coll.collection)}"
            text += f", and {what if what.startswith(('is ', 'has ')) else 'it ' + what}" \
                if what else f" ({why.text})"
            rules = why.rules
        else:
            text = f"{listed} {'is' if k == 1 else 'are'} among {en.collection(coll)}"
        limit = self.safe(node.right, ctx)
        if isinstance(limit, int) and limit > 1:
            text += f" ({k} in all, against {limit})"
        return Reason(text, rules)

    def _holder_of(self, coll: Any, ctx: Ctx) -> str | None:
        """"tile 0,0" for the pieces on a tile: who holds the members, if that reads better.

        The rule's own title says which pieces count; the reason names the
        ones found and where.
        """
        while isinstance(coll, n.Filtered):
            coll = coll.collection
        if isinstance(coll, n.Collection) and coll.within is not None and coll.owner is None \
                and coll.within.type in ("tile", "area") and isinstance(coll.source, n.Name) \
                and (coll.source.id == "pieces" or coll.source.category == "piece"):
            return self.words(ctx)(coll.within)
        return None

    def _why_has(self, node: n.Has, ctx: Ctx, actual: bool) -> Reason | None:
        text = self._plain(node, ctx, actual)
        if not actual:
            return Reason(text)
        if node.value.type == "set:tile" and self.game.category(node.kind) != "piece":
            tiles = self.safe(node.value, ctx)
            st = ctx.state
            if tiles is not _UNKNOWN:
                with_it = [c for c in tiles if c in st.board and node.kind in
                           self.game.catalogue.faces[st.board[c][:2]].features]
                if with_it:
                    said = self.listing([self.describe(c, "tile") for c in with_it])
                    coll = self.words(ctx).collection(node.value)
                    verb = "is" if len(with_it) == 1 else "are"
                    return Reason(f"{said} {'has' if len(with_it) == 1 else 'have'} "
                                  f"{self.vocab.a(node.kind)} and {verb} among {coll}")
        where = self._where_has(node, ctx)
        return Reason(f"{text} ({where})" if where else text)

    def _where_has(self, node: n.Has, ctx: Ctx) -> str | None:
        """Which piece, or on which tile, the kind that `x has KIND` found is."""
        g, st = self.game, ctx.state
        v = self.safe(node.value, ctx)
        if v is _UNKNOWN or v is None:
            return None
        t = node.value.type or ""
        if t == "tile":
            cells = [v]
        elif t == "set:tile":
            cells = list(v)
        elif t == "area":
            cells = sorted(st.areas.cells.get(st.areas.find(v), ()), key=cell_key)
        elif t == "site":
            cells = [v[0]]
        else:
            return None
        if g.category(node.kind) == "piece":
            found = [p.id for p in st.pieces.values() if p.cell in cells
                     and g.is_a(p.kind, node.kind)
                     and (t != "area" or g.site_area(st, (p.cell, p.site)) == v)
                     and (t != "site" or (p.cell, p.site) == v)]
            return self.listing([self.describe(pid, "piece") for pid in found]) if found else None
        with_it = [c for c in cells if c in st.board and node.kind in
                   g.catalogue.faces[st.board[c][:2]].features]
        if not with_it:
            return None
        if t in ("tile", "site") and len(cells) == 1:
            return None
        return "on " + self.listing([self.describe(c, "tile") for c in with_it])

    def _why_is_in(self, node: n.IsIn, ctx: Ctx, actual: bool) -> Reason | None:
        member = actual != node.negated
        v = self.safe(node.value, ctx)
        if v is _UNKNOWN:
            return None
        if member:
            return self.is_in(v, node.collection, ctx, node.value.type or "")
        return self.not_in(v, node.collection, ctx, node.value.type or "")

    # ---------------------------------------------------- membership

    def is_in(self, value: Any, coll: Any, ctx: Ctx, type_: str) -> Reason:
        """Why a value is among a collection (what made it belong)."""
        said = self.describe(value, type_)
        if isinstance(coll, n.Filtered):
            r = self.why(coll.cond, ctx.but(**_element(coll, value)), True)
            return Reason(r.text, r.rules)
        if isinstance(coll, n.Call) and coll.defined:
            d = self.vocab.defines.get(coll.func)
            args = [self.safe(a, ctx) for a in coll.args]
            if d is not None and _UNKNOWN not in args:
                inner = self.is_in(value, d.expr, ctx.only(dict(zip(d.params, args))), type_)
                title = self.words(ctx)(coll)
                text = agree(said, f"is among {title}")
                if _informative(inner.text, text):
                    text += f" ({inner.text})"
                return Reason(text, _merge([d.rule] if d.rule else [], inner.rules))
        return Reason(agree(said, f"is among {self.words(ctx).collection(coll)}"))

    def not_in(self, value: Any, coll: Any, ctx: Ctx, type_: str) -> Reason:
        """Why a value is not among a collection: the part of it that leaves the value out."""
        self._state = ctx.state
        said = self.describe(value, type_)
        en = self.words(ctx)
        fallback = Reason(agree(said, f"is not among {en.collection(coll)}"), plain=True)
        if value is None:
            return Reason("nothing was chosen")
        if isinstance(coll, n.Filtered):
            base = self.safe(coll.collection, ctx)
            if base is not _UNKNOWN and value not in base:
                return self.not_in(value, coll.collection, ctx, type_)
            r = self.why(coll.cond, ctx.but(**_element(coll, value)), False)
            return r
        if isinstance(coll, n.Call) and coll.defined:
            d = self.vocab.defines.get(coll.func)
            args = [self.safe(a, ctx) for a in coll.args]
            if d is None or _UNKNOWN in args:
                return fallback
            inner = self.not_in(value, d.expr, ctx.only(dict(zip(d.params, args))), type_)
            if inner.plain:  # the definition's own title says it better
                return Reason(fallback.text, [d.rule] if d.rule else [], plain=True)
            return Reason(inner.text, _merge([d.rule] if d.rule else [], inner.rules))
        if isinstance(coll, n.IfExpr):
            cond = self.safe(coll.cond, ctx)
            if cond is _UNKNOWN:
                return fallback
            return self.not_in(value, coll.then if cond else coll.otherwise, ctx, type_)
        if isinstance(coll, n.Collection):
            return self._not_in_collection(value, coll, ctx, type_) or fallback
        if isinstance(coll, n.Name) and coll.ref == "kind":
            return self._not_of_kind(value, coll.id, type_) or fallback
        if isinstance(coll, n.Call) and not coll.defined:
            return LIBRARY[coll.func].why_not_in(self, value, coll, ctx, type_) or fallback
        return fallback

    def _not_of_kind(self, value: Any, kind: str, type_: str) -> Reason | None:
        g, st = self.game, self._state
        said = self.describe(value, type_)
        if type_ == "piece":
            p = st.pieces.get(value)
            if p is None:
                return Reason("there is no such piece on the board")
            if not g.is_a(p.kind, kind):
                return Reason(agree(said, f"is not {article(g.title(kind))}"))
            return None
        if type_ == "site":
            try:
                info = g.site_info(st, value)
            except (KeyError, TypeError):
                return None
            if info.kind != kind:
                return Reason(agree(said, f"is not {article(g.title(kind))}"))
        return None

    def _not_in_collection(self, value: Any, coll: n.Collection, ctx: Ctx, type_: str
                           ) -> Reason | None:
        g, st = self.game, ctx.state
        said = self.describe(value, type_)
        src = coll.source
        if isinstance(src, n.Name) and src.ref == "kind":
            wrong = self._not_of_kind(value, src.id, type_)
            if wrong is not None:
                return wrong
        if type_ == "piece" and value not in st.pieces:
            return Reason("there is no such piece on the board")
        if type_ == "cell" and isinstance(value, tuple) and value in st.board:
            laid = st.board[value]
            named = g.card_title(laid[0])
            if named is not None:  # a printed card already lies there (face down, perhaps)
                down = " face down" if laid[1] == "down" and g.plain_card(laid[0]) else ""
                return Reason(f"{said} is taken: the {named} lies there{down}")
        if coll.owner is not None and type_ == "piece":
            owner = self.safe(coll.owner, ctx)
            p = st.pieces[value]
            if owner is not _UNKNOWN and p.owner != owner:
                whose = self.describe(owner, "player")
                if owner == ctx.env.me:
                    whose += ", who is to decide"
                return Reason(agree(said, f"does not belong to {whose}"))
        if coll.within is not None:
            w = self.safe(coll.within, ctx)
            wt = coll.within.type or ""
            if w is _UNKNOWN:
                return None
            where = self._place_of(value, type_)
            if where is None:
                return None
            cell, site = where
            en = self.words(ctx)
            if wt == "tile" and cell != w:
                return Reason(agree(said, f"is not on {en(coll.within)}"))
            if wt == "site" and site != w:
                return Reason(agree(said, f"is not on {en(coll.within)}"))
            if wt == "area" and site is not None and g.site_area(st, site) != w:
                return Reason(agree(said, f"is not in {en(coll.within)}"))
            if wt == "set:tile" and cell not in w:
                inner = self.not_in(cell, coll.within, ctx, "tile")
                if inner.plain:
                    where_said = "stands" if type_ == "piece" else "lies"
                    return Reason(agree(said, f"{where_said} on {self.describe(cell, 'tile')}, "
                                              f"which is not among {en.collection(coll.within)}"))
                return inner
        return None

    def _place_of(self, value: Any, type_: str) -> tuple[Any, Any] | None:
        st = self._state
        if type_ == "piece":
            p = st.pieces.get(value)
            return None if p is None else (p.cell, (p.cell, p.site))
        if type_ == "site" and isinstance(value, tuple):
            return value[0], value
        if type_ in ("tile", "cell"):
            return value, None
        return None

    # ------------------------------------------------------------- movement

# ------------------------------------------------------------------ helpers


_OPS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
        ">": "is more than", ">=": "is at least"}
_FLIP = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_WANTED = {"<": "less than", "<=": "at most", ">": "more than", ">=": "at least"}
_PREPOSITIONS = {"by", "of", "to", "from", "with", "for", "at", "in", "on"}


def _fill(phrase: str, value: str) -> str:
    return phrase.replace("{value}", value)


def _poss(name: str) -> str:
    return f"{name}’" if name.endswith("s") else f"{name}’s"


def _shown(value: str, text: str) -> str:
    """" (3)" after a phrase whose value it does not already say ("you" says who:
    "Red is you", not "Red is you (Red)")."""
    if text == value or text == "you" or (
            not value.lstrip("-").isdigit() and (value in text or text in value)):
        return ""
    return f" ({value})"


def _worth_opening(body: Any) -> bool:
    """Whether a definition's body can name a finer reason than its title.

    A body that is one comparison or one kind test only restates the title
    in the formula's terms; a combination, a count (which can list what it
    found), a `has` (which can say where) or a further definition can say more.
    """
    if isinstance(body, n.Not):
        return _worth_opening(body.value)
    if isinstance(body, (n.Logic, n.Has, n.IfExpr)):
        return True
    if isinstance(body, n.Call):
        return body.defined
    if isinstance(body, n.Compare):
        return isinstance(body.left, n.Call) and body.left.func == "count"
    return False


_SUBJECT = re.compile(r"(.+?) (?=(?:is|are|has|have|does|do|holds|hold) )")


def _joined(texts: list[str]) -> str:
    """Sentences joined with "and", a subject they share said once:
    "the lake at … is still open and is not owned by Blue"."""
    if len(texts) == 1:
        return texts[0]
    subjects = {m.group(1) if (m := _SUBJECT.match(t)) else None for t in texts}
    if len(subjects) == 1 and None not in subjects:
        subject = subjects.pop()
        texts = [texts[0]] + [t[len(subject) + 1:] for t in texts[1:]]
    # A part with a comma of its own ("…, not by Blue") takes ", and" after it.
    last = ", and " if any(", " in t for t in texts[:-1]) else " and "
    return ", ".join(texts[:-1]) + last + texts[-1]


def _because(said: str, deeper: str) -> str:
    """A sentence and the finer reason under it."""
    return f"{said} ({deeper})"


def _informative(deeper: str, title: str) -> bool:
    """Whether a deeper reason adds to what the title says: not already in it,
    and not "X is X", which only says a value equals itself."""
    same = re.fullmatch(r"(.+) (?:is|are) \1", deeper)
    return bool(deeper) and deeper not in title and same is None


def _element(coll: Any, value: Any) -> dict[str, Any]:
    """The names a collection's `where` calls its element by."""
    out = {"it": value}
    c = coll
    while isinstance(c, n.Filtered):
        c = c.collection
    if isinstance(c, n.Collection) and c.alias:
        out[c.alias] = value
    return out


def _names(root: Any, defines: dict[str, Any], names: Callable[[Any], bool],
           seen: frozenset[str] = frozenset()) -> bool:
    """Whether working out the IR under `root` may name a rule (see `_may_name`): it calls
    a card's value ability, or a definition that `names` one or whose body may."""
    for x in n.walk(root):
        if isinstance(x, n.Call):
            if x.ability:
                return True
            d = defines.get(x.func) if x.defined else None
            if d is not None and (names(d) or x.func not in seen and
                                  _names(d.expr, defines, names, seen | {x.func})):
                return True
    return False


def _names_if_false(node: Any, defines: dict[str, Any], names: Callable[[Any], bool],
                    seen: frozenset[str] = frozenset()) -> bool:
    """`_names` for an expression that came out false (a prohibition's condition, for a
    move it allows): a definition that came out false named no rule (only its arguments
    and its body, false too, may have), and an `or` that came out false had every item
    worked out, each false."""
    if isinstance(node, n.Logic) and node.op == "or":
        return any(_names_if_false(i, defines, names, seen) for i in node.items)
    if isinstance(node, n.Call) and node.defined and not node.ability and \
            node.func in defines and node.func not in seen:
        return _names(node.args, defines, names, seen) or _names_if_false(
            defines[node.func].expr, defines, names, seen | {node.func})
    return _names(node, defines, names, seen)


def deciding(game: Game, st: State, action: Any, values: dict[str, Any]) -> list[str]:
    """The rules of the definitions that took effect in allowing a legal move.

    Each choice is checked for the value chosen only (a `where` is read for
    that element, not for every other one), then the requirements and the
    prohibitions; a definition that came out true, non-zero or non-empty
    decided something (a skill that lets a ship fly farther, a piece that
    counts as blocked) and its rule is cited. (None can where `Explainer.may_decide`
    says so: a ruling does not ask then.)
    """
    from compiler.engine.actions import forbidden
    ex = explainer(game)
    env = Env(game, st)
    env.memo = {}
    env.action = action.id
    env.trace = []
    env.vars = {}
    try:
        for p in action.params:
            v = values.get(p.name)
            ex._trace_member(v, p.node.domain, env)
            env.vars[p.name] = v
        for r in action.requires:
            ex.fn(r.node)(env)
        forbidden(game, env, action, first_only=False)
    except (RuleError, KeyError, TypeError, ValueError, IndexError):
        pass
    return list(env.trace)
