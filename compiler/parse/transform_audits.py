"""Parse tree -> IR for audits: `audit NAME "…" { breach "…" per RULE in COLLECTION }`
and the expectations `expect breach RULE at WHERE` / `expect no breach`.

A mixin of `ToIR`, kept apart so the slice that added audits touches the
shared transformer in one line; construction only, as everywhere in parsing.
"""

from __future__ import annotations

from typing import Any

from lark import Transformer_NonRecursive, v_args
from lark.tree import Meta

from compiler.ir import model as m


@v_args(meta=True)
class AuditsMixin(Transformer_NonRecursive):
    """The transformer methods of the audits section of `grammar/rules.lark`."""

    def audit_decl(self, meta: Meta, c: list[Any]) -> m.AuditDecl:
        from compiler.parse.transform import unquote
        return m.AuditDecl(id=str(c[0]), title=unquote(c[1]), breaches=list(c[2:]),
                           loc=self._loc(meta))  # type: ignore[attr-defined]

    def breach(self, meta: Meta, c: list[Any]) -> m.BreachDecl:
        from compiler.parse.transform import _Tagged, unquote
        cite = next((x.value for x in c if isinstance(x, _Tagged) and x.tag == "cite"), None)
        return m.BreachDecl(message=unquote(c[0]), collection=c[-1], rule=cite,
                            loc=self._loc(meta))  # type: ignore[attr-defined]

    def breach_at(self, meta: Meta, c: list[Any]) -> str:
        return "/".join(str(x) for x in c)  # `red/1,0`: a cell of a player's board

    def expect_breach(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        where = c[1] if len(c) > 1 else None
        return self._fact(meta, "breach", [str(c[0]), where])  # type: ignore[attr-defined]

    def expect_no_breach(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "no_breach", [])  # type: ignore[attr-defined]
