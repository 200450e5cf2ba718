"""Semantic checks on a parsed ruleset.

`check_ruleset` builds the symbol table, resolves every name, infers every
type, validates the tile catalogue and the prose references, and numbers the
chapters, rules, rulings and examples still unnumbered (compiler.numbering: a
variant's base was numbered before the variant edited it). It reports every problem it finds, not
just the first, each with a location and, for unknown names, a suggestion.
"""

from __future__ import annotations

from typing import Any

from compiler.check import cards
from compiler.check import zones as zone_checks
from compiler.check.audits import AuditChecks
from compiler.check.chance import check_start
from compiler.check.simultaneous import SimultaneousChecks
from compiler.check.symbols import EVENT_VALUES, MAX_PLAYERS, Symbols
from compiler.check.trigger_order import check_trigger_order
from compiler.check.turns import TurnsChecks
from compiler.check.examples import ExampleFactChecks
from compiler.check.facts import PositionFactChecks
from compiler.check.types import Scope, TypeChecker, fits, words
from compiler.diagnostics import Diagnostic, SourceMap, did_you_mean
from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.ir.prose import GENERATED_PAGES, prose_refs
from compiler.kernel.lattice import LATTICES
from compiler import numbering
from compiler.numbering import code_problem, inherited_code_clash


class Checker(TurnsChecks, AuditChecks, SimultaneousChecks, ExampleFactChecks,
              PositionFactChecks):
    def __init__(self, ruleset: m.Ruleset, sources: SourceMap) -> None:
        self.rs = ruleset
        self.src = sources
        self.diagnostics: list[Diagnostic] = []
        self.sy = Symbols(seats=list(ruleset.seats))
        self.types = TypeChecker(self.sy, self.report)

    def report(self, loc: n.Loc | None, code: str, message: str, *, hint: str | None = None,
               severity: str = "error", focus: str | None = None) -> None:
        if focus is None:
            focus = _focus_of(message)
        focus = focus or None
        self.diagnostics.append(self.src.diagnostic(
            loc, code, message, hint=hint, severity=severity,  # type: ignore[arg-type]
            fallback_file=self.rs.files[0] if self.rs.files else "<ruleset>", focus=focus))

    # ---------------------------------------------------------------- run

    def run(self) -> list[Diagnostic]:
        self.collect()
        self.check_structure()
        self.check_decls()
        self.check_simultaneous()
        self.check_tiles()
        self.check_prose()
        if not any(d.severity == "error" for d in self.diagnostics):
            self.check_reach()
            check_trigger_order(self, self.rs)
        self.number()
        return self.diagnostics

    # ------------------------------------------------------------ symbols

    def _unique(self, table: dict[str, Any], key: str, item: Any, what: str) -> None:
        if key in table:
            first = table[key]
            where = f" (first declared at {first.loc})" if getattr(first, "loc", None) else ""
            self.report(item.loc, "duplicate", f"{what} `{key}` is declared twice{where}")
        else:
            table[key] = item

    def collect(self) -> None:
        sy = self.sy
        for ch in self.rs.chapters:
            self._unique(sy.chapters, ch.id, ch, "chapter")
        for r in self.rs.all_rules():
            self._unique(sy.rules, r.id, r, "rule")
        for t in self.rs.terms:
            self._unique(sy.terms, t.id, t, "term")
        for r in self.rs.rulings:
            self._unique(sy.rulings, r.id, r, "ruling")
        for e in self.rs.examples:
            self._unique(sy.examples, e.id, e, "example")
        for ts in self.rs.tilesets:
            self._unique(sy.tilesets, ts.id, ts, "tile set")
            for t in ts.tiles:
                self._unique(sy.cards, t.id, t, "tile")
        kinds: dict[str, Any] = {}
        for d in self.rs.all_decls():
            if isinstance(d, m.BoardDecl):
                sy.boards_per_player = True
            if isinstance(d, m.ZoneDecl) and not d.legacy:
                sy.zone_ids.append(d.id)
            if isinstance(d, m.LatticeDecl):
                if d.name not in LATTICES:
                    self.report(d.loc, "unknown-name", f"unknown lattice `{d.name}`",
                                hint=did_you_mean(d.name, LATTICES))
                else:
                    sy.lattice = d.name
            elif isinstance(d, m.EdgeLabel):
                self._unique(sy.edges, d.id, d, "edge label")
            elif isinstance(d, (m.FeatureKind, m.AreaKind, m.PieceKind, m.ResourceKind)):
                self._unique(kinds, d.id, d, "kind")
                category = {m.FeatureKind: "feature", m.AreaKind: "area", m.PieceKind: "piece",
                            m.ResourceKind: "resource"}[type(d)]
                sy.kinds.setdefault(d.id, (category, d))
            elif isinstance(d, m.Action):
                self._unique(sy.actions, d.id, d, "action")
            elif isinstance(d, m.StepDecl):
                self._unique(sy.steps, d.id, d, "step")
            elif isinstance(d, m.Define):
                self._unique(sy.defines, d.id, d, "definition")
            elif isinstance(d, m.Effect):
                self._unique(sy.effects, d.id, d, "effect")
            elif isinstance(d, m.FamilyDecl):
                self._unique(kinds, d.id, d, "kind")
                sy.kinds.setdefault(d.id, ("family", d))
                sy.families.setdefault(d.id, d)
            elif isinstance(d, m.PlayerAttribute):
                a = d.attribute
                self._unique(sy.player_attrs, a.name, a, "player attribute")
            elif isinstance(d, m.ScoreDecl):
                sy.score = d.resource
            elif isinstance(d, m.AuditDecl):
                self._unique(sy.audits, d.id, d, "audit")
        member_of: dict[str, str] = {}
        for fam in sy.families.values():
            for r in fam.members:
                if sy.category(r) != "resource":
                    self.report(fam.loc, "unknown-name", f"family `{fam.id}` names unknown "
                                f"resource `{r}`", hint=did_you_mean(r, sy.of("resource")))
                elif r in member_of:
                    self.report(fam.loc, "duplicate", f"resource `{r}` is already in family "
                                f"`{member_of[r]}`")
                member_of.setdefault(r, fam.id)
        for a in sy.player_attrs.values():
            if sy.category(a.name) == "resource" or a.name in sy.families:
                self.report(a.loc, "duplicate", f"player attribute `{a.name}` has the name of a "
                            f"resource, which players hold too")
        for d in self.rs.all_decls():
            if isinstance(d, m.AreaKind):
                # A family stands for all its members: the area holds each.
                d.holds = [r for h in d.holds
                           for r in (sy.families[h].members if h in sy.families else [h])]
                for a in d.attributes:
                    prior = sy.area_attrs.get(a.name)
                    if prior is not None and prior.type != a.type:
                        self.report(a.loc, "type", f"attribute `{a.name}` is {a.type} here but "
                                                   f"{prior.type} on another area kind")
                    sy.area_attrs.setdefault(a.name, a)
                for r in d.holds:
                    if sy.category(r) != "resource":
                        self.report(d.loc, "unknown-name", f"`{d.id}` holds unknown resource `{r}`",
                                    hint=did_you_mean(r, sy.of("resource")))
                    sy.area_holds.setdefault(r, set()).add(d.id)
                for e in d.crosses:
                    if e not in sy.edges:
                        self.report(d.loc, "unknown-name", f"`{d.id}` crosses unknown edge `{e}`",
                                    hint=did_you_mean(e, sy.edges))
            if isinstance(d, m.PieceKind) and d.counts_as is not None \
                    and sy.category(d.counts_as) != "piece":
                self.report(d.loc, "unknown-name", f"`{d.id}` counts as unknown piece "
                            f"`{d.counts_as}`", hint=did_you_mean(d.counts_as, sy.of("piece")))
            if isinstance(d, m.PieceKind) and d.on is not None:
                if sy.category(d.on) != "piece":
                    self.report(d.loc, "unknown-name", f"`{d.id}` goes on unknown piece `{d.on}`",
                                hint=did_you_mean(d.on, sy.of("piece")))
            if isinstance(d, m.PieceKind):
                for k in d.above:
                    if sy.category(k) != "piece":
                        self.report(d.loc, "unknown-name", f"`{d.id}` stands above unknown "
                                    f"piece `{k}`", hint=did_you_mean(k, sy.of("piece")))
                    elif k == d.id:
                        self.report(d.loc, "structure", f"`{d.id}` cannot stand above itself")
        self.check_above(self.rs.all_decls())
        self.collect_turns()
        cards.collect(self)
        zone_checks.collect(self)
        # What laid cards hold and their own attributes: `t.energy`, `set t.scored to …`.
        sy.tile_holds = {r for k in sy.card_kinds.values() for r in k.holds} | \
            {r for card in sy.printed.values() for r in card.holds}
        sy.tile_attrs = {a.name: a for k in sy.card_kinds.values() for a in k.attributes}

    def check_above(self, decls: list[Any]) -> None:
        """`above` must not go round in a circle: then no order of a stack would do."""
        over = {d.id: [k for k in d.above if k != d.id] for d in decls
                if isinstance(d, m.PieceKind)}
        decl = {d.id: d for d in decls if isinstance(d, m.PieceKind)}
        for start in over:
            todo = list(over[start])
            seen: set[str] = set()
            while todo:
                k = todo.pop()
                if k == start:
                    self.report(decl[start].loc, "structure",
                                f"`{start}` stands above a kind that stands above it; "
                                "no stack could be in order",
                                hint="drop one of the `above` clauses")
                    break
                if k in seen:
                    continue
                seen.add(k)
                todo.extend(over.get(k, []))

    # ---------------------------------------------------------- structure

    def check_structure(self) -> None:
        listed = self.rs.contents
        for cid in listed:
            if cid not in self.sy.chapters:
                self.report(self.rs.loc, "unknown-name", f"chapter `{cid}` is listed but not written",
                            hint=did_you_mean(cid, self.sy.chapters))
        for ch in self.rs.chapters:
            if listed and ch.id not in listed:
                self.report(ch.loc, "structure",
                            f"chapter `{ch.id}` is not listed in the ruleset's `chapters`")
        if self.sy.score is None:
            self.report(self.rs.loc, "structure", "the ruleset never says `score is RESOURCE`")
        elif self.sy.category(self.sy.score) != "resource":
            self.report(self.rs.loc, "unknown-name", f"the score `{self.sy.score}` is not a resource",
                        hint=did_you_mean(self.sy.score, self.sy.of("resource")))
        if not self.sy.steps:
            self.report(self.rs.loc, "structure", "the ruleset declares no turn `step`")
        if self.rs.players_min > self.rs.players_max or self.rs.players_min < 1:
            self.report(self.rs.loc, "structure", "the player range is empty")
        elif self.rs.players_max > MAX_PLAYERS:
            self.report(self.rs.loc, "range", f"a game for up to {self.rs.players_max:,} players: "
                        f"at most {MAX_PLAYERS} can sit at one table", focus="players")

    # -------------------------------------------------------- declarations

    def check_decls(self) -> None:
        """Type every declaration.

        Definitions take their parameter types from their calls: a first pass,
        whose messages are dropped, records the argument types of every call;
        then each definition is typed with them, and the real pass follows.
        """
        sy = self.sy
        real = self.diagnostics
        named = [*sy.defines.values(), *sy.effects.values()]
        params: dict[str, dict[str, str]] = {d.id: {p: "any" for p in d.params} for d in named}
        # Definitions call definitions, so types flow along chains of calls:
        # repeat the silent pass until no parameter type changes.
        for _ in range(8):
            self.diagnostics = []
            sy.call_args.clear()
            sy.define_params = params
            for d in sy.defines.values():
                sy.define_types[d.id] = self.types.expr(d.expr, params[d.id])
            self._check_all()
            found = {d.id: {p: self._param_type(d, i) for i, p in enumerate(d.params)}
                     for d in named}
            if found == params:
                break
            params = found
        self.diagnostics = real
        for d in named:
            for i, p in enumerate(d.params):
                seen = {args[i] for args in sy.call_args.get(d.id, []) if len(args) > i} - {"any"}
                if len(seen) > 1:
                    self.report(d.loc, "type", f"`{d.id}` is called with {p} as "
                                               + " and as ".join(sorted(words(t) for t in seen)))
        sy.define_params = params
        for d in sy.defines.values():
            sy.define_types[d.id] = self.types.expr(d.expr, params[d.id])
        sy.call_args.clear()
        self._check_all()
        cards.check_cards(self)

    def _param_type(self, d: m.Define | m.Effect, i: int) -> str:
        seen = {args[i] for args in self.sy.call_args.get(d.id, []) if len(args) > i} - {"any"}
        return seen.pop() if len(seen) == 1 else "any"

    def _check_all(self) -> None:
        for d in self.rs.all_decls():
            handler = getattr(self, f"d_{d.decl}", None)
            if handler:
                handler(d)
        cards.check_bodies(self)

    def d_area(self, d: m.AreaKind) -> None:
        for a in d.attributes:
            if a.recorded:
                self.report(a.loc, "structure", f"`recorded` belongs to a card's attribute; "
                            f"area attribute `{a.name}` follows from the board or the rules",
                            focus="recorded")
            if a.given is not None:
                self.types.expect(a.given, {"it": "area"}, a.type,
                                  f"what `{a.name}` is given as")

    def d_player_attribute(self, d: m.PlayerAttribute) -> None:
        if d.attribute.recorded:
            self.report(d.attribute.loc, "structure", f"`recorded` belongs to a card's "
                        f"attribute, not to player attribute `{d.attribute.name}`",
                        focus="recorded")
        if d.attribute.given is not None:
            self.report(d.attribute.given.loc, "structure",
                        f"`given as` belongs to an area's attribute; player attribute "
                        f"`{d.attribute.name}` is set by the rules or written in the position")

    def d_teams(self, d: m.TeamsDecl) -> None:
        seats = [s.id for s in self.rs.seats]
        for count, teams in d.rows.items():
            named = [s for t in teams for s in t]
            for s in named:
                if s not in seats:
                    self.report(d.loc, "unknown-name", f"unknown seat `{s}` in a team",
                                hint=did_you_mean(s, seats))
            if len(named) != count or len(set(named)) != count:
                self.report(d.loc, "structure", f"the teams for {count} players must name "
                            f"{count} different seats, not {len(named)}")
            elif len({len(t) for t in teams}) != 1:
                # The teams take turns (see `Game.team_seating`), which needs equal teams.
                self.report(d.loc, "structure", f"the teams for {count} players differ in size "
                            f"({' vs '.join(str(len(t)) for t in teams)}); teams take turns, so "
                            f"each must have as many players")

    def d_supply(self, d: m.SupplyTable) -> None:
        for count, row in d.rows.items():
            if not self.rs.players_min <= count <= self.rs.players_max:
                self.report(d.loc, "structure",
                            f"supply row for {count} players is outside "
                            f"{self.rs.players_min}-{self.rs.players_max}")
            for kind in row:
                self.types.check_kind(d.loc, kind, ("piece",), "piece kind")

    def d_zone(self, d: m.ZoneDecl) -> None:
        if d.legacy:
            self._stacks(d)
        else:
            zone_checks.check_decl(self, d)

    def d_cards_start(self, d: m.CardsStart) -> None:
        zone_checks.check_decl(self, d)

    def _stacks(self, d: m.ZoneDecl) -> None:
        """`stacks N hiding … dealing …`: the tiles must go into them, and the tile sets and
        player counts it names must be the game's."""
        for f in d.hiding:
            self.types.check_kind(d.loc, f, ("feature",), "feature")
        in_play = {t.id for t in self.rs.tiles()}
        sizes = {s.id: sum(1 for t in s.tiles if t.id in in_play) for s in self.rs.tilesets}
        used = [s for s, size in sizes.items() if size]
        if d.piles < 1:
            self.report(d.loc, "range", "the tiles are dealt into at least 1 stack",
                        focus="stacks")
        elif d.piles > max(len(in_play), 1):
            self.report(d.loc, "range", f"{d.piles:,} stacks, but the game has only "
                        f"{len(in_play)} tiles to deal into them", focus="stacks")
        for players, count in d.dealt.items():
            if not self.rs.players_min <= players <= self.rs.players_max:
                self.report(d.loc, "structure", f"tiles dealt for {players} players, outside "
                            f"{self.rs.players_min}-{self.rs.players_max}")
            sets = d.dealt_from.get(players)
            unknown = [name for name in sets or () if not sizes.get(name)]
            for name in unknown:
                self.report(d.loc, "unknown-name", f"tiles dealt for {players} players from "
                            f"`{name}`, which is not a tile set this game uses",
                            hint=did_you_mean(name, used))
            available = sum(sizes.get(name, 0) for name in sets) if sets else len(in_play)
            if not sets:
                whence = "the game has"
            else:
                whence = " and ".join(sets) + (" hold" if len(sets) > 1 else " holds")
            if count > available and not unknown:
                self.report(d.loc, "structure", f"{count} tiles dealt for {players} players, "
                            f"but {whence} only {available}")

    def d_use_tiles(self, d: m.UseTiles) -> None:
        for t in d.tilesets:
            if t not in self.sy.tilesets:
                self.report(d.loc, "unknown-name", f"unknown tile set `{t}`",
                            hint=did_you_mean(t, self.sy.tilesets))

    def d_score(self, d: m.ScoreDecl) -> None:
        pass

    def d_step(self, d: m.StepDecl) -> None:
        for a in d.actions + d.also:
            if a not in self.sy.actions:
                self.report(d.loc, "unknown-name", f"step `{d.id}` names unknown action `{a}`",
                            hint=did_you_mean(a, self.sy.actions))
        self.check_step_who(d)

    def d_action(self, d: m.Action) -> None:
        scope: Scope = {}
        for p in d.params:
            t = self.types.expr(p.domain, scope)
            if not t.startswith("set:") and t != "any":
                self.report(p.domain.loc, "type",
                            f"`choose` picks from a collection, but this is {words(t)}")
            elem = t[4:] if t.startswith("set:") else "any"
            scope[p.name] = "set:" + elem if p.subset else elem
            self.types.bind(scope, p.name, p.domain)
            self._cites(p.rule, p.loc)
        for r in d.requires:
            self.types.expect(r.cond, scope, "bool", "a requirement")
            self._cites(r.rule, r.loc)
        self.types.stmts(d.effects, scope)
        self._check_notation(d)

    def _check_notation(self, d: m.Action) -> None:
        import re
        if d.notation is None:
            return
        named = re.findall(r"\{(\w+)\}", d.notation)
        params = [p.name for p in d.params]
        for name in named:
            if name not in params:
                self.report(d.loc, "unknown-name",
                            f"notation of `{d.id}` uses `{{{name}}}`, which is no parameter",
                            hint=did_you_mean(name, params))

    def d_forbid(self, d: m.Forbid) -> None:
        self.types.check_kind(d.loc, d.kind, ("piece",), "piece kind", extra=("piece",))
        for a in d.actions:
            if a not in self.sy.actions:
                self.report(d.loc, "unknown-name", f"unknown action `{a}`",
                            hint=did_you_mean(a, self.sy.actions))
        scope: Scope = {d.site_var: "site"}
        if d.piece_var:
            scope[d.piece_var] = "piece"
        self.types.expect(d.cond, scope, "bool", "the condition of a prohibition")

    def d_trigger(self, d: m.Trigger) -> None:
        ev = d.event
        scope: Scope = {}
        if ev.type == "closes":
            self.types.check_kind(ev.loc, ev.kind or "", ("area",), "area kind", extra=("area",))
            scope = {ev.var or "": "area", **EVENT_VALUES}
        elif ev.type == "laid":
            scope = {ev.var or "": "tile"}
        elif ev.type in ("enters", "leaves"):
            self.types.check_kind(ev.loc, ev.kind or "", ("piece",), "piece kind",
                                  extra=("piece",))
            scope = {ev.var or "": "piece", ev.site_var or "": "site"}
        elif ev.type == "returns":
            self.types.check_kind(ev.loc, ev.kind or "", ("piece",), "piece kind",
                                  extra=("piece",))
            scope = {ev.var or "": "piece"}
        elif ev.target == "round":
            self.check_round_moment(ev)
        elif ev.target == "step" and ev.step not in self.sy.steps:
            self.report(ev.loc, "unknown-name", f"unknown step `{ev.step}`",
                        hint=did_you_mean(ev.step or "", self.sy.steps))
        if d.defer_to is not None and d.defer_to not in self.sy.steps:
            self.report(d.loc, "unknown-name", f"unknown step `{d.defer_to}`",
                        hint=did_you_mean(d.defer_to, self.sy.steps))
        if d.after is not None and d.after not in self.sy.rules:
            self.report(d.loc, "unknown-name", f"`after {d.after}` names an unknown rule",
                        hint=self.rule_hint(d.after))
        if d.where is not None:
            self.types.expect(d.where, scope, "bool", "the condition after `where`")
        self.types.stmts(d.body, scope)

    def d_define(self, d: m.Define) -> None:
        # Typed first, in check_decls; a condition must also be a yes-or-no test,
        # since it is cited when it holds.
        got = self.sy.define_types.get(d.id, "any")
        if d.cited and not fits(got, "bool"):
            self.report(d.loc, "type", f"the condition `{d.id}` should be true or false, but "
                                       f"it is {words(got)}",
                        hint="use `define` for a value that is not a yes-or-no test")

    def d_effect(self, d: m.Effect) -> None:
        self.types.stmts(d.body, dict(self.sy.define_params.get(d.id, {})))

    def d_look(self, d: m.Look) -> None:
        import re
        targets = list(self.sy.kinds) + list(self.sy.edges) + [s.id for s in self.rs.seats]
        if d.target not in targets:
            self.report(d.loc, "unknown-name", f"`look` names unknown `{d.target}`",
                        hint=did_you_mean(d.target, targets))
        if d.shape not in m.LOOK_SHAPES:
            self.report(d.loc, "unknown-name", f"unknown shape `{d.shape}`",
                        hint=did_you_mean(d.shape, m.LOOK_SHAPES) or
                        "shapes: " + ", ".join(m.LOOK_SHAPES))
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", d.color):
            self.report(d.loc, "type", f"colour `{d.color}` should be written #rrggbb")

    def d_card_look(self, d: m.CardLook) -> None:
        cards.check_look(self, d)

    def d_end(self, d: m.EndDecl) -> None:
        self.types.expect(d.cond, {}, "bool", "the end condition")

    def d_winner(self, d: m.WinnerDecl) -> None:
        for t in d.order:
            self.types.expect(t.expr, {"it": "player"}, "int", "a winning measure")

    def rule_hint(self, rid: str) -> str | None:
        """For an unknown rule id: say so if this variant removed it, else suggest a near id."""
        gone = next((c for c in self.rs.changes
                     if c.kind == "rule" and c.id == rid and c.op == "removed"), None)
        if gone is not None:
            where = f" at {gone.loc.file}:{gone.loc.line}" if gone.loc else ""
            return (f"`{self.rs.id}` removes rule `{rid}`{where}; remove or rewrite what "
                    "refers to it")
        return did_you_mean(rid, self.sy.rules)

    def _cites(self, rule: str | None, loc: n.Loc | None) -> None:
        if rule is not None and rule not in self.sy.rules:
            self.report(loc, "unknown-name", f"`per {rule}` cites an unknown rule",
                        hint=self.rule_hint(rule))

    # -------------------------------------------------------------- tiles

    def check_tiles(self) -> None:
        sides = LATTICES[self.sy.lattice].sides
        crossing: dict[str, list[str]] = {e: [] for e in self.sy.edges}
        for kid, (cat, decl) in self.sy.kinds.items():
            if cat == "area":
                for e in decl.crosses:
                    crossing.setdefault(e, []).append(kid)
        for tile in self.sy.cards.values():
            if not tile.faces:
                self.report(tile.loc, "tiles", f"tile `{tile.id}` has no face")
            names = set()
            for face in tile.faces:
                if face.name in names:
                    self.report(face.loc, "duplicate", f"tile `{tile.id}` has two faces `{face.name}`")
                names.add(face.name)
                self._check_face(tile, face, sides, crossing)

    def _check_face(self, tile: m.TileDef, face: m.Face, sides: int,
                    crossing: dict[str, list[str]]) -> None:
        where = f"face `{face.name}` of tile `{tile.id}`"
        if len(face.edges) != sides:
            self.report(face.loc, "tiles",
                        f"{where} lists {len(face.edges)} edges; a {self.sy.lattice} tile has {sides}")
            return
        for label in face.edges:
            if label not in self.sy.edges:
                self.report(face.loc, "unknown-name", f"{where}: unknown edge label `{label}`",
                            hint=did_you_mean(label, self.sy.edges))
        touching: dict[tuple[int, str], int] = {}
        for seg in face.segments:
            if self.sy.category(seg.kind) != "area":
                self.report(seg.loc, "unknown-name", f"{where}: unknown area kind `{seg.kind}`",
                            hint=did_you_mean(seg.kind, self.sy.of("area")))
                continue
            for f in seg.features:
                self.types.check_kind(seg.loc, f, ("feature",), "feature")
            for e in seg.edges:
                if not 0 <= e < sides:
                    self.report(seg.loc, "tiles", f"{where}: there is no edge {e} (0 to {sides - 1})")
                    continue
                label = face.edges[e]
                if seg.kind not in crossing.get(label, []):
                    self.report(seg.loc, "tiles",
                                f"{where}: a `{seg.kind}` segment cannot reach edge {e}, "
                                f"which is `{label}`")
                touching[(e, seg.kind)] = touching.get((e, seg.kind), 0) + 1
        for e, label in enumerate(face.edges):
            for kind in crossing.get(label, []):
                count = touching.get((e, kind), 0)
                if count != 1:
                    self.report(face.loc, "tiles",
                                f"{where}: edge {e} is `{label}`, so exactly one `{kind}` segment "
                                f"must reach it (found {count})")

    # -------------------------------------------------------------- prose

    def check_prose(self) -> None:
        # Each text with the place of the item holding it and the places of the
        # rules nested in that item, whose own texts are not its.
        texts: list[tuple[str, n.Loc | None, list[n.Loc | None]]] = []
        for ch in self.rs.chapters:
            texts.append((ch.text, ch.loc, [r.loc for r in ch.rules]))
        for r in self.rs.all_rules():
            texts.append((r.text, r.loc, [x.loc for x in r.rules]))
        for t in self.rs.terms:
            texts.append((t.text, t.loc, []))
        for r in self.rs.rulings:
            texts += [(r.text, r.loc, []), (r.reason, r.loc, []), (r.question, r.loc, [])]
            for rid in r.settles:
                if rid not in self.sy.rules:
                    self.report(r.loc, "unknown-name", f"ruling `{r.id}` settles unknown rule `{rid}`",
                                hint=self.rule_hint(rid))
        for e in self.rs.examples:
            texts.append((e.text, e.loc, []))
            for rid in e.illustrates:
                if rid not in self.sy.rules:
                    self.report(e.loc, "unknown-name",
                                f"example `{e.id}` illustrates unknown rule `{rid}`",
                                hint=self.rule_hint(rid))
            self.check_given(e)
            check_start(self, e)
            seats = self.example_seats(e)
            for f in e.expect:
                self.check_fact(f, seats)
                if f.fact == "breach":
                    self.check_breach_expectation(f)
                elif f.fact == "card":
                    self.check_card_fact(f)
                elif f.fact == "value":
                    self.check_value_expectation(f)
                if f.fact == "illegal":
                    for rid in f.args:
                        if isinstance(rid, str) and rid not in self.sy.rules:
                            self.report(f.loc, "unknown-name", f"unknown rule `{rid}`",
                                        hint=self.rule_hint(rid))
        tables = {"rule": self.sy.rules, "ruling": self.sy.rulings, "example": self.sy.examples,
                  "chapter": self.sy.chapters, "term": self.sy.terms, "page": GENERATED_PAGES}
        for text, loc, nested in texts:
            seen: dict[str, int] = {}
            for ref in prose_refs(text):
                table = tables[ref.kind]
                if ref.target not in table:
                    # Point at the reference itself: the n-th time these words
                    # are written in the item (a dangling one is dangling each time).
                    written = text[ref.start:ref.end]
                    nth = seen[written] = seen.get(written, -1) + 1
                    self.report(self.src.locate(loc, written, nth, skip=nested),
                                "dangling-reference",
                                f"`[[{ref.kind + ':' if ref.kind != 'term' else ''}{ref.target}]]` "
                                f"refers to no {ref.kind}",
                                hint=self.rule_hint(ref.target) if ref.kind == "rule"
                                else did_you_mean(ref.target, table), focus="")

    def check_given(self, e: m.Example) -> None:
        """What a `given` block says that no position can hold, reported at its line.

        The position is built only when the example runs; these mistakes are
        plain from the text, so they are caught here with the place they were
        written.
        """
        seats = self.example_seats(e)
        for f in e.given:
            if f.fact == "card":
                self.check_card_fact(f)
            else:
                self.check_fact(f, seats)

    # ------------------------------------------------------------ reach

    def check_reach(self) -> None:
        """Warn about what nothing ever uses: a term no text links, an action no step
        offers and nothing grants, a definition nothing calls."""
        texts = [c.text for c in self.rs.chapters] + [r.text for r in self.rs.all_rules()]
        texts += [t.text for t in self.rs.terms] + [s.text for s in self.rs.tilesets]
        texts += [x for r in self.rs.rulings for x in (r.text, r.reason, r.question)]
        texts += [e.text for e in self.rs.examples]
        linked = {ref.target for t in texts for ref in prose_refs(t) if ref.kind == "term"}
        for term in self.rs.terms:
            if term.id not in linked:
                self.report(term.loc, "unused", f"term `{term.id}` is never linked from any text",
                            hint=f"link it as [[{term.id}]] where it matters, or remove it",
                            severity="warning")
        decls = self.rs.all_decls()
        offered: set[str] = set()
        called: set[str] = set()
        applied: set[str] = set()
        for node in n.walk([decls, self.rs.cardsets]):  # card abilities grant too
            if isinstance(node, m.StepDecl):
                offered.update(node.actions, node.also)
            elif isinstance(node, n.GrantOne):
                offered.update([node.action, *node.alternatives])
            elif isinstance(node, n.GrantEach):
                offered.add(node.action)
            elif isinstance(node, n.GrantMany):
                offered.update(node.actions)
            elif isinstance(node, n.Call):
                called.add(node.func)
            elif isinstance(node, n.Apply):
                applied.add(node.effect)
        for d in decls:
            if isinstance(d, m.Action) and d.id not in offered:
                self.report(d.loc, "unreachable", f"action `{d.id}` is never offered",
                            hint="list it in a `step`, or `grant` it from a rule",
                            severity="warning")
            elif isinstance(d, m.Define) and d.id not in called:
                self.report(d.loc, "unused", f"definition `{d.id}` is never used",
                            severity="warning")
            elif isinstance(d, m.Effect) and d.id not in applied:
                self.report(d.loc, "unused", f"effect `{d.id}` is never applied",
                            severity="warning")

    # ------------------------------------------------------------ numbers

    def number(self) -> None:
        """Number what is still unnumbered (compiler.numbering): all of a root ruleset; of
        a variant, only what it added, its bases' numbers being given already."""
        problem = code_problem(self.rs.code) if self.rs.code else None
        if problem:
            self.report(self.rs.loc, "structure", problem)
        clash = inherited_code_clash(self.rs)
        if clash:
            self.report(self.rs.loc, "duplicate", clash)
        numbering.number(self.rs)
        cards.number(self.rs)


def _focus_of(message: str) -> str | None:
    """The first `quoted` name in a message: where the caret should point."""
    import re
    found = re.search(r"`([^`]+)`", message)
    return found.group(1) if found else None


def check_ruleset(ruleset: m.Ruleset, sources: SourceMap) -> list[Diagnostic]:
    """Resolve, type and validate `ruleset` in place; return the diagnostics."""
    return Checker(ruleset, sources).run()
