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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from compiler.engine.evaluate import Env, Fn, RuleError, call_scoped
from compiler.ir import nodes as n
from compiler.ir.english import English, Vocabulary

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
        try:
            term = self.term(node, env)
        except (RuleError, KeyError, TypeError, ValueError, IndexError, ZeroDivisionError):
            return None
        text = term.text
        if text == str(term.value):
            return None
        if term.level != "atom" or not text.startswith(f"{term.value} "):
            text += f" = {term.value}"
        return text

    def term(self, node: Any, env: Env) -> Term:
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
                return call_scoped(env, lambda e: self.term(d.expr, e), d.params, args)
        value = self.fn(node)(env)
        if isinstance(node, n.Call) and node.func == "count" and not node.defined:
            return Term(self._counted(node.args[0], value, env), value)
        if isinstance(node, n.Attr) and node.name in self.vocab.plural:
            noun = self.vocab.one(node.name) if value == 1 else self.vocab.many(node.name)
            return Term(f"{value} {noun}", value)
        return Term(str(value), value)

    def _arith(self, node: n.Arith, env: Env) -> Term:
        level = "add" if any(op in "+-" for op, _ in node.rest) else "mul"
        parts = [self._operand(self.term(node.first, env), level)]
        for op, e in node.rest:
            parts += [_SYMBOLS[op], self._operand(self.term(e, env), level)]
        return Term(" ".join(parts), self.fn(node)(env), level)

    @staticmethod
    def _operand(term: Term, level: str) -> str:
        return f"({term.text})" if level == "mul" and term.level == "add" else term.text

    def _counted(self, coll: Any, value: int, env: Env) -> str:
        """"3 tiles", "1 pawn of Blue that is not stuck": a count and what it counts."""
        qualifier = ""
        while isinstance(coll, n.Filtered):
            qualifier = self._qualifier(coll.cond, value) or qualifier
            coll = coll.collection
        noun_one, noun_many = "", ""
        if isinstance(coll, n.Collection):
            src = coll.source
            if isinstance(src, n.Name) and src.ref == "kind":
                noun_one, noun_many = self.vocab.one(src.id), self.vocab.many(src.id)
            elif isinstance(src, n.Name) and src.ref == "builtin":
                noun_many = src.id
                noun_one = src.id[:-1] if src.id.endswith("s") else src.id
            if coll.owner is not None:
                owner = self.fn(coll.owner)(env)
                if owner is not None:
                    qualifier = f" of {self.game.seat_name(owner)}" + qualifier
        elif isinstance(coll, n.Name) and coll.ref == "kind":
            noun_one, noun_many = self.vocab.one(coll.id), self.vocab.many(coll.id)
        if not noun_many:
            return str(value)
        return f"{value} {noun_one if value == 1 else noun_many}{qualifier}"

    def _qualifier(self, cond: Any, value: int) -> str:
        """A `where` said after the noun, when it is a definition of the element."""
        negated = isinstance(cond, n.Not)
        inner = cond.value if negated else cond
        if isinstance(inner, n.Call) and inner.defined and inner.args and \
                isinstance(inner.args[0], n.Name) and inner.args[0].id == "it":
            d = self.vocab.defines.get(inner.func)
            title = d.title if d else None
            if title and title.startswith("{") and " is " in title:
                what = title.split(" is ", 1)[1]
                verb = "is" if value == 1 else "are"
                return f" that {verb} {'not ' if negated else ''}{what}"
        return ""


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
