"""Variants: a ruleset that extends another, edited by id.

A variant starts as a copy of its base and applies its items in the order
written: plain items are added, `replace` and `remove` edit by id, `add to`
puts rules, declarations or tiles into an existing chapter, rule or tile set.
The result is a complete ruleset: the checker, engine and rulebook read it as
if it had been written out in full. What was changed is kept in
`Ruleset.changes`, for the "What changes" page and `rulebook diff`.

Editing an id that does not exist, or adding one that already does, is an
error with a "did you mean" — the common mistakes of an author who misremembers
an id, or forgets that the base already has one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from compiler.diagnostics import Diagnostic, SourceMap, did_you_mean
from compiler.ir import model as m
from compiler.numbering import retire
from compiler.parse.transform import cite_rule

HEADER_FIELDS = ("title", "subtitle", "version", "source", "players", "seats", "contents")


@dataclass
class _Where:
    """A rule's place: the list holding it and the chapter or rule that owns the list."""

    siblings: list[m.Rule]
    parent: str


def merge_header(rs: m.Ruleset, own: m.Ruleset) -> None:
    """A variant's header over its base's (`rs`, changed): what the variant says wins, the
    rest is the base's. Shared with load.read_header, which reads headers without compiling."""
    rs.extends, rs.id, rs.loc, rs.code = own.extends, own.id, own.loc, own.code
    for name in own.header:
        if name == "players":
            rs.players_min, rs.players_max = own.players_min, own.players_max
        else:
            setattr(rs, name, getattr(own, name))
    rs.header = own.header


@dataclass
class VariantBuilder:
    base: m.Ruleset
    sources: SourceMap
    diagnostics: list[Diagnostic] = field(default_factory=list)
    changes: list[m.Change] = field(default_factory=list)

    # ------------------------------------------------------------ lookups

    def _rules(self) -> dict[str, _Where]:
        found: dict[str, _Where] = {}

        def walk(rules: list[m.Rule], parent: str) -> None:
            for r in rules:
                found[r.id] = _Where(rules, parent)
                walk(r.rules, r.id)

        for ch in self.base.chapters:
            walk(ch.rules, ch.id)
        return found

    def _rule(self, rid: str) -> m.Rule | None:
        where = self._rules().get(rid)
        return next(r for r in where.siblings if r.id == rid) if where else None

    def _tiles(self) -> dict[str, m.TileSet]:
        return {t.id: s for s in self.base.tilesets for t in s.tiles}

    def _members(self, kind: str) -> dict[str, Any]:
        """Tiles or cards by id, each with the set holding it."""
        if kind == "card":
            return {c.id: s for s in self.base.cardsets for c in s.cards}
        return self._tiles()

    @staticmethod
    def _items(owner: Any) -> list[Any]:
        return owner.cards if isinstance(owner, m.CardSet) else owner.tiles

    def _collection(self, kind: str) -> list[Any]:
        return {"chapter": self.base.chapters, "tiles": self.base.tilesets,
                "cards": self.base.cardsets,
                "term": self.base.terms, "ruling": self.base.rulings,
                "example": self.base.examples}[kind]

    def _ids(self, kind: str) -> list[str]:
        if kind == "rule":
            return list(self._rules())
        if kind in ("tile", "card"):
            return list(self._members(kind))
        if kind in self.DECLARATIONS:
            return [_key(d) for d in self.base.all_decls()
                    if isinstance(d, self.DECLARATIONS[kind])]
        return [x.id for x in self._collection(kind)]

    def _error(self, loc: Any, code: str, message: str, hint: str | None = None) -> None:
        import re
        quoted = re.search(r"`([^`]+)`", message)
        self.diagnostics.append(self.sources.diagnostic(
            loc, code, message, hint=hint, focus=quoted.group(1) if quoted else None))

    def _missing(self, edit: m.Edit | Any, kind: str, ident: str, verb: str) -> None:
        said = kind.replace("_", " ")  # "player attribute"
        self._error(edit.loc, "unknown-name",
                    f"cannot {verb} {said} `{ident}`: {self.base.extends or 'the base'} "
                    f"has no such {said}", hint=did_you_mean(ident, self._ids(kind)))

    def _note(self, op: str, kind: str, ident: str, loc: Any, parent: str | None = None) -> None:
        self.changes.append(m.Change(op=op, kind=kind, id=ident, parent=parent, loc=loc))

    # ------------------------------------------------------------ the edits

    def header(self, own: m.Ruleset) -> None:
        merge_header(self.base, own)

    def add(self, item: Any) -> None:
        kind = {m.Chapter: "chapter", m.TileSet: "tiles", m.CardSet: "cards", m.Term: "term",
                m.Ruling: "ruling", m.Example: "example"}.get(type(item))
        if kind is None:  # a declaration outside any rule
            self.base.decls.append(item)
            return
        if item.id in self._ids(kind):
            self._error(item.loc, "duplicate",
                        f"{kind} `{item.id}` already exists in {self.base.extends}; "
                        f"write `replace {kind} {item.id} ...` to change it")
            return
        if kind == "chapter":
            clash = [r.id for r in _walk(item.rules) if r.id in self._rules()]
            for rid in clash:
                self._error(item.loc, "duplicate", f"rule `{rid}` already exists in "
                            f"{self.base.extends}; write `replace rule {rid} ...` instead")
            if clash:
                return
            if "contents" not in self.base.header:
                self.base.contents.append(item.id)
        self._collection(kind).append(item)
        self._note("added", kind, item.id, item.loc)
        if kind == "chapter":
            for r in _walk(item.rules):
                self._note("added", "rule", r.id, r.loc, item.id)

    # One declaration of a base rule, by its id: `replace action build …`, `remove define
    # reach`: the rest of the rule stays as the base wrote it.
    # The declarations a variant edits by name (`replace action …`, `remove player attribute
    # …`), each found wherever the base declares it by its id (an attribute: its name).
    DECLARATIONS: ClassVar[dict[str, type]] = {
        "action": m.Action, "define": m.Define, "effect": m.Effect, "area": m.AreaKind,
        "player_attribute": m.PlayerAttribute, "game_attribute": m.GameAttribute}
    # Those that have no name, found by the rule they stand in (`replace trigger in RULE`).
    UNNAMED: ClassVar[dict[str, type]] = {"trigger": m.Trigger, "forbid": m.Forbid}

    def _declaration(self, kind: str, ident: str
                     ) -> tuple[m.Rule | m.Chapter | m.Ruleset, int] | None:
        """Where the base declares the action, definition, effect, area kind or attribute
        `ident`: its holder (a rule, a chapter, the ruleset) and its place there."""
        holders: list[m.Rule | m.Chapter | m.Ruleset] = [self.base, *self.base.chapters,
                                                         *_walk([r for ch in self.base.chapters
                                                                 for r in ch.rules])]
        for holder in holders:
            for i, d in enumerate(holder.decls):
                if isinstance(d, self.DECLARATIONS[kind]) and _key(d) == ident:
                    return holder, i
        return None

    def _unnamed(self, edit: m.Edit, verb: str) -> tuple[m.Rule, int] | None:
        """The trigger or prohibition `edit` names by its rule (and place), or None, said."""
        kind, rule_id = edit.kind, edit.ids[0]
        where = self._rules().get(rule_id)
        if where is None:
            self._missing(edit, "rule", rule_id, verb + " a " + kind + " in")
            return None
        rule = next(r for r in where.siblings if r.id == rule_id)
        own = [i for i, d in enumerate(rule.decls) if isinstance(d, self.UNNAMED[kind])]
        if not own:
            holding = [r.id for r in self._rules_with(kind)]
            self._error(edit.loc, "unknown-name",
                        f"rule `{rule_id}` declares no {kind} of its own",
                        hint=did_you_mean(rule_id, holding) or (
                            f"the {kind}s are in " + ", ".join(f"`{r}`" for r in holding[:6])
                            if holding else f"{self.base.extends or 'the base'} has no {kind}"))
            return None
        if edit.nth is None and len(own) > 1:
            from compiler.check.trigger_order import event_words
            def said(d: Any) -> str:
                return event_words(d) if kind == "trigger" else f"forbidding a {d.kind}"
            listed = "; ".join(f"{k} {said(rule.decls[i])}" for k, i in enumerate(own, 1))
            self._error(edit.loc, "unknown-name",
                        f"rule `{rule_id}` declares {len(own)} {kind}s ({listed}): say which",
                        hint=f"write `{verb} {kind} 1 in {rule_id}` for the first, and so on")
            return None
        nth = edit.nth or 1
        if not 1 <= nth <= len(own):
            self._error(edit.loc, "range", f"rule `{rule_id}` declares {len(own)} {kind}"
                        f"{'s' if len(own) > 1 else ''}, so there is no {kind} {nth}",
                        hint="count them in the order the rule writes them, from 1")
            return None
        return rule, own[nth - 1]

    def _rules_with(self, kind: str) -> list[m.Rule]:
        return [r for r in _walk([r for ch in self.base.chapters for r in ch.rules])
                if any(isinstance(d, self.UNNAMED[kind]) for d in r.decls)]

    def replace_in(self, edit: m.Edit) -> None:
        found = self._unnamed(edit, "replace")
        if found is None:
            return
        rule, i = found
        if not isinstance(edit.item, self.UNNAMED[edit.kind]):
            wanted = "a trigger (`when …` or `at …`)" if edit.kind == "trigger" else "a `forbid`"
            self._error(edit.item.loc or edit.loc, "structure",
                        f"`replace {edit.kind}` takes {wanted} in its braces, not a "
                        f"`{getattr(edit.item, 'decl', 'declaration')}`")
            return
        cite_rule(edit.item, rule.id)
        rule.decls[i] = edit.item
        self._declaration_changed(rule, edit.loc)

    def remove_in(self, edit: m.Edit) -> None:
        found = self._unnamed(edit, "remove")
        if found is None:
            return
        rule, i = found
        del rule.decls[i]
        self._declaration_changed(rule, edit.loc)

    def _declaration_changed(self, holder: m.Rule | m.Chapter | m.Ruleset, loc: Any) -> None:
        if isinstance(holder, m.Rule):
            self._note("replaced", "rule", holder.id, loc)
        elif isinstance(holder, m.Chapter):
            self._note("replaced", "chapter", holder.id, loc)

    def replace(self, edit: m.Edit) -> None:
        item, kind = edit.item, edit.kind
        if kind in self.DECLARATIONS:
            found = self._declaration(kind, _key(item))
            if found is None:
                self._missing(edit, kind, _key(item), "replace")
                return
            holder, i = found
            if holder.decls[i].rule:  # cited by the rule it stands in, as the one it replaces
                cite_rule(item, holder.decls[i].rule)
            holder.decls[i] = item
            self._declaration_changed(holder, edit.loc)
            return
        if kind == "rule":
            where = self._rules().get(item.id)
            if where is None:
                self._missing(edit, "rule", item.id, "replace")
                return
            i = next(k for k, r in enumerate(where.siblings) if r.id == item.id)
            where.siblings[i] = self._merge_rule(where.siblings[i], item, where.parent)
            return
        if kind == "chapter":
            old = next((c for c in self.base.chapters if c.id == item.id), None)
            if old is None:
                self._missing(edit, "chapter", item.id, "replace")
                return
            old.title, old.text, old.decls, old.loc = item.title, item.text, item.decls, item.loc
            old.rules = self._merge_children(old.rules, item.rules, old.id)
            self._note("replaced", "chapter", item.id, item.loc)
            return
        if kind in ("tile", "card"):
            owner = self._members(kind).get(item.id)
            if owner is None:
                self._missing(edit, kind, item.id, "replace")
                return
            if kind == "card":
                item.kind = owner.kind
            members = self._items(owner)
            members[:] = [item if t.id == item.id else t for t in members]
            self._note("replaced", kind, item.id, item.loc, owner.id)
            return
        items = self._collection(kind)
        i = next((k for k, x in enumerate(items) if x.id == item.id), None)
        if i is None:
            self._missing(edit, kind, item.id, "replace")
            return
        if isinstance(item, (m.Ruling, m.Example)):
            item.number = items[i].number  # the same ruling or example, said anew: same id
        items[i] = item
        self._note("replaced", kind, item.id, item.loc)

    def _merge_rule(self, old: m.Rule, new: m.Rule, parent: str) -> m.Rule:
        merged = new.model_copy(update={"rules": self._merge_children(old.rules, new.rules,
                                                                      new.id),
                                        "number": old.number})
        self._note("replaced", "rule", new.id, new.loc, parent)
        self.changes[-1].drops = sorted(_declared(old) - _declared(new))
        return merged

    def _merge_children(self, old: list[m.Rule], new: list[m.Rule], parent: str
                        ) -> list[m.Rule]:
        out = list(old)
        written: dict[str, m.Rule] = {}
        for child in new:
            first = written.setdefault(child.id, child)
            if first is not child:  # two rules of one id in the replacement: not a merge
                where = f" (first declared at {first.loc})" if first.loc else ""
                self._error(child.loc, "duplicate",
                            f"rule `{child.id}` is declared twice{where}")
                continue
            i = next((k for k, r in enumerate(out) if r.id == child.id), None)
            if i is not None:
                out[i] = self._merge_rule(out[i], child, parent)
            elif child.id in self._rules():
                self._error(child.loc, "duplicate", f"rule `{child.id}` already exists "
                            f"elsewhere in {self.base.extends}; replace it where it is")
            else:
                out.append(child)
                for r in _walk([child]):
                    self._note("added", "rule", r.id, r.loc, parent)
        return out

    def remove(self, edit: m.Edit) -> None:
        ids = edit.ids
        if ids == ["*"]:  # `remove every KIND`: all the base has of that kind
            if edit.kind == "rule":
                ids = [r.id for ch in self.base.chapters for r in ch.rules]
            elif edit.kind in ("tile", "card"):
                ids = list(self._members(edit.kind))
            else:
                ids = [x.id for x in self._collection(edit.kind)]
        for ident in ids:
            if edit.kind in self.DECLARATIONS:
                found = self._declaration(edit.kind, ident)
                if found is None:
                    self._missing(edit, edit.kind, ident, "remove")
                    continue
                holder, i = found
                del holder.decls[i]
                self._declaration_changed(holder, edit.loc)
                self._note("removed", edit.kind, ident, edit.loc)
                self.changes[-1].drops = [ident]
                continue
            if edit.kind == "rule":
                where = self._rules().get(ident)
                if where is None:
                    self._missing(edit, "rule", ident, "remove")
                    continue
                gone = next(r for r in where.siblings if r.id == ident)
                where.siblings.remove(gone)
                retire(self.base, gone)
                for r in _walk([gone]):
                    self._note("removed", "rule", r.id, edit.loc, where.parent)
                    self.changes[-1].drops = sorted(_declared(r))
                continue
            if edit.kind in ("tile", "card"):
                owner = self._members(edit.kind).get(ident)
                if owner is None:
                    self._missing(edit, edit.kind, ident, "remove")
                    continue
                members = self._items(owner)
                members[:] = [t for t in members if t.id != ident]
                self._note("removed", edit.kind, ident, edit.loc, owner.id)
                continue
            items = self._collection(edit.kind)
            i = next((k for k, x in enumerate(items) if x.id == ident), None)
            if i is None:
                self._missing(edit, edit.kind, ident, "remove")
                continue
            gone = items.pop(i)
            if edit.kind == "chapter":
                retire(self.base, gone)
                if ident in self.base.contents:
                    self.base.contents.remove(ident)
                for r in _walk(gone.rules):
                    self._note("removed", "rule", r.id, edit.loc, ident)
            self._note("removed", edit.kind, ident, edit.loc)

    def add_to(self, edit: m.Edit) -> None:
        target = edit.ids[0]
        if edit.kind == "tiles":
            owner = next((s for s in self.base.tilesets if s.id == target), None)
            if owner is None:
                self._missing(edit, "tiles", target, "add to")
                return
            known = self._tiles()
            for t in edit.items:
                if not isinstance(t, m.TileDef):
                    self._error(edit.loc, "structure", "only tiles can be added to a tile set")
                elif t.id in known:
                    self._error(t.loc, "duplicate", f"tile `{t.id}` already exists; "
                                f"write `replace tile {t.id} ...` to change it")
                else:
                    owner.tiles.append(t)
                    self._note("added", "tile", t.id, t.loc, owner.id)
            return
        if edit.kind == "cards":
            self._add_cards(edit, target)
            return
        holder: m.Rule | m.Chapter | None
        if edit.kind == "chapter":
            holder = next((c for c in self.base.chapters if c.id == target), None)
        else:
            holder = self._rule(target)
        if holder is None:
            self._missing(edit, edit.kind, target, "add to")
            return
        if edit.text:  # a paragraph after the base's own: the rule now reads differently
            if edit.kind not in ("rule", "chapter"):
                self._error(edit.loc, "structure", "text is added to a rule or a chapter")
            else:
                holder.text = f"{holder.text.rstrip()}\n\n{edit.text}".strip()
                if edit.kind == "rule":
                    self._note("replaced", "rule", target, edit.loc)
        for item in edit.items:
            if isinstance(item, m.Rule):
                if item.id in self._rules():
                    self._error(item.loc, "duplicate", f"rule `{item.id}` already exists; "
                                f"write `replace rule {item.id} ...` to change it")
                    continue
                holder.rules.append(item)
                for r in _walk([item]):
                    self._note("added", "rule", r.id, r.loc, holder.id)
            elif isinstance(item, m.TileDef):
                self._error(item.loc, "structure", "tiles are added with `add to tiles SET`")
            elif isinstance(item, m.CardDef):
                self._error(item.loc, "structure", "cards are added with `add to cards SET`")
            else:
                if edit.kind == "rule":
                    cite_rule(item, target)
                    self._note("replaced", "rule", target, edit.loc)
                holder.decls.append(item)

    def _add_cards(self, edit: m.Edit, target: str) -> None:
        """`add to cards SET { card … }`: printed cards join a card set, of its kind."""
        owner = next((s for s in self.base.cardsets if s.id == target), None)
        if owner is None:
            self._missing(edit, "cards", target, "add to")
            return
        known = self._members("card")
        for c in edit.items:
            if not isinstance(c, m.CardDef):
                self._error(edit.loc, "structure", "only cards can be added to a card set")
            elif c.id in known:
                self._error(c.loc, "duplicate", f"card `{c.id}` already exists; "
                            f"write `replace card {c.id} ...` to change it")
            else:
                c.kind = owner.kind
                owner.cards.append(c)
                self._note("added", "card", c.id, c.loc, owner.id)


def _declared(rule: m.Rule) -> set[str]:
    """The names a rule's own declarations give: actions, definitions, effects, attributes."""
    names = {getattr(d, "id", None) for d in rule.decls}
    names |= {getattr(getattr(d, "attribute", None), "name", None) for d in rule.decls}
    return {n for n in names if isinstance(n, str)}


def blame_replacements(rs: m.Ruleset, diagnostics: list[Diagnostic], sources: SourceMap,
                       own: set[str]) -> list[Diagnostic]:
    """The errors a `replace rule` causes in the base, by leaving out what the base still
    uses, said once at the `replace` instead of once at every use in files the author did not
    write (`own`: the variant's files). Those a `remove` causes stay at each use (each may
    need its own change), with a hint naming the `remove` line."""
    import re
    out: list[Diagnostic] = []
    blamed: dict[int, list[Diagnostic]] = {}
    drops = [c for c in rs.changes if c.drops and c.op == "replaced"]
    taken = [c for c in rs.changes if c.drops and c.op == "removed"]
    for d in diagnostics:
        named = set(re.findall(r"`([^`]+)`", d.message))
        culprit = next((i for i, c in enumerate(drops) if named & set(c.drops)), None) \
            if d.code == "unknown-name" and d.file not in own else None
        remover = next((c for c in taken if named & set(c.drops)), None) \
            if d.code == "unknown-name" and d.file not in own else None
        if remover is not None:  # the use stays where it is, and names the line to look at
            what = ", ".join(f"`{n}`" for n in sorted(named & set(remover.drops)))
            where = f" ({remover.loc.file}:{remover.loc.line})" if remover.loc else ""
            edit = f"remove {remover.kind} {remover.id}"
            out.append(d.model_copy(update={"hint": (
                f"{what} is taken out by `{edit}`{where}: replace or remove this use too, "
                f"or keep {what}")}))
        elif culprit is None:
            out.append(d)
        else:
            blamed.setdefault(culprit, []).append(d)
    for i, found in blamed.items():
        c = drops[i]
        names = sorted({n for d in found for n in re.findall(r"`([^`]+)`", d.message)
                        if n in c.drops})
        first = found[0]
        out.append(sources.diagnostic(
            c.loc, "unknown-name",
            f"`replace rule {c.id}` leaves out {', '.join(f'`{n}`' for n in names)}, which "
            f"the base still uses: {len(found)} place{'s' if len(found) != 1 else ''}, the "
            f"first at {first.file}:{first.line}",
            hint="keep those declarations in the replacement (or replace them on their own: "
                 "`replace action …`, `replace define …`), or replace what uses them too",
            focus=c.id))
    return out


def _walk(rules: list[m.Rule]) -> list[m.Rule]:
    out: list[m.Rule] = []
    for r in rules:
        out.append(r)
        out += _walk(r.rules)
    return out


def apply_variant(base: m.Ruleset, own: m.Ruleset, items: list[Any], sources: SourceMap
                  ) -> tuple[m.Ruleset, list[Diagnostic]]:
    """Edit `base` (a fresh, unchecked copy) by the variant's header and items."""
    builder = VariantBuilder(base, sources)
    builder.header(own)
    for item in items:
        if isinstance(item, m.Ruleset):
            continue
        if isinstance(item, m.Edit):
            getattr(builder, item.op)(item)
        else:
            builder.add(item)
    base.changes = _collapse(builder.changes)
    return base, builder.diagnostics


def _collapse(changes: list[m.Change]) -> list[m.Change]:
    """One entry per (kind, id): an added-then-replaced rule is simply added, and so on."""
    out: dict[tuple[str, str], m.Change] = {}
    for c in changes:
        key = (c.kind, c.id)
        prev = out.get(key)
        if prev is None:
            out[key] = c
        elif prev.op == "added" and c.op == "replaced":
            continue
        elif prev.op == "added" and c.op == "removed":
            del out[key]
        else:
            out[key] = c.model_copy(update={"parent": c.parent or prev.parent})
    return list(out.values())


def inherited_example_hint(ruleset: m.Ruleset, example: str) -> str | None:
    """What to do about a failing example a variant did not write: it was inherited, and
    the variant's changes may have made it wrong (a hint for `check` and `build`)."""
    own = {c.id for c in ruleset.changes if c.kind == "example" and c.op != "removed"}
    if not ruleset.extends or example in own:
        return None
    return (f"hint: {ruleset.id} inherits this example from {ruleset.extends}; where your "
            f"variant changes what it shows, write `remove example {example}`, or "
            f"`replace example {example} \"…\" {{ … }}` with the outcome your rules give")


def _key(decl: Any) -> str:
    """The name a variant edits a declaration by: its id, or an attribute's name."""
    attribute = getattr(decl, "attribute", None)
    return attribute.name if attribute is not None else decl.id
