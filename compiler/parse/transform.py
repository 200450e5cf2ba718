"""Parse tree -> IR.

One method per grammar rule, construction only: no checks beyond what the
shape of the tree guarantees. Names are left unresolved for `check`.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from lark import Token, v_args
from lark.tree import Meta

from compiler.ir import cards as cd
from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.parse.transform_audits import AuditsMixin
from compiler.parse.transform_facts import FactsTransformer
from compiler.parse.transform_cards import CardsTransformer
from compiler.parse.transform_chance import ChanceMixin
from compiler.parse.transform_simultaneous import SimultaneousMixin
from compiler.parse.transform_turns import TurnsMixin
from compiler.parse.transform_zones import ZonesTransformer


# The longest whole number a rules file may write. Python refuses to read
# numbers of more than 4,300 digits, and no game counts anywhere near this.
MAX_DIGITS = 18

_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.S)
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "0": "\0"}


class SourceProblem(Exception):
    """A value the grammar accepts but the language does not (a number too long to be one)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        self.message = message
        self.hint = hint
        super().__init__(message)


def unquote(token: str) -> str:
    """The text of a STRING token: triple-quoted strings are dedented, others unescaped.

    Escapes are those of Python (`\\"`, `\\n`, `\\u0142`); any other backslash
    stays as written, so no string can fail to be read.
    """
    if token.startswith('"""'):
        body = token[3:-3]
        if body.startswith("\n"):
            body = body[1:]
        return textwrap.dedent(body).strip()
    body = token[1:-1]
    if "\\" not in body:
        return body
    return _ESCAPE.sub(_unescape, body)


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if len(code) > 1:
        return chr(int(code[1:], 16))
    return _ESCAPED.get(code, match.group(0))


class _Tagged:
    """A small marker so optional parts of a production can be told apart."""

    __slots__ = ("tag", "value")

    def __init__(self, tag: str, value: Any) -> None:
        self.tag = tag
        self.value = value


def _tags(children: list[Any]) -> dict[str, Any]:
    return {c.tag: c.value for c in children if isinstance(c, _Tagged)}


@v_args(meta=True)
class ToIR(CardsTransformer, TurnsMixin, SimultaneousMixin, ZonesTransformer, AuditsMixin,
           ChanceMixin, FactsTransformer):
    """Builds IR nodes; `file` is recorded in every location.

    Non-recursive, so deep nesting is reported by `parse_rules` as too deep
    rather than overflowing Python's stack here.
    """

    def __init__(self, file: str) -> None:
        super().__init__()
        self.file = file

    @v_args(inline=False, meta=False)
    def INT(self, token: Token) -> Token:
        """A whole number, refused if it is too long to be a count of anything."""
        if len(token) > MAX_DIGITS:
            raise SourceProblem(f"a number of {len(token):,} digits is too large: numbers in "
                                f"rules files have at most {MAX_DIGITS} digits")
        return token

    def _loc(self, meta: Meta) -> n.Loc | None:
        if getattr(meta, "empty", True):
            return None
        return n.Loc(file=self.file, line=meta.line, column=meta.column,
                     end_line=meta.end_line, end_column=meta.end_column)

    # ------------------------------------------------------------- file level

    def start(self, meta: Meta, items: list[Any]) -> list[Any]:
        return items

    def ruleset(self, meta: Meta, c: list[Any]) -> m.Ruleset:
        t = _tags(c[1:])
        lo, hi = t.get("players", (2, 4))
        return m.Ruleset(
            id=str(c[0]), title=t.get("title", ""), subtitle=t.get("subtitle", ""),
            version=t.get("version", "1"), source=t.get("source", ""),
            pool=t.get("pool", "the pool"),
            extends=t.get("extends"), tiles_from=t.get("tiles_from"), code=t.get("code", ""),
            players_min=lo, players_max=hi,
            seats=t.get("seats", []), contents=t.get("contents", []), loc=self._loc(meta),
            header=sorted(k for k in t if k not in ("extends", "tiles_from", "code")),
        )

    # ------------------------------------------------------------- variants

    _KINDS = {m.Rule: "rule", m.Chapter: "chapter", m.TileSet: "tiles", m.TileDef: "tile",
              m.Term: "term", m.Ruling: "ruling", m.Example: "example", cd.CardSet: "cards",
              cd.CardDef: "card", m.Action: "action", m.Define: "define", m.Effect: "effect",
              m.PlayerAttribute: "player_attribute", m.GameAttribute: "game_attribute",
              m.AreaKind: "area"}

    def replace(self, meta: Meta, c: list[Any]) -> m.Edit:
        item = c[0]
        ident = item.attribute.name if isinstance(item, (m.PlayerAttribute, m.GameAttribute)) \
            else item.id
        return m.Edit(op="replace", kind=self._KINDS[type(item)], ids=[ident], item=item,
                      loc=self._loc(meta))

    def replace_in(self, meta: Meta, c: list[Any]) -> m.Edit:
        kind, *rest = c
        nth = int(rest.pop(0)) if isinstance(rest[0], Token) and rest[0].type == "INT" else None
        return m.Edit(op="replace_in", kind=kind, ids=[str(rest[0])], nth=nth, item=rest[1],
                      loc=self._loc(meta))

    def remove_in(self, meta: Meta, c: list[Any]) -> m.Edit:
        kind, *rest = c
        nth = int(rest.pop(0)) if isinstance(rest[0], Token) and rest[0].type == "INT" else None
        return m.Edit(op="remove_in", kind=kind, ids=[str(rest[0])], nth=nth,
                      loc=self._loc(meta))

    def remove_attribute(self, meta: Meta, c: list[Any]) -> m.Edit:
        return m.Edit(op="remove", kind=f"{c[0]}_attribute", ids=[str(x) for x in c[1:]],
                      loc=self._loc(meta))

    def unnamed(self, meta: Meta, c: list[Any]) -> str:
        return str(c[0])

    def attr_owner(self, meta: Meta, c: list[Any]) -> str:
        return str(c[0])

    def remove(self, meta: Meta, c: list[Any]) -> m.Edit:
        return m.Edit(op="remove", kind=c[0], ids=[str(x) for x in c[1:]], loc=self._loc(meta))

    def add_to(self, meta: Meta, c: list[Any]) -> m.Edit:
        prose = "\n\n".join(i.value for i in c[2:] if isinstance(i, _Tagged) and i.tag == "text")
        return m.Edit(op="add_to", kind=c[0], ids=[str(c[1])], text=prose,
                      items=[i for i in c[2:] if not isinstance(i, _Tagged)],
                      loc=self._loc(meta))

    def remove_every(self, meta: Meta, c: list[Any]) -> m.Edit:
        return m.Edit(op="remove", kind=c[0], ids=["*"], loc=self._loc(meta))

    def removable(self, meta: Meta, c: list[Any]) -> str:
        return str(c[0])

    def addable(self, meta: Meta, c: list[Any]) -> str:
        return str(c[0])

    def extends(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("extends", str(c[0]))

    def tiles_from(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("tiles_from", str(c[0]))

    def title(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("title", unquote(c[0]))

    def subtitle(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("subtitle", unquote(c[0]))

    def code(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("code", unquote(c[0]))

    def pool_name(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("pool", unquote(c[0]))

    def version(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("version", unquote(c[0]))

    def source(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("source", unquote(c[0]))

    def players(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("players", (int(c[0]), int(c[1])))

    def seats(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("seats", list(c))

    def seat(self, meta: Meta, c: list[Any]) -> m.Seat:
        return m.Seat(id=str(c[0]), name=unquote(c[1]) if len(c) > 1 else str(c[0]))

    def contents(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("contents", [str(x) for x in c])

    # ----------------------------------------------------------------- prose

    def _body(self, items: list[Any]) -> tuple[str, list[m.Rule], list[Any]]:
        text = "\n\n".join(i.value for i in items if isinstance(i, _Tagged) and i.tag == "text")
        rules = [i for i in items if isinstance(i, m.Rule)]
        decls = [i for i in items if not isinstance(i, (m.Rule, _Tagged))]
        return text, rules, decls

    def chapter(self, meta: Meta, c: list[Any]) -> m.Chapter:
        text, rules, decls = self._body(c[2:])
        paged = any(isinstance(i, _Tagged) and i.tag == "page_per_rule" for i in c[2:])
        return m.Chapter(id=str(c[0]), title=unquote(c[1]), text=text, rules=rules,
                         decls=decls, page_per_rule=paged, loc=self._loc(meta))

    def page_per_rule(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("page_per_rule", True)

    def rule(self, meta: Meta, c: list[Any]) -> m.Rule:
        rid = c[0]
        text, rules, decls = self._body(c[2:])
        for d in decls:
            cite_rule(d, rid)
        return m.Rule(id=rid, title=unquote(c[1]), text=text, rules=rules, decls=decls,
                      loc=self._loc(meta))

    def rule_id(self, meta: Meta, c: list[Any]) -> str:
        return ".".join(str(x) for x in c)

    def text(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("text", unquote(c[0]))

    def term(self, meta: Meta, c: list[Any]) -> m.Term:
        t = c[2] if len(c) > 2 else {}
        return m.Term(id=str(c[0]), title=unquote(c[1]), text=t.get("text", ""),
                      plural=t.get("plural"), also=t.get("also", []), loc=self._loc(meta))

    def term_body(self, meta: Meta, c: list[Any]) -> dict[str, Any]:
        return _tags(c)

    def plural(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("plural", unquote(c[0]))

    def also(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("also", [unquote(x) for x in c])

    def ruling(self, meta: Meta, c: list[Any]) -> m.Ruling:
        t = _tags(c[2:])
        return m.Ruling(id=str(c[0]), title=unquote(c[1]), question=t.get("question", ""),
                        text=t.get("text", ""), reason=t.get("reason", ""),
                        settles=t.get("settles", []), loc=self._loc(meta))

    def question(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("question", unquote(c[0]))

    def reason(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("reason", unquote(c[0]))

    def settles(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("settles", list(c))

    # ---------------------------------------------------------- declarations

    def lattice(self, meta: Meta, c: list[Any]) -> m.LatticeDecl:
        return m.LatticeDecl(name=str(c[0]), loc=self._loc(meta))

    def edge_decl(self, meta: Meta, c: list[Any]) -> m.EdgeLabel:
        return m.EdgeLabel(id=str(c[0]), title=unquote(c[1]), loc=self._loc(meta))

    def match_same(self, meta: Meta, c: list[Any]) -> m.MatchDecl:
        return m.MatchDecl(same=True, loc=self._loc(meta))

    def match_table(self, meta: Meta, c: list[Any]) -> m.MatchDecl:
        return m.MatchDecl(same=False, pairs=list(c), loc=self._loc(meta))

    def match_pair(self, meta: Meta, c: list[Any]) -> tuple[str, str]:
        return (str(c[0]), str(c[1]))

    def feature_decl(self, meta: Meta, c: list[Any]) -> m.FeatureKind:
        t = _tags(c[2:])
        return m.FeatureKind(id=str(c[0]), title=unquote(c[1]), plural=t.get("plural"),
                             loc=self._loc(meta))

    def area_decl(self, meta: Meta, c: list[Any]) -> m.AreaKind:
        t = _tags(c[2:])
        crosses = [str(x) for x in c[2:] if isinstance(x, Token)]
        body = next((x for x in c if isinstance(x, list)), [])
        holds = [h for x in body if isinstance(x, _Tagged) and x.tag == "holds" for h in x.value]
        attrs = [x for x in body if isinstance(x, m.AttributeDecl)]
        return m.AreaKind(id=str(c[0]), title=unquote(c[1]), plural=t.get("plural"),
                          crosses=crosses, holds=holds, attributes=attrs, loc=self._loc(meta))

    def area_body(self, meta: Meta, c: list[Any]) -> list[Any]:
        return list(c)

    def holds(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("holds", [str(x) for x in c])

    def attribute(self, meta: Meta, c: list[Any]) -> m.AttributeDecl:
        phrase = next((unquote(x) for x in c[2:] if isinstance(x, Token) and x.type == "STRING"),
                      None)
        given = next((x.value for x in c[2:] if isinstance(x, _Tagged) and x.tag == "given"),
                     None)
        recorded = any(isinstance(x, _Tagged) and x.tag == "recorded" for x in c[2:])
        return m.AttributeDecl(name=str(c[0]), type=str(c[1]),  # type: ignore[arg-type]
                               phrase=phrase, reset_each_turn=any(x is True for x in c[2:]),
                               given=given, recorded=recorded, loc=self._loc(meta))

    def recorded(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("recorded", True)

    def given_as(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("given", c[0])

    def reset(self, meta: Meta, c: list[Any]) -> bool:
        return True

    def piece_decl(self, meta: Meta, c: list[Any]) -> m.PieceKind:
        t = _tags(c[2:])
        return m.PieceKind(id=str(c[0]), title=unquote(c[1]), plural=t.get("plural"),
                           on=t.get("on"), above=t.get("above", []), counts_as=t.get("counts_as"),
                           loc=self._loc(meta))

    def counts_as(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("counts_as", str(c[0]))

    def stacks_on(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("on", str(c[0]))

    def stands_above(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("above", [str(x) for x in c])

    def resource_decl(self, meta: Meta, c: list[Any]) -> m.ResourceKind:
        t = _tags(c[2:])
        return m.ResourceKind(id=str(c[0]), title=unquote(c[1]), plural=t.get("plural"),
                              limit=t.get("limit"), loc=self._loc(meta))

    def family_decl(self, meta: Meta, c: list[Any]) -> m.FamilyDecl:
        t = _tags(c[2:])
        members = [str(x) for x in c[2:] if isinstance(x, Token) and x.type == "NAME"]
        return m.FamilyDecl(id=str(c[0]), title=unquote(c[1]), plural=t.get("plural"),
                            members=members, loc=self._loc(meta))

    def player_attr_decl(self, meta: Meta, c: list[Any]) -> m.PlayerAttribute:
        secret = [x for x in c if isinstance(x, Token) and x.type == "SECRET"]
        attr = self.attribute(meta, [x for x in c if x not in secret])
        attr.secret = bool(secret)
        return m.PlayerAttribute(attribute=attr, loc=self._loc(meta))

    def limited(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("limit", int(c[0]))

    def unlimited(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("limit", None)

    def score_decl(self, meta: Meta, c: list[Any]) -> m.ScoreDecl:
        return m.ScoreDecl(resource=str(c[0]), loc=self._loc(meta))

    def supply_decl(self, meta: Meta, c: list[Any]) -> m.SupplyTable:
        return m.SupplyTable(rows=dict(c), loc=self._loc(meta))

    def supply_row(self, meta: Meta, c: list[Any]) -> tuple[int, dict[str, int]]:
        return (int(c[0]), dict(c[1:]))

    def supply_count(self, meta: Meta, c: list[Any]) -> tuple[str, int]:
        return (str(c[0]), int(c[1]))

    def teams_decl(self, meta: Meta, c: list[Any]) -> m.TeamsDecl:
        return m.TeamsDecl(rows=dict(c), loc=self._loc(meta))

    def team_row(self, meta: Meta, c: list[Any]) -> tuple[int, list[list[str]]]:
        return (int(c[0]), list(c[1:]))

    def team(self, meta: Meta, c: list[Any]) -> list[str]:
        return [str(x) for x in c]

    def stacks_decl(self, meta: Meta, c: list[Any]) -> m.ZoneDecl:
        """`stacks N …` is shorthand for the shared, ordered zone of N face-down piles whose
        top tiles show (the engine adds the zone of tiles set aside out of the game)."""
        hiding = next((x for x in c[1:] if isinstance(x, list)), [])
        rows = next((x for x in c[1:] if isinstance(x, tuple)), ())
        dealt = {players: count for players, count, _ in rows}
        dealt_from = {players: sets for players, _, sets in rows if sets}
        return m.ZoneDecl(id="stacks", title="stack", plural="stacks", per_player=False,
                          ordered=True, piles=int(c[0]), visible="top", hiding=hiding,
                          dealt=dealt, dealt_from=dealt_from, legacy=True, loc=self._loc(meta))

    def dealing(self, meta: Meta, c: list[Any]) -> tuple[tuple[int, int, list[str]], ...]:
        return tuple(c)

    def deal_row(self, meta: Meta, c: list[Any]) -> tuple[int, int, list[str]]:
        return (int(c[0]), int(c[1]), [str(x) for x in c[2:]])

    def copies(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("copies", (str(c[0]), unquote(c[1])))

    def hiding(self, meta: Meta, c: list[Any]) -> list[str]:
        return [str(x) for x in c]

    def first_tile_decl(self, meta: Meta, c: list[Any]) -> m.FirstTileDecl:
        x, y = c[0].rpartition("/")[2].split(",")  # every board's origin: no seat
        return m.FirstTileDecl(cell=(int(x), int(y)), loc=self._loc(meta))

    def board_decl(self, meta: Meta, c: list[Any]) -> m.BoardDecl:
        return m.BoardDecl(id=str(c[0]), title=unquote(c[1]), loc=self._loc(meta))

    def use_tiles(self, meta: Meta, c: list[Any]) -> m.UseTiles:
        return m.UseTiles(tilesets=[str(x) for x in c], loc=self._loc(meta))

    def step_decl(self, meta: Meta, c: list[Any]) -> m.StepDecl:
        who, order = ("active", None)
        if isinstance(c[2], tuple) and len(c[2]) == 2:  # `each player (in ORDER)?`
            who, order = c[2]
            c = c[:2] + c[3:]
        at_once = who == "each_at_once"  # `each player at once` (transform_simultaneous.py)
        if at_once:
            who = "each"
        mode, actions, _ = c[2]
        also = c[3].value if len(c) > 3 else []
        return m.StepDecl(id=str(c[0]), title=unquote(c[1]), mode=mode, actions=actions,
                          also=also, who=who, order=order, at_once=at_once,
                          loc=self._loc(meta))

    def _mode(self, mode: str, c: list[Any]) -> tuple[str, list[str], list[str]]:
        return (mode, [str(x) for x in c if isinstance(x, Token) and x.type == "NAME"], [])

    def must_one(self, meta: Meta, c: list[Any]) -> tuple[str, list[str], list[str]]:
        return self._mode("must_one", c)

    def may_one(self, meta: Meta, c: list[Any]) -> tuple[str, list[str], list[str]]:
        return self._mode("may_one", c)

    def may_any(self, meta: Meta, c: list[Any]) -> tuple[str, list[str], list[str]]:
        return self._mode("may_any", c)

    def automatic(self, meta: Meta, c: list[Any]) -> tuple[str, list[str], list[str]]:
        return self._mode("automatic", c)

    def step_also(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("also", [str(x) for x in c])

    def end_decl(self, meta: Meta, c: list[Any]) -> m.EndDecl:
        return m.EndDecl(cond=c[0], loc=self._loc(meta))

    def winner_decl(self, meta: Meta, c: list[Any]) -> m.WinnerDecl:
        return m.WinnerDecl(order=list(c), loc=self._loc(meta))

    def tiebreak(self, meta: Meta, c: list[Any]) -> m.Tiebreak:
        return m.Tiebreak(direction=str(c[0]), expr=c[1], loc=self._loc(meta))  # type: ignore[arg-type]

    def look_decl(self, meta: Meta, c: list[Any]) -> m.Look:
        return m.Look(target=str(c[0]), shape=str(c[1]), color=unquote(c[2]), loc=self._loc(meta))

    def define(self, meta: Meta, c: list[Any]) -> m.Define:
        params = next((x for x in c if isinstance(x, list)), [])
        title = next((unquote(x) for x in c[1:] if isinstance(x, Token) and x.type == "STRING"),
                     None)
        return m.Define(id=str(c[0]), params=params, title=title, expr=c[-1],
                        loc=self._loc(meta))

    def condition(self, meta: Meta, c: list[Any]) -> m.Define:
        d = self.define(meta, c)
        d.cited = True
        return d

    def effect(self, meta: Meta, c: list[Any]) -> m.Effect:
        params = next((x for x in c[1:-1] if isinstance(x, list)), [])
        title = next((unquote(x) for x in c[1:] if isinstance(x, Token) and x.type == "STRING"),
                     None)
        return m.Effect(id=str(c[0]), params=params, title=title, body=c[-1],
                        loc=self._loc(meta))

    def params(self, meta: Meta, c: list[Any]) -> list[str]:
        return [str(x) for x in c]

    # --------------------------------------------------------------- actions

    def action(self, meta: Meta, c: list[Any]) -> m.Action:
        items = c[2:]
        notation = next((i.value for i in items if isinstance(i, _Tagged)
                         and i.tag == "notation"), None)
        alongside = next((i.value for i in items if isinstance(i, _Tagged)
                          and i.tag == "alongside"), [])
        return m.Action(
            id=str(c[0]), title=unquote(c[1]), notation=notation, alongside=alongside,
            params=[i for i in items if isinstance(i, m.Choose)],
            requires=[i for i in items if isinstance(i, m.Require)],
            effects=[i for i in items if isinstance(i, n.Stmt)],
            loc=self._loc(meta),
        )

    def alongside(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("alongside", [str(x) for x in c])

    def notation(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("notation", unquote(c[0]))

    def choose(self, meta: Meta, c: list[Any]) -> m.Choose:
        subset = isinstance(c[0], Token) and c[0].type == "SOME"
        rest = c[1:] if subset else c
        cite = next((x.value for x in rest if isinstance(x, _Tagged) and x.tag == "cite"), None)
        return m.Choose(name=str(rest[0]), domain=rest[1], subset=subset, rule=cite,
                        loc=self._loc(meta))

    def require(self, meta: Meta, c: list[Any]) -> m.Require:
        t = _tags(c[1:])
        return m.Require(cond=c[0], message=t.get("message"), rule=t.get("cite"),
                         loc=self._loc(meta))

    def message(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("message", unquote(c[0]))

    def cite(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("cite", c[0])

    def forbid(self, meta: Meta, c: list[Any]) -> m.Forbid:
        names = [str(x) for x in c if isinstance(x, Token) and x.type == "NAME"]
        t = _tags(c)
        cond = next(x for x in c if isinstance(x, n.Node))
        if len(names) == 3:
            kind, piece_var, site_var = names
        else:
            kind, site_var = names
            piece_var = None
        f = m.Forbid(kind=kind, piece_var=piece_var, site_var=site_var,
                     actions=t.get("by", []), cond=cond, message=t.get("message"),
                     loc=self._loc(meta))
        if "cite" in t:
            f.rule = t["cite"]
        return f

    def by_actions(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("by", [str(x) for x in c])

    # -------------------------------------------------------------- triggers

    def when_trigger(self, meta: Meta, c: list[Any]) -> m.Trigger:
        event = c[0]
        t = _tags(c[1:])
        body = c[-1]
        return m.Trigger(event=event, where=t.get("where"), defer_to=t.get("defer"),
                         after=t.get("after"), body=body, loc=self._loc(meta))

    def at_trigger(self, meta: Meta, c: list[Any]) -> m.Trigger:
        moment = str(c[0])
        target, step = c[1]
        rnd = step if target == "round" else None
        ev = m.Event(type="moment", moment=moment, target=target,  # type: ignore[arg-type]
                     step=None if rnd else step, round=rnd, loc=self._loc(meta))
        return m.Trigger(event=ev, after=_tags(c[2:-1]).get("after"), body=c[-1],
                         loc=self._loc(meta))

    def step_target(self, meta: Meta, c: list[Any]) -> tuple[str, str]:
        return ("step", str(c[0]))

    def turn_target(self, meta: Meta, c: list[Any]) -> tuple[str, None]:
        return ("turn", None)

    def game_target(self, meta: Meta, c: list[Any]) -> tuple[str, None]:
        return ("game", None)

    def closes_event(self, meta: Meta, c: list[Any]) -> m.Event:
        return m.Event(type="closes", kind=str(c[0]), var=str(c[1]), loc=self._loc(meta))

    def laid_event(self, meta: Meta, c: list[Any]) -> m.Event:
        return m.Event(type="laid", var=str(c[0]), loc=self._loc(meta))

    def enters_event(self, meta: Meta, c: list[Any]) -> m.Event:
        return m.Event(type="enters", kind=str(c[0]), var=str(c[1]), site_var=str(c[2]),
                       loc=self._loc(meta))

    def leaves_event(self, meta: Meta, c: list[Any]) -> m.Event:
        return m.Event(type="leaves", kind=str(c[0]), var=str(c[1]), site_var=str(c[2]),
                       loc=self._loc(meta))

    def returns_event(self, meta: Meta, c: list[Any]) -> m.Event:
        return m.Event(type="returns", kind=str(c[0]), var=str(c[1]), loc=self._loc(meta))

    def where(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("where", c[0])

    def deferral(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("defer", str(c[0]))

    def run_after(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("after", str(c[0]))

    # ------------------------------------------------------------ statements

    def block(self, meta: Meta, c: list[Any]) -> list[Any]:
        return list(c)

    def place(self, meta: Meta, c: list[Any]) -> n.Place:
        t = _tags(c[1:])
        return n.Place(kind=str(c[0]), owner=t.get("owner"), at=c[-1], loc=self._loc(meta))

    def owner(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("owner", c[0])

    def stack(self, meta: Meta, c: list[Any]) -> n.StackOn:
        owner = next((x.value for x in c[1:-1] if isinstance(x, _Tagged)), None)
        return n.StackOn(kind=str(c[0]), on=c[-1], owner=owner, loc=self._loc(meta))

    def return_(self, meta: Meta, c: list[Any]) -> n.Return:
        return n.Return(what=c[0], loc=self._loc(meta))

    def give(self, meta: Meta, c: list[Any]) -> n.Give:
        t = _tags(c)
        return n.Give(amount=c[0], resource=str(c[1]), source=t.get("from"), target=c[-1],
                      loc=self._loc(meta))

    def draw(self, meta: Meta, c: list[Any]) -> n.Draw:
        return n.Draw(count=c[0], source=c[1], target=c[2], kinds=[str(x) for x in c[3:]],
                      loc=self._loc(meta))

    def from_holder(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("from", c[0])

    def set_attr(self, meta: Meta, c: list[Any]) -> n.SetAttr:
        return n.SetAttr(target=_attribute(c[0], "set"), value=c[1], loc=self._loc(meta))

    def clear_attr(self, meta: Meta, c: list[Any]) -> n.ClearAttr:
        return n.ClearAttr(target=_attribute(c[0], "clear"), loc=self._loc(meta))

    def grant_one(self, meta: Meta, c: list[Any]) -> n.GrantOne:
        must = isinstance(c[0], Token) and c[0].type == "MUST"
        if must:
            c = c[1:]
        to = next((x.value for x in c[1:] if isinstance(x, _Tagged)), None)
        bindings = next((x for x in c[1:] if isinstance(x, list)), [])
        names = [str(x) for x in c if isinstance(x, Token) and x.type == "NAME"]
        return n.GrantOne(action=names[0], alternatives=names[1:], to=to, bindings=bindings,
                          must=must, loc=self._loc(meta))

    def grant_to(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("to", c[0])

    def grant_with(self, meta: Meta, c: list[Any]) -> list[tuple[str, Any]]:
        return list(c)

    def binding(self, meta: Meta, c: list[Any]) -> tuple[str, Any]:
        return (str(c[0]), c[1])

    def grant_many(self, meta: Meta, c: list[Any]) -> n.GrantMany:
        return n.GrantMany(count=c[0], actions=[str(x) for x in c[1:]], loc=self._loc(meta))

    def for_each(self, meta: Meta, c: list[Any]) -> n.ForEach:
        return n.ForEach(var=str(c[0]), collection=c[1], body=c[2], loc=self._loc(meta))

    def if_stmt(self, meta: Meta, c: list[Any]) -> n.If:
        otherwise = c[2] if len(c) > 2 else []
        return n.If(cond=c[0], then=c[1], otherwise=otherwise, loc=self._loc(meta))

    def else_part(self, meta: Meta, c: list[Any]) -> list[Any]:
        return c[0] if isinstance(c[0], list) else [c[0]]

    def let(self, meta: Meta, c: list[Any]) -> n.Let:
        return n.Let(name=str(c[0]), value=c[1], loc=self._loc(meta))

    def lay(self, meta: Meta, c: list[Any]) -> n.Lay:
        t = _tags(c[1:])
        cell = next(x for x in c[1:] if not isinstance(x, _Tagged))
        return n.Lay(card=c[0], source=t.get("from"), face=t.get("face"), cell=cell,
                     rotation=t.get("rotation"), loc=self._loc(meta))

    def lay_face(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("face", c[0])

    def lay_rotation(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("rotation", c[0])

    def discard(self, meta: Meta, c: list[Any]) -> n.Discard:
        return n.Discard(card=c[0], loc=self._loc(meta))

    def remove_tile(self, meta: Meta, c: list[Any]) -> n.RemoveTile:
        return n.RemoveTile(tile=c[0], zone=str(c[1]), loc=self._loc(meta))

    def turn_down(self, meta: Meta, c: list[Any]) -> n.TurnDown:
        return n.TurnDown(tile=c[0], loc=self._loc(meta))

    def apply(self, meta: Meta, c: list[Any]) -> n.Apply:
        return n.Apply(effect=str(c[0]), args=[a for a in c[1:] if a is not None],
                       loc=self._loc(meta))

    # ----------------------------------------------------------- expressions

    def if_expr(self, meta: Meta, c: list[Any]) -> n.IfExpr:
        return n.IfExpr(cond=c[0], then=c[1], otherwise=c[2], loc=self._loc(meta))

    def filtered(self, meta: Meta, c: list[Any]) -> n.Filtered:
        return n.Filtered(collection=c[0], cond=c[1], loc=self._loc(meta))

    def or_op(self, meta: Meta, c: list[Any]) -> Any:
        return c[0] if len(c) == 1 else n.Logic(op="or", items=list(c), loc=self._loc(meta))

    def and_op(self, meta: Meta, c: list[Any]) -> Any:
        return c[0] if len(c) == 1 else n.Logic(op="and", items=list(c), loc=self._loc(meta))

    def not_op(self, meta: Meta, c: list[Any]) -> n.Not:
        return n.Not(value=c[0], loc=self._loc(meta))

    def compare(self, meta: Meta, c: list[Any]) -> n.Compare:
        return n.Compare(op=str(c[1]), left=c[0], right=c[2], loc=self._loc(meta))  # type: ignore[arg-type]

    def _negated(self, c: list[Any]) -> tuple[bool, list[Any]]:
        neg = any(isinstance(x, Token) and x.type == "NOT" for x in c)
        return neg, [x for x in c if not (isinstance(x, Token) and x.type == "NOT")]

    def is_kind(self, meta: Meta, c: list[Any]) -> n.IsKind:
        neg, c = self._negated(c)
        return n.IsKind(value=c[0], kind=str(c[1]), negated=neg, loc=self._loc(meta))

    def is_none(self, meta: Meta, c: list[Any]) -> n.IsNone:
        neg, c = self._negated(c)
        return n.IsNone(value=c[0], negated=neg, loc=self._loc(meta))

    def is_in(self, meta: Meta, c: list[Any]) -> n.IsIn:
        neg, c = self._negated(c)
        return n.IsIn(value=c[0], collection=c[1], negated=neg, loc=self._loc(meta))

    def has(self, meta: Meta, c: list[Any]) -> n.Has:
        return n.Has(value=c[0], kind=str(c[1]), loc=self._loc(meta))

    def arith(self, meta: Meta, c: list[Any]) -> Any:
        if len(c) == 1:
            return c[0]
        rest = [(str(c[i]), c[i + 1]) for i in range(1, len(c), 2)]
        return n.Arith(first=c[0], rest=rest, loc=self._loc(meta))  # type: ignore[arg-type]

    def neg(self, meta: Meta, c: list[Any]) -> n.Neg:
        return n.Neg(value=c[0], loc=self._loc(meta))

    def collection(self, meta: Meta, c: list[Any]) -> n.Collection:
        t = _tags(c[1:])
        return n.Collection(source=c[0], alias=t.get("alias"), within=t.get("within"),
                            owner=t.get("owned"), loc=self._loc(meta))

    def alias(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("alias", str(c[0]))

    def within(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("within", c[0])

    def owned(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("owned", c[0])

    def attr(self, meta: Meta, c: list[Any]) -> n.Attr:
        return n.Attr(obj=c[0], name=str(c[1]), loc=self._loc(meta))

    def number(self, meta: Meta, c: list[Any]) -> n.Number:
        return n.Number(value=int(c[0]), loc=self._loc(meta))

    def string(self, meta: Meta, c: list[Any]) -> n.Text:
        return n.Text(value=unquote(c[0]), loc=self._loc(meta))

    def name(self, meta: Meta, c: list[Any]) -> n.Name:
        return n.Name(id=str(c[0]), loc=self._loc(meta))

    def none(self, meta: Meta, c: list[Any]) -> n.NoneValue:
        return n.NoneValue(loc=self._loc(meta))

    def true(self, meta: Meta, c: list[Any]) -> n.Boolean:
        return n.Boolean(value=True, loc=self._loc(meta))

    def false(self, meta: Meta, c: list[Any]) -> n.Boolean:
        return n.Boolean(value=False, loc=self._loc(meta))

    def call(self, meta: Meta, c: list[Any]) -> n.Call:
        return n.Call(func=str(c[0]), args=list(c[1:]), loc=self._loc(meta))

    # ------------------------------------------------------------- tile sets

    def tileset(self, meta: Meta, c: list[Any]) -> m.TileSet:
        tags = _tags(c[2:])
        copy_of, suffix = tags.get("copies", (None, ""))
        return m.TileSet(id=str(c[0]), title=unquote(c[1]), text=tags.get("text", ""),
                         tiles=[x for x in c[2:] if isinstance(x, m.TileDef)],
                         copy_of=copy_of, suffix=suffix, loc=self._loc(meta))

    def tile(self, meta: Meta, c: list[Any]) -> m.TileDef:
        return m.TileDef(id=str(c[0]), faces=list(c[1:]), loc=self._loc(meta))

    def face(self, meta: Meta, c: list[Any]) -> m.Face:
        labels = [str(x) for x in c[1:] if isinstance(x, Token)]
        segs = [x for x in c[1:] if isinstance(x, m.Segment)]
        return m.Face(name=str(c[0]), edges=labels, segments=segs, loc=self._loc(meta))

    def segment(self, meta: Meta, c: list[Any]) -> m.Segment:
        t = _tags(c[1:])
        return m.Segment(kind=str(c[0]), edges=t.get("edges", []),
                         features=t.get("features", []), loc=self._loc(meta))

    def edge_list(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("edges", [int(x) for x in c])

    def features(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("features", [str(x) for x in c])

    # ------------------------------------------------------------- examples

    def example(self, meta: Meta, c: list[Any]) -> m.Example:
        ex = m.Example(id=str(c[0]), title=unquote(c[1]), loc=self._loc(meta))
        for item in c[2:]:
            if isinstance(item, _Tagged):
                if item.tag == "text":
                    ex.text = "\n\n".join(x for x in (ex.text, item.value) if x)
                elif item.tag == "illustrates":
                    ex.illustrates += item.value
                elif item.tag == "given":
                    ex.given += item.value
                elif item.tag == "play":
                    ex.play.append(item.value)
                elif item.tag == "end_game":
                    ex.end_game = True
            elif isinstance(item, m.PositionFact):
                ex.expect.append(item)
        return ex

    def illustrates(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("illustrates", list(c))

    def given(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("given", list(c))

    def play(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("play", unquote(c[0]))

    def end_game(self, meta: Meta, c: list[Any]) -> _Tagged:
        return _Tagged("end_game", True)

    def _fact(self, meta: Meta, fact: str, args: list[Any]) -> m.PositionFact:
        return m.PositionFact(fact=fact, args=args, loc=self._loc(meta))  # type: ignore[arg-type]

    def pos_players(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "players", [str(x) for x in c])

    def pos_turn(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        placed = c[3] if len(c) > 3 else None
        return self._fact(meta, "turn", [int(c[0]), str(c[1]), str(c[2]), placed])

    def placed(self, meta: Meta, c: list[Any]) -> str:
        return c[0]

    def pos_tile(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "tile", [str(c[0]), str(c[1]), c[2], int(c[3])])

    def pos_piece(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "piece", [str(c[0]), str(c[1]), c[2]])

    def pos_amount(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "amount", [str(c[0]), c[1], c[2]])

    def pos_area(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "area", [c[0], str(c[1]), c[2]])

    def pos_player(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "player", [str(c[0]), str(c[1]), c[2]])

    def pos_supply(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "supply", [str(c[0]), str(c[1]), int(c[2])])

    def pos_stacks(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "stacks", list(c))

    def tile_stack(self, meta: Meta, c: list[Any]) -> list[str | None]:
        return [x if x is None else str(x) for x in c]

    def unknown_tile(self, meta: Meta, c: list[Any]) -> None:
        return None

    def stack_entry(self, meta: Meta, c: list[Any]) -> str:
        return str(c[0])

    def holder(self, meta: Meta, c: list[Any]) -> str:
        return str(c[0])

    def pool_holder(self, meta: Meta, c: list[Any]) -> str:
        return "pool"

    def value(self, meta: Meta, c: list[Any]) -> str | int:
        return c[0] if isinstance(c[0], int) else str(c[0])

    def none_value(self, meta: Meta, c: list[Any]) -> None:
        return None

    def true_value(self, meta: Meta, c: list[Any]) -> str:
        return "true"

    def false_value(self, meta: Meta, c: list[Any]) -> str:
        return "false"

    def expect_legal(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "legal", [])

    def expect_illegal(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "illegal", list(c))

    def expect_amount(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "amount", [str(c[0]), c[1], int(c[2])])

    def expect_delta(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        sign = -1 if str(c[2]) == "-" else 1
        return self._fact(meta, "delta", [str(c[0]), c[1], sign * int(c[3])])

    def expect_piece(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "piece", [str(c[0]), str(c[1]), c[2]])

    def expect_no_piece(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "no_piece", [str(c[0]), c[1]])

    def expect_area(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "area", [c[0], str(c[1]), c[2]])

    def expect_player(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "player", [str(c[0]), str(c[1]), c[2]])

    def expect_closed(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "closed", [c[0]])

    def expect_open(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "open", [c[0]])

    def expect_supply(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "supply", [str(c[0]), str(c[1]), int(c[2])])

    def expect_winner(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "winner", [str(x) for x in c])

    def expect_step(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "step", [str(c[0])])

    def site(self, meta: Meta, c: list[Any]) -> str:
        return f"{c[0]}:{c[1]}"

    def cell(self, meta: Meta, c: list[Any]) -> str:
        if len(c) == 3:  # a cell on a player's board
            return f"{c[0]}/{c[1]},{c[2]}"
        return f"{c[0]},{c[1]}"

    def signed(self, meta: Meta, c: list[Any]) -> int:
        return -int(c[-1]) if len(c) > 1 else int(c[0])


def _attribute(target: Any, verb: str) -> n.Attr:
    """The attribute a `set` or `clear` changes; the grammar lets any value stand there."""
    if not isinstance(target, n.Attr):
        ending = " to VALUE`" if verb == "set" else "`"
        raise SourceProblem(f"`{verb}` changes an attribute of something",
                            hint=f"write `{verb} THING.ATTRIBUTE{ending}")
    return target


# `return` is a Python keyword: route the grammar rule to `return_`.
setattr(ToIR, "return", ToIR.return_)


def cite_rule(decl: Any, rule_id: str) -> None:
    """Stamp a declaration (and its clauses) with the rule it sits in, unless cited otherwise."""
    if hasattr(decl, "rule") and decl.rule is None:
        decl.rule = rule_id
    if isinstance(decl, m.Action):
        for clause in [*decl.params, *decl.requires]:
            if clause.rule is None:
                clause.rule = rule_id
    for stmt in getattr(decl, "effects", []) + getattr(decl, "body", []):
        _cite_stmt(stmt, rule_id)
    for breach in getattr(decl, "breaches", []):  # an audit's breaches, unless `per` another
        if breach.rule is None:
            breach.rule = rule_id


def _cite_stmt(stmt: Any, rule_id: str) -> None:
    if stmt.rule is None:
        stmt.rule = rule_id
    for attr in ("body", "then", "otherwise"):
        inner = getattr(stmt, attr, None)
        for s in inner if isinstance(inner, list) else [inner] if inner is not None else []:
            _cite_stmt(s, rule_id)
