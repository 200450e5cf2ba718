"""Formulas of the rules, rendered as MathML Core from the IR.

The rulebook never retypes a formula: it renders the expression node the
engine evaluates. Browsers lay out MathML Core natively, so the output is a
plain `<math>` element, with no script and no namespace declaration (HTML
parsing puts `<math>` in the MathML namespace by itself).

A formula reads like one in a printed rulebook: numbers, operators and short
word-terms for the quantities ("tiles in the area × mining level"), not code.
The words come from the ruleset's vocabulary; conditions are said in English
(`compiler.ir.english`).

Readings:

* `count(K in X of P where C)` is a noun phrase, "P's Ks in X ..."; the count
  is implied. Common shapes of C become a short qualifier ("not carrying a
  K2", "closed Ks"); any other C is added as "(where ...)".
* A call to a `define` is the define's title without "the " and, when the
  argument is the formula's own variable, without its "of {param}" tail:
  "the mining level of {a}" gives the term "mining level".
* A variable is "the area", "the player", ... after its type when it is the
  only variable of that type in the formula, else its name.
* `/` is integer division rounding down: a fraction inside floor brackets.
* `if c then x else y` chains are a piecewise table, "x if c ... y otherwise".

Links. With `terms`, a kind's or a define's word inside a term becomes an
HTML `<a>` inside the `<mtext>`. The `href` attribute on MathML elements is
not part of MathML Core (only some browsers follow it), but token elements
such as `<mtext>` are HTML integration points: the HTML parser reads an `<a>`
in them as an ordinary HTML link, which every MathML Core browser renders.
The URL is used as given: raw HTML is not rewritten by mkdocs, so pass
final, page-relative URLs.

The output is one line of well-formed XML, deterministic for a given node.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel

from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.ir.english import English, Vocabulary, article
from compiler.ir.prose import fill
from compiler.library import ATTRIBUTES, LIBRARY
from compiler.library.base import KernelAttribute

# What a variable is called after its type, when it is the only one of its type.
TYPE_WORDS = {
    "area": "area", "tile": "tile", "site": "site", "piece": "piece", "player": "player",
    "card": "tile card", "face": "face", "cell": "position",
}
# Words that end a define's title before the parameter they introduce.
_TAIL = r"\s+(?:of|in|on|at|for|from|with|by|to)\s+\{%s\}$"
MINUS = "\u2212"
APPLY = "\u2061"  # invisible function application, between "min" and "("


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def _poss(x: str) -> str:
    if x == "you":
        return "your"
    return f"{x}\u2019" if x.endswith("s") else f"{x}\u2019s"


def _row(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"<mrow>{''.join(items)}</mrow>"


def _mo(op: str) -> str:
    return f"<mo>{esc(op)}</mo>"


def _mtext(markup: str) -> str:
    return f"<mtext>{markup}</mtext>"


def _fenced(items: list[str], left: str = "(", right: str = ")") -> str:
    return f"<mrow>{_mo(left)}{''.join(items)}{_mo(right)}</mrow>"


def _kernel(node: Any) -> KernelAttribute | None:
    """The kernel attribute an attribute node reads (`it.above`), if it is one."""
    return ATTRIBUTES.get((node.obj.type or "", node.name)) if isinstance(node, n.Attr) else None


def _walk(x: Any) -> Iterator[Any]:
    if isinstance(x, BaseModel):
        yield x
        for name in type(x).model_fields:
            if name != "loc":
                yield from _walk(getattr(x, name))
    elif isinstance(x, (list, tuple)):
        for y in x:
            yield from _walk(y)


def _level(node: Any) -> str:
    """How an arithmetic node binds: "add" (+ −), "mul" (× ÷) or "atom"."""
    if isinstance(node, n.Arith):
        return "add" if any(op in "+-" for op, _ in node.rest) else "mul"
    if isinstance(node, n.Neg) or (isinstance(node, n.Number) and node.value < 0):
        return "neg"
    if isinstance(node, n.IfExpr) and node.type != "bool":
        return "cases"
    return "atom"


class _Words(English):
    """English that calls the formula's variables by the words `MathML` chose."""

    def __init__(self, vocab: Vocabulary, names: dict[str, str]) -> None:
        super().__init__(vocab)
        self.names = names

    def e_name(self, node: n.Name) -> str:
        if node.ref == "var" and node.id in self.names:
            return self.names[node.id]
        return super().e_name(node)


class MathML:
    """Renders IR expressions as MathML Core.

    `terms` maps a kind id or a define id to the URL of its glossary entry
    (or to `(url, tooltip)`); the word for it is then linked inside the
    formula (see the module docstring).
    """

    def __init__(self, vocab: Vocabulary, *,
                 terms: Mapping[str, str | tuple[str, str]] | None = None) -> None:
        self.v = vocab
        self.terms = dict(terms or {})
        self._names: dict[str, str] = {}
        self._lets: dict[str, Any] = {}
        self._depth = 0
        self.en = _Words(vocab, self._names)

    # ------------------------------------------------------------ entry points

    def expr(self, node: Any, *, lets: Mapping[str, Any] | None = None) -> str:
        """The MathML of an expression, without the `<math>` wrapper."""
        with self._scope([node], lets):
            return self._e(node)

    def formula(self, node: Any, *, display: bool = True, lhs: str | None = None,
                lets: Mapping[str, Any] | None = None) -> str:
        """A complete `<math>` element; with `lhs` (plain words), "lhs = expr".

        `lets` maps `let` names to their value expressions: a name found there
        is shown as its value, so a formula never ends at a bare "amount".
        """
        with self._scope([node], lets):
            items = self._items(node)
            if lhs is not None:
                items = [_mtext(esc(lhs)), _mo("="), *items]
            return self._math(items, display)

    def define(self, d: m.Define, *, display: bool = True) -> str:
        """`define f(a) "the X of {a}" = e` as "X of the area = e"."""
        with self._scope([d.expr], None):
            if d.title:
                text = re.sub(r"^the\s+", "", d.title, flags=re.IGNORECASE)
                text = fill(text, {p: self._names.get(p, p.replace("_", " ")) for p in d.params})
                lhs = [_mtext(self._link(d.id, esc(text)))]
            else:
                params = ", ".join(self._names.get(p, p) for p in d.params)
                lhs = [_mtext(self._link(d.id, esc(d.id.replace("_", " ")))),
                       _fenced([_mtext(esc(params))])]
            if d.expr.type == "bool":
                rel = _mtext(esc("\u00a0exactly when\u00a0"))
            else:
                rel = _mo("=")
            return self._math([*lhs, rel, *self._items(d.expr)], display)

    def give(self, stmt: n.Give, *, display: bool = True,
             lets: Mapping[str, Any] | None = None) -> str:
        """A `give` as "<resource, plural> = amount" (a bare number included)."""
        with self._scope([stmt.amount], lets):
            lhs = _mtext(self._noun(stmt.resource))
            return self._math([lhs, _mo("="), *self._items(stmt.amount)], display)

    def let(self, stmt: n.Let, *, display: bool = True,
            lets: Mapping[str, Any] | None = None) -> str:
        """A `let` as "name = value"."""
        with self._scope([stmt.value], lets):
            lhs = _mtext(esc(stmt.name.replace("_", " ")))
            return self._math([lhs, _mo("="), *self._items(stmt.value)], display)

    # ----------------------------------------------------------------- scope

    def _math(self, items: list[str], display: bool) -> str:
        attr = ' display="block"' if display else ""
        return f"<math{attr}>{_row(items)}</math>"

    @contextmanager
    def _scope(self, roots: list[Any], lets: Mapping[str, Any] | None) -> Iterator[None]:
        """Choose the words for the variables of one formula (outermost call only)."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._lets = dict(lets or {})
        seen = list(roots)
        used = {x.id for x in _walk(roots) if isinstance(x, n.Name) and x.ref == "var"}
        seen += [v for k, v in self._lets.items() if k in used]
        by_type: dict[str, list[str]] = {}
        types_of: dict[str, set[str]] = {}
        for x in _walk(seen):
            if isinstance(x, n.Name) and x.ref == "var" and x.id not in ("it", "closer") \
                    and x.id not in self._lets and x.type in TYPE_WORDS:
                types_of.setdefault(x.id, set()).add(x.type)
                ids = by_type.setdefault(x.type, [])
                if x.id not in ids:
                    ids.append(x.id)
        self._names.clear()
        for t, ids in by_type.items():
            if len(ids) == 1 and len(types_of[ids[0]]) == 1:
                self._names[ids[0]] = f"the {TYPE_WORDS[t]}"
        self._depth = 1
        try:
            yield
        finally:
            self._depth = 0
            self._names.clear()
            self._lets = {}

    # --------------------------------------------------------------- words

    def _link(self, key: str, markup: str) -> str:
        target = self.terms.get(key)
        if target is None:
            return markup
        url, tip = (target, None) if isinstance(target, str) else target
        title = f' title="{esc(tip)}"' if tip else ""
        return f'<a href="{esc(url)}"{title}>{markup}</a>'

    def _noun(self, kind: str, plural: bool = True) -> str:
        word = self.v.many(kind) if plural else self.v.one(kind)
        return self._link(kind, esc(word))

    def _say(self, node: Any) -> str:
        return esc(self.en(node))

    def _word(self, node: Any) -> str | None:
        """The formula's word for a variable ("the area"), if it has one."""
        if isinstance(node, n.Name) and node.ref == "var":
            return self._names.get(node.id)
        return None

    def _define_term(self, call: n.Call) -> str:
        d = self.v.defines.get(call.func)
        if d is None or not d.title:
            args = ", ".join(self.en(a) for a in call.args)
            return self._link(call.func, esc(call.func.replace("_", " ")) +
                              (esc(f" of {args}") if args else ""))
        text = re.sub(r"^the\s+", "", d.title, flags=re.IGNORECASE)
        for p, a in reversed(list(zip(d.params, call.args))):
            tail = re.search(_TAIL % re.escape(p), text)
            if tail and self._word(a) is not None:
                text = text[:tail.start()]
        text = fill(text, {p: self.en(a) for p, a in zip(d.params, call.args)})
        return self._link(call.func, esc(text))

    def _owner(self, node: Any) -> str:
        if isinstance(node, n.Name) and node.ref == "builtin" and node.id == "me":
            return "your"
        return _poss(self.en(node))

    def _phrase(self, node: Any, adjs: tuple[str, ...] = (),
                tails: tuple[str, ...] = ()) -> str:
        """A collection as a short noun phrase (markup): "your closed areas in ..."."""
        pre = "".join(esc(a) + " " for a in adjs)
        post = "".join(" " + t for t in tails)
        if isinstance(node, n.Filtered):
            q = self._qualifier(node.cond, self._element_names(node.collection))
            if q is None:
                return self._phrase(node.collection, adjs,
                                    (f"(where {self._say(node.cond)})", *tails))
            more_adjs, more_tails = q
            return self._phrase(node.collection, (*adjs, *more_adjs),
                                (*(esc(t) for t in more_tails), *tails))
        if isinstance(node, n.Collection):
            owner = esc(self._owner(node.owner)) + " " if node.owner is not None else ""
            within = f" in {self._say(node.within)}" if node.within is not None else ""
            return f"{owner}{pre}{self._noun_of(node.source)}{within}{post}"
        return f"{pre}{self._noun_of(node)}{post}"

    def _noun_of(self, node: Any) -> str:
        if isinstance(node, n.Name) and node.ref == "kind":
            return self._noun(node.id)
        if isinstance(node, n.Name) and node.ref == "builtin":
            return esc(self.en.value_words(node).removeprefix("the "))
        if isinstance(node, n.Call) and node.defined:
            return self._define_term(node)
        if isinstance(node, (n.Collection, n.Filtered)):
            return self._phrase(node)
        return esc(self.en(node).removeprefix("the "))

    @staticmethod
    def _element_names(coll: Any) -> set[str]:
        names = {"it"}
        while isinstance(coll, n.Filtered):
            coll = coll.collection
        if isinstance(coll, n.Collection) and coll.alias:
            names.add(coll.alias)
        return names

    def _qualifier(self, cond: Any, it: set[str]) -> tuple[list[str], list[str]] | None:
        """Common conditions on a collection's element as (adjectives, trailing words)."""
        def elem(x: Any) -> bool:
            return isinstance(x, n.Name) and x.ref == "var" and x.id in it

        def attr_of_elem(x: Any, *names: str) -> bool:
            return isinstance(x, n.Attr) and elem(x.obj) and (not names or x.name in names)

        if isinstance(cond, n.Logic) and cond.op == "and":
            adjs: list[str] = []
            tails: list[str] = []
            for item in cond.items:
                q = self._qualifier(item, it)
                if q is None:
                    return None
                adjs += q[0]
                tails += q[1]
            return adjs, [" and ".join(tails)] if tails else []
        if isinstance(cond, n.IsKind):
            no = "not " if cond.negated else ""
            a = article(self.v.one(cond.kind))
            kernel = _kernel(cond.value) if attr_of_elem(cond.value) else None
            if kernel is not None and kernel.preposition:
                return [], [f"{no}{kernel.preposition} {a}"]
            if elem(cond.value):
                return [], [f"that are {no}{self.v.many(cond.kind)}"]
            return None
        if isinstance(cond, n.IsNone) and attr_of_elem(cond.value):
            name = cond.value.name  # type: ignore[attr-defined]
            kernel = _kernel(cond.value)
            said = kernel.mathml_is_none(cond.negated) if kernel is not None else None
            if said is not None:
                return [], [said]
            word = name.replace("_", " ")
            return [], [f"with {article(word) if cond.negated else 'no ' + word}"]
        if isinstance(cond, n.Has) and elem(cond.value):
            return [], [f"with {article(self.v.one(cond.kind))}"]
        if isinstance(cond, n.Not) and isinstance(cond.value, n.Has) and elem(cond.value.value):
            return [], [f"with no {self.v.one(cond.value.kind)}"]
        if attr_of_elem(cond) and cond.type == "bool":
            return [cond.name.replace("_", " ")], []
        if isinstance(cond, n.Not) and attr_of_elem(cond.value) and cond.value.type == "bool":
            return [], [f"that are not {cond.value.name.replace('_', ' ')}"]
        return None

    def _attr_term(self, node: n.Attr) -> str:
        obj, name = node.obj, node.name
        me = isinstance(obj, n.Name) and obj.ref == "builtin" and obj.id == "me"
        said = self.en(obj)
        if name in self.v.plural:
            noun = self._noun(name)
            if me:
                return f"your {noun}"
            if obj.type == "player":
                return f"{noun} held" if said.startswith("the ") or said == "it" \
                    else f"{noun} held by {esc(said)}"
            return f"{noun} in {esc(said)}"
        word = esc(name.replace("_", " "))
        if me:
            return f"your {word}"
        if isinstance(obj, n.Name) and (said.startswith("the ") or said == "it"):
            return word
        return f"{word} of {esc(said)}"

    # ---------------------------------------------------------- expressions

    def _resolve(self, node: Any) -> Any:
        seen: set[str] = set()
        while isinstance(node, n.Name) and node.ref == "var" and node.id in self._lets \
                and node.id not in seen:
            seen.add(node.id)
            node = self._lets[node.id]
        return node

    def _e(self, node: Any) -> str:
        return _row(self._items(node))

    def _items(self, node: Any) -> list[str]:
        """The MathML elements of an expression, to be put in a row."""
        node = self._resolve(node)
        if node.type == "bool":
            return [_mtext(self._say(node))]
        if isinstance(node, n.Number):
            if node.value < 0:
                return [_mo(MINUS), f"<mn>{-node.value}</mn>"]
            return [f"<mn>{node.value}</mn>"]
        if isinstance(node, n.Arith):
            return self._arith(node)
        if isinstance(node, n.Neg):
            return [_mo(MINUS), self._operand(node.value, "neg")]
        if isinstance(node, n.IfExpr):
            return [self._cases(node)]
        if isinstance(node, n.Call):
            return self._call(node)
        if isinstance(node, n.Attr):
            return [_mtext(self._attr_term(node))]
        if isinstance(node, n.Name) and node.ref == "var" and node.type == "int":
            if len(node.id) == 1:
                return [f"<mi>{esc(node.id)}</mi>"]
            return [_mtext(esc(node.id.replace("_", " ")))]
        if isinstance(node, (n.Collection, n.Filtered)) or \
                (isinstance(node, n.Name) and node.ref in ("kind", "builtin")
                 and (node.type or "").startswith("set:")):
            return [_mtext(self._phrase(node))]
        return [_mtext(self._say(node))]

    def _operand(self, node: Any, where: str) -> str:
        """An operand, in parentheses when the tree groups it against precedence.

        `where` is the place: "first" (of a sum), "+" / "-" (after that operator),
        "*first" / "*" (first in a product, or later), "neg" (under a minus
        sign), "frac" (in a fraction or an argument list).
        """
        node = self._resolve(node)
        level = _level(node)
        items = self._items(node)
        if where == "frac":
            need = False
        elif where in ("neg", "*", "-"):
            need = level in ("add", "neg", "cases")
        elif where == "+":
            need = level in ("neg", "cases")
        elif where == "*first":
            need = level in ("add", "cases")
        else:  # first in a chain
            need = level == "cases"
        return _fenced(items) if need else _row(items)

    def _arith(self, node: n.Arith) -> list[str]:
        if _level(node) == "add":
            items = [self._operand(node.first, "first")]
            for op, e in node.rest:
                items += [_mo({"+": "+", "-": MINUS}.get(op, op)), self._operand(e, op)]
            return items
        # A product: each `/` divides everything before it, rounding down.
        items = [self._operand(node.first, "*first")]
        for op, e in node.rest:
            if op == "/":
                frac = f"<mfrac>{_row(items)}{self._operand(e, 'frac')}</mfrac>"
                items = [_fenced([frac], "\u230a", "\u230b")]
            else:
                items += [_mo("\u00d7"), self._operand(e, "*")]
        return items

    def _cases(self, node: n.IfExpr) -> str:
        rows: list[tuple[str, str]] = []
        x: Any = node
        while isinstance(x, n.IfExpr) and x.type != "bool":
            rows.append((self._e(x.then), f"if {self._say(x.cond)}"))
            x = self._resolve(x.otherwise)
        rows.append((self._e(x), "otherwise"))
        body = "".join(f"<mtr><mtd>{v}</mtd><mtd>{_mtext(c)}</mtd></mtr>" for v, c in rows)
        table = f'<mtable class="piecewise" columnalign="left">{body}</mtable>'
        return f"<mrow>{_mo('{')}{table}</mrow>"

    def _call(self, node: n.Call) -> list[str]:
        if node.defined:
            return [_mtext(self._define_term(node))]
        b = LIBRARY.get(node.func)
        if b is not None:
            said = b.mathml(self, node)
            if said is not None:
                return said
        return [_mtext(self._say(node))]
