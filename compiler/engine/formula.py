"""A computed amount shown as the sum a player can check: "2 × 3 tiles = 6".

When a rule gives an amount that is a formula (points per tile of an area,
coins per pawn), the consequence shows the formula with this
position's numbers in it, each number with what it counts. The formula is
the IR expression the engine evaluated, read again term by term: the
numbers written in the rules stay numbers, a count becomes "3 tiles", a
definition is opened up into its own formula, and of an `if` only the branch
taken is shown. The rulebook renders the same expression as MathML
(`compiler.rulebook.mathml`); here it is plain text with values.

An amount that involves chance (a die) is never evaluated twice, so it is
not shown; neither is a bare number, which says nothing more.
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from compiler.engine.evaluate import Env, Fn, RuleError, call_scoped
from compiler.ir import nodes as n
from compiler.ir.english import English, Vocabulary, possessive

if TYPE_CHECKING:
    from compiler.engine.game import Game

_SYMBOLS = {"+": "+", "-": "−", "*": "×", "/": "÷"}


@dataclass
class Term:
    text: str
    value: Any
    level: str = "atom"  # "atom", "add" (a sum) or "mul" (a product)


class FormulaReader:
    """Reads amounts of one ruleset as formulas with values."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.vocab = Vocabulary.of(game.ruleset)
        self.en = English(self.vocab)
        self._fns: dict[int, tuple[Any, Fn]] = {}
        self._chancy: dict[str, bool] = {}

    def fn(self, node: Any) -> Fn:
        found = self._fns.get(id(node))
        if found is None or found[0] is not node:
            found = self._fns[id(node)] = (node, self.game.expr(node))
        return found[1]

    # -------------------------------------------------------------- what to show

    def worth_showing(self, node: Any) -> bool:
        """A computed amount without chance in it."""
        return not isinstance(node, (n.Number, n.Neg)) and not self._has_chance(node)

    def _has_chance(self, node: Any) -> bool:
        for x in _walk(node):
            if isinstance(x, n.Call):
                if x.func == "die" and not x.defined:
                    return True
                if x.defined:
                    if x.func not in self._chancy:
                        self._chancy[x.func] = True  # a definition that calls itself
                        d = self.vocab.defines.get(x.func)
                        self._chancy[x.func] = d is None or self._has_chance(d.expr)
                    if self._chancy[x.func]:
                        return True
        return False

    def areas(self, node: Any, env: Env) -> list[Any]:
        """The areas a formula is about (the variables of type area it reads), in order."""
        out: list[Any] = []
        for x in _walk(node):
            if isinstance(x, n.Name) and x.ref == "var" and x.type == "area" and x.id in env.vars:
                a = env.vars[x.id]
                if a is not None:
                    root = env.state.areas.find(a)
                    if root not in out:
                        out.append(root)
        return out

    # ------------------------------------------------------------------- terms

    def shown(self, node: Any, env: Env) -> str | None:
        """"2 × 3 tiles = 6", "4 tiles", or None when it says nothing a number does not."""
        origin = self._origin(node, env)
        if origin is not None:  # an effect's parameter: read what its caller passed
            return self._as_caller(origin, env, self.shown)
        try:
            printed = self._printed(node, env)
            if printed is not None:
                return printed
            term = self.term(node, env)
        except (RuleError, KeyError, TypeError, ValueError, IndexError, ZeroDivisionError):
            return None
        text = term.text
        if text == str(term.value):
            return None
        bounded = term.level == "bounded"  # "6 tiles, at most 5": the limit is the result
        if not bounded and (term.level != "atom" or not text.startswith(f"{term.value} ")):
            text += f" = {term.value}"
        return text

    def _origin(self, node: Any, env: Env) -> tuple[Any, dict[str, Any], dict[str, Any]] | None:
        """What the caller of the effect running now passed for the parameter `node`, if it
        is one (and no chance is in it: chance is never evaluated twice)."""
        if not (isinstance(node, n.Name) and node.ref == "var"):
            return None
        found = env.origins.get(node.id)
        if found is None or node.id not in env.vars or self._has_chance(found[0]):
            return None
        try:  # the same value still: not a name bound again inside the effect
            same = self._as_caller(found, env, lambda x, e: self.fn(x)(e)) == env.vars[node.id]
        except (RuleError, KeyError, TypeError, ValueError, IndexError, ZeroDivisionError):
            return None
        return found if same else None

    @staticmethod
    def _as_caller(origin: tuple[Any, dict[str, Any], dict[str, Any]], env: Env,
                   read: Any) -> Any:
        """`read(expression, env)` with the caller's variables and origins in place."""
        node, vars, outer = origin
        saved = env.vars, env.origins
        env.vars, env.origins = vars, outer
        try:
            return read(node, env)
        finally:
            env.vars, env.origins = saved

    def _printed(self, node: Any, env: Env) -> str | None:
        """An amount that is a number printed on a card, said with the card and the phrase
        its kind declares for it: "the Bakery brings 4 points" (`c.points`), so the
        reading says whose number it is; None for anything else."""
        if not isinstance(node, n.Attr) or node.obj.type not in ("card", "tile"):
            return None
        held = self.fn(node.obj)(env)
        st = env.state
        if node.obj.type == "tile":
            if held not in st.board:
                return None
            card, named = st.board[held][0], self.game.laid_card_words(st, held, st.turn.actor)
        else:
            card = held
            title = self.game.card_title(card) if isinstance(card, str) else None
            named = f"the {title}" if title else None
        info = self.game.cards.cards.get(card) if isinstance(card, str) else None
        if info is None or named is None:
            return None
        phrase = self.game.cards.property_phrase(info.id, node.name, with_value=True)
        if phrase is None:
            return None
        return f"{named} {self.game.fill(phrase, self.fn(node)(env))}"

    def term(self, node: Any, env: Env) -> Term:
        origin = self._origin(node, env)
        if origin is not None:
            return self._as_caller(origin, env, self.term)
        if isinstance(node, n.Number):
            return Term(str(node.value), node.value)
        if isinstance(node, n.Arith) and not (node.type or "").startswith("set:"):
            return self._arith(node, env)
        if isinstance(node, n.Neg):
            inner = self.term(node.value, env)
            text = f"({inner.text})" if inner.level != "atom" else inner.text
            return Term(f"−{text}", -(inner.value or 0), "mul")
        if isinstance(node, n.IfExpr):
            return self.term(node.then if self.fn(node.cond)(env) else node.otherwise, env)
        if isinstance(node, n.Call) and node.defined:
            d = self.vocab.defines.get(node.func)
            if d is not None:
                args = [self.fn(a)(env) for a in node.args]
                outer, env.origins = env.origins, {}  # a definition sees its own names only
                try:
                    opened = call_scoped(env, lambda e: self.term(d.expr, e), d.params, args)
                finally:
                    env.origins = outer
                return self._titled(d, node.args, args, opened, env) or opened
        if isinstance(node, n.Call) and node.func in ("min", "max") and not node.defined \
                and len(node.args) == 2:
            return self._bounded(node, env)
        value = self.fn(node)(env)
        if isinstance(node, n.Call) and node.func == "count" and not node.defined:
            return Term(self._counted(node.args[0], value, env), value)
        if isinstance(node, n.Attr) and node.name in self.vocab.plural:
            noun = self.vocab.one(node.name) if value == 1 else self.vocab.many(node.name)
            return Term(f"{value} {noun}", value)
        return Term(str(value), value)

    def _titled(self, d: Any, nodes: list[Any], args: list[Any], opened: Term,
                env: Env) -> Term | None:
        """A definition titled "the number of …" said by its title ("5 colours in the
        market of Blue") where its own formula shows only numbers ("1 + 1 + 1 + 1 +
        1": a count made of `if`s), which would not say what was counted."""
        title = d.title or ""
        if not title.startswith("the number of ") or re.search(r"[^\W\d_]", opened.text):
            return None
        st = env.state
        for param, node, value in zip(d.params, nodes, args):
            said = self.game.seat_name(value) if node.type == "player" and \
                isinstance(value, int) else self.game.laid_card_words(st, value, st.turn.actor) \
                if node.type == "tile" and value in st.board else None
            if said is None:
                return None  # players and laid cards are said here by name
            title = title.replace("{" + param + "}", said)
        if "{" in title:
            return None
        rest = title.removeprefix("the number of ")
        if opened.value == 1:  # "1 location type next to …": the noun before its qualifier
            rest = re.sub(r"^((?:\S+ )*?\S+?[^s])s\b(?= (?:in|next|of|on|at|between|from|"
                          r"with|that|among)\b|$)", r"\1", rest, count=1)
        return Term(f"{opened.value} {rest}", opened.value)

    def _bounded(self, node: n.Call, env: Env) -> Term:
        """`min(x, limit)`: x as it is when the limit is not reached; else "6 tiles, at
        most 5" (and `max`, "at least")."""
        amount, limit = (self.term(a, env) for a in node.args)
        value = self.fn(node)(env)
        if value == amount.value or value != limit.value:
            return amount
        bound = "at most" if node.func == "min" else "at least"
        return Term(f"{amount.text}, {bound} {limit.text}", value, "bounded")

    def _arith(self, node: n.Arith, env: Env) -> Term:
        level = "add" if any(op in "+-" for op, _ in node.rest) else "mul"
        parts = [self._operand(self.term(node.first, env), level)]
        for op, e in node.rest:
            parts += [_SYMBOLS[op], self._operand(self.term(e, env), level)]
        return Term(" ".join(parts), self.fn(node)(env), level)

    @staticmethod
    def _operand(term: Term, level: str) -> str:
        return f"({term.text})" if level == "mul" and term.level == "add" or \
            term.level == "bounded" else term.text

    def _counted(self, coll: Any, value: int, env: Env) -> str:
        """"3 tiles", "1 pawn of Blue that is not stuck", "2 huts in Red’s camp that hold
        no grain": a count and what it counts, in the ruleset's words.

        A `where it is KIND` names what is counted by that kind's title; the tiles of a
        player's own board are "in Red’s station" (the board's title); the other parts
        of the `where` follow as a relative clause."""
        conds: list[Any] = []
        while isinstance(coll, n.Filtered):
            conds = _conjuncts(coll.cond) + conds
            coll = coll.collection
        element = {"it"}
        if isinstance(coll, n.Collection) and coll.alias:
            element.add(coll.alias)
        kind = next((c for c in conds if isinstance(c, n.IsKind) and not c.negated
                     and isinstance(c.value, n.Name) and c.value.id in element
                     and c.kind in self.vocab.singular), None)
        noun_one, noun_many, whose = "", "", ""
        if isinstance(coll, n.Collection):
            src = coll.source
            tiles = isinstance(src, n.Name) and src.ref == "builtin" and src.id == "tiles"
            if isinstance(src, n.Name) and src.ref == "kind":
                noun_one, noun_many = self.vocab.one(src.id), self.vocab.many(src.id)
            elif tiles:
                noun_one, noun_many = self.vocab.laid
            elif isinstance(src, n.Name) and src.ref == "builtin":
                noun_many = src.id
                noun_one = src.id[:-1] if src.id.endswith("s") else src.id
            if coll.owner is not None:
                owner = self.fn(coll.owner)(env)
                if owner is not None:
                    name = self.game.seat_name(owner)
                    whose = f" in {possessive(name)} {self.vocab.board}" \
                        if tiles and self.vocab.board else f" of {name}"
        elif isinstance(coll, n.Name) and coll.ref == "kind":
            noun_one, noun_many = self.vocab.one(coll.id), self.vocab.many(coll.id)
        if not noun_many:
            return str(value)
        if kind is None:
            kind = self._naming(conds, element)
        if kind is not None:
            conds.remove(kind)
            noun_one, noun_many = self._nouns(kind)
        said = [q for q in (self._qualifier(c, value, element) for c in conds) if q]
        qualifier = f" that {' and '.join(said)}" if said else ""
        return f"{value} {noun_one if value == 1 else noun_many}{whose}{qualifier}"

    def _naming(self, conds: list[Any], element: set[str]) -> Any:
        """A part of a `where` that names what is counted though it is no kind: one printed
        card (`it is bakery`: "Bakeries"), or a feature titled after a kind of card (`it
        has fresh` with "fresh stall": "fresh stalls" rather than "cards that have a fresh
        stall")."""
        kinds = {k.title for k in self.game.cards.kinds.values() if k.title}
        for c in conds:
            if not (isinstance(c, (n.IsKind, n.Has)) and isinstance(c.value, n.Name)
                    and c.value.id in element) or getattr(c, "negated", False):
                continue
            if isinstance(c, n.IsKind) and c.kind in self.vocab.cards:
                return c
            title = self.vocab.singular.get(c.kind, "") if isinstance(c, n.Has) else ""
            if any(title.endswith(f" {k}") for k in kinds):
                return c
        return None

    def _nouns(self, c: Any) -> tuple[str, str]:
        """The singular and plural of what `it is K` or `it has F` names."""
        if c.kind in self.vocab.cards and c.kind not in self.vocab.singular:
            one = self.vocab.cards[c.kind]
            return one, one if one.endswith("s") else one + "s"
        return self.vocab.one(c.kind), self.vocab.many(c.kind)

    def _qualifier(self, cond: Any, value: int, element: set[str]) -> str:
        """One part of a `where` as the predicate of a relative clause ("is not stuck",
        "hold no grain"), or "" when it does not read as one about the element."""
        negated = isinstance(cond, n.Not)
        inner = cond.value if negated else cond
        if isinstance(inner, n.Call) and inner.defined and inner.args and \
                isinstance(inner.args[0], n.Name) and inner.args[0].id == "it":
            d = self.vocab.defines.get(inner.func)
            title = d.title if d else None
            if title and title.startswith("{") and " is " in title:
                what = title.split(" is ", 1)[1]
                verb = "is" if value == 1 else "are"
                return f"{verb} {'not ' if negated else ''}{what}"
        text = self.en(cond)
        subject = next((x for x in element if text.startswith(f"{x} ")), None)
        if subject is None:
            return ""
        predicate = text[len(subject) + 1:]
        if re.search(rf"\b(it|its|{re.escape(subject)})\b", predicate):
            return ""  # the element again, deeper in the sentence: no plain clause
        if value == 1:
            return predicate
        clause = self.en._relative(f"it {predicate}")
        return clause.removeprefix("that ") if clause else ""


def _conjuncts(cond: Any) -> list[Any]:
    """The parts of an `and`, each on its own; anything else is one part."""
    if isinstance(cond, n.Logic) and cond.op == "and":
        return [c for item in cond.items for c in _conjuncts(item)]
    return [cond]


def _walk(node: Any) -> Any:
    stack = [node]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, n.Node):
            for value in x.__dict__.values():
                for v in value if isinstance(value, list) else (value,):
                    if isinstance(v, tuple):
                        v = v[1]
                    if isinstance(v, n.Node):
                        stack.append(v)
