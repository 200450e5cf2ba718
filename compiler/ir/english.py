"""The English reading of IR expressions and statements.

The engine uses it to say why a move is illegal; the rulebook uses it to
print each declaration beside its prose. Words for kinds come from the
ruleset (`Vocabulary`); nothing here knows a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.ir.prose import fill
from compiler.library import ATTRIBUTES, LIBRARY


@dataclass
class Vocabulary:
    singular: dict[str, str] = field(default_factory=dict)
    plural: dict[str, str] = field(default_factory=dict)
    defines: dict[str, m.Define] = field(default_factory=dict)
    effects: dict[str, m.Effect] = field(default_factory=dict)
    actions: dict[str, str] = field(default_factory=dict)
    steps: dict[str, str] = field(default_factory=dict)
    # Seats by id: "p is x" reads "p is <seat name>".
    seats: dict[str, str] = field(default_factory=dict)
    # Declared phrases of attributes ("settled", "has built this turn"), by name,
    # for areas and for players: a yes/no attribute reads as that phrase.
    area_phrases: dict[str, str] = field(default_factory=dict)
    player_phrases: dict[str, str] = field(default_factory=dict)
    # The game's attributes' phrases, its round ("season") and its orders of play, by name.
    game_phrases: dict[str, str] = field(default_factory=dict)
    rounds: dict[str, str] = field(default_factory=dict)
    orders: dict[str, str] = field(default_factory=dict)
    # Cards: each printed card's title, by id; the phrases of properties ("the cost of
    # {card}"); the abilities of card kinds, whose titles read their calls.
    cards: dict[str, str] = field(default_factory=dict)
    card_phrases: dict[str, str] = field(default_factory=dict)
    # The phrases of yes/no properties and attributes of cards ("is a wild card"), by
    # name: `it.wild` reads "it is a wild card", `not it.wild` "it is not a wild card".
    card_flags: dict[str, str] = field(default_factory=dict)
    abilities: dict[str, Any] = field(default_factory=dict)
    zones: dict[str, str] = field(default_factory=dict)  # declared zones' titles, by id
    # The title of the board every player builds of their own (`board NAME "…" each
    # player`): "the empty positions next to your station"; None: one shared board.
    board: str | None = None
    # What the game calls its general supply (the ruleset's `pool "…"`).
    pool: str = "the pool"
    shared_zones: set[str] = field(default_factory=set)
    # What lies on the boards, as the ruleset has it: its printed cards when it lays cards
    # and declares no tiles ("2 cards in Red’s station"), else tiles.
    laid: tuple[str, str] = ("tile", "tiles")

    @classmethod
    def of(cls, ruleset: m.Ruleset) -> Vocabulary:
        v = cls()
        v.seats = {s.id: s.name for s in ruleset.seats}
        v.pool = ruleset.pool
        for d in ruleset.all_decls():
            if isinstance(d, (m.FeatureKind, m.AreaKind, m.PieceKind, m.ResourceKind,
                              m.FamilyDecl)):
                v.singular[d.id] = d.title
                v.plural[d.id] = d.plural or d.title + "s"
                if isinstance(d, m.AreaKind):
                    for a in d.attributes:
                        if a.phrase:
                            v.area_phrases.setdefault(a.name, a.phrase)
            elif isinstance(d, m.PlayerAttribute) and d.attribute.phrase:
                v.player_phrases[d.attribute.name] = d.attribute.phrase
            elif isinstance(d, m.Define):
                v.defines[d.id] = d
            elif isinstance(d, m.Effect):
                v.effects[d.id] = d
            elif isinstance(d, m.Action):
                v.actions[d.id] = d.title
            elif isinstance(d, m.StepDecl):
                v.steps[d.id] = d.title
            elif isinstance(d, m.GameAttribute) and d.attribute.phrase:
                v.game_phrases[d.attribute.name] = d.attribute.phrase
            elif isinstance(d, m.RoundDecl):
                v.rounds[d.id] = d.title
            elif isinstance(d, m.OrderDecl):
                v.orders[d.id] = d.title
            elif isinstance(d, m.CardKind):
                v.singular[d.id] = d.title
                v.plural[d.id] = d.plural or d.title + "s"
                for p in d.properties:
                    # A phrase naming the card ("the cost of {card}") reads `c.cost`; one
                    # saying the value ("costs {value} coins") describes a card instead.
                    if p.phrase and "{card}" in p.phrase:
                        v.card_phrases.setdefault(p.name, p.phrase)
                    elif p.kind == "bool":
                        v.card_flags.setdefault(
                            p.name, p.phrase or f"is {p.name.replace('_', ' ')}")
                for a in d.attributes:
                    if a.type == "bool":
                        v.card_flags.setdefault(
                            a.name, a.phrase or f"is {a.name.replace('_', ' ')}")
                for a in d.abilities:
                    v.abilities.setdefault(a.name, a)
            elif isinstance(d, m.BoardDecl) and d.per_player:
                v.board = d.title
            elif isinstance(d, m.ZoneDecl) and not d.legacy:
                v.zones[d.id] = d.title
                if not d.per_player:
                    v.shared_zones.add(d.id)
        v.cards = {c.id: c.title for c in ruleset.cards()}
        if v.cards and not ruleset.tiles():
            v.laid = ("card", "cards")
        return v

    def one(self, kind: str) -> str:
        return self.singular.get(kind, kind.replace("_", " "))

    def many(self, kind: str) -> str:
        return self.plural.get(kind, kind.replace("_", " ") + "s")

    def a(self, kind: str) -> str:
        """One of a kind with its article: "a lake"; a kind counted only in a unit
        ("outer space", plural "outer space areas") goes without one."""
        word = self.one(kind)
        if self.many(kind).startswith(word + " "):
            return word
        return article(word)


# How a sentence turns negative: its first verb takes the "not".
_NEGATIONS = ((" is not ", None), (" are not ", None), (" does not ", None),
              (" do not ", None), (" cannot ", None), (" is ", " is not "),
              (" are ", " are not "), (" has ", None), (" have ", None),
              (" may ", " may not "), (" can ", " cannot "), (" must ", " need not "))
# "has" before a past participle is a tense ("has built": "has not built"); before
# anything else it is owning ("has a station", "has Long range": "does not have").
_PARTICIPLES = {"built", "drawn", "done", "gone", "made", "taken", "given", "won", "lost",
                "paid", "set", "put", "been", "had", "seen", "sent", "left", "kept", "held",
                "bought", "sold", "brought", "got", "begun", "chosen", "fallen", "flown",
                "grown", "known", "shown", "thrown", "written", "yet", "already", "just"}


def negate(sentence: str) -> str:
    """`t is next to a well` → `t is not next to a well`.

    A defined condition reads as a sentence of its own title; the negative
    puts "not" on its first verb, and falls back on "it is not so that …"
    when there is no verb to take it (or the sentence is negative already).
    "has" owning something becomes "does not have"; "has" of a tense ("has
    built") becomes "has not".
    """
    padded = f" {sentence} "
    found = [(at, -len(verb), verb, negative) for verb, negative in _NEGATIONS
             if (at := padded.find(verb)) >= 0]
    if found:
        at, _, verb, negative = min(found, key=lambda f: f[:2])
        if verb in (" has ", " have "):
            rest = padded[at + len(verb):]
            word = rest.split(" ", 1)[0]
            owning = not (word.endswith("ed") or word in _PARTICIPLES)
            if verb == " has ":
                negative = " does not have " if owning else " has not "
            else:
                negative = " do not have " if owning else " have not "
        if negative is not None:
            return (padded[:at] + negative + padded[at + len(verb):]).strip()
    return f"it is not so that {sentence}"


def negate_title(title: str) -> str:
    """The negative of a defined condition's title, before it is filled in: as `negate`,
    and for a plain verb after the first parameter, "does not": "{c} lies on the table"
    → "{c} does not lie on the table" (said of the title, where the verb is known to
    follow the subject, not guessed in the filled-in sentence)."""
    said = negate(title)
    plain = re.fullmatch(r"(\{\w+\}) ([a-z]+)s( .*)?", title)
    if not said.startswith("it is not so that ") or plain is None:
        return said
    return f"{plain.group(1)} does not {_base_form(plain.group(2) + 's')}{plain.group(3) or ''}"


def _base_form(verb: str) -> str:
    """A verb of the third person singular in its base form: "lies" → "lie",
    "carries" → "carry", "touches" → "touch", "builds" → "build"."""
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if re.search(r"(ss|sh|ch|x|o)es$", verb):
        return verb[:-2]
    return verb[:-1]


def agree(subject: str, predicate: str) -> str:
    """`subject predicate`, with the verb agreeing with "you" ("you are", "you have")."""
    if subject != "you":
        return f"{subject} {predicate}"
    head, _, rest = predicate.partition(" ")
    irregular = {"is": "are", "has": "have", "does": "do", "was": "were"}
    if head in irregular:
        head = irregular[head]
    elif re.fullmatch(r"[a-z]+s", head) and not head.endswith("ss") and head not in (
            "less", "always", "perhaps", "thus", "was"):
        head = _base_form(head)
    return f"you {head} {rest}".rstrip()


OPS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
       ">": "is more than", ">=": "is at least"}


_CONSONANT_SOUND = re.compile(r"(uni|use|usu|uti|eu|one\b|once\b|ur[aeiou])", re.I)
_VOWEL_SOUND = re.compile(r"(hour|honou?r|heir)", re.I)


def article(word: str) -> str:
    """"a" or "an" before a word, by its sound where the spelling misleads ("a unit")."""
    vowel = word[:1].lower() in "aeiou"
    if vowel and _CONSONANT_SOUND.match(word):
        vowel = False
    elif not vowel and _VOWEL_SOUND.match(word):
        vowel = True
    return ("an " if vowel else "a ") + word


def the(title: str) -> str:
    """A title with its definite article, once: "the draw deck", and "the box" as written."""
    return title if title.startswith("the ") else f"the {title}"


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """"1 tile", "3 tiles": a number with its noun in the right number."""
    return f"{number} {singular if number == 1 else (plural or singular + 's')}"


# Says a node's value in words instead of its formula, or None to read the formula.
Values = Callable[[Any], "str | None"]


class English:
    """Reads IR nodes as English.

    With `values` (see `with_values`), nodes whose value is known are said by
    their value ("Blue's pawn at 1,0:lake") instead of by their formula
    ("e"): that is how a ruling names the pieces and tiles of one position.
    """

    def __init__(self, vocab: Vocabulary, values: Values | None = None) -> None:
        self.v = vocab
        self.values = values
        # Names a `where` binds to each element in turn: never said by a value.
        self.hidden: frozenset[str] = frozenset()

    def with_values(self, values: Values) -> English:
        """This reading, saying known values through `values`."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.values = values
        return other

    # ----------------------------------------------------------- values

    def __call__(self, node: Any) -> str:
        if self.values is not None and not (self.hidden and _reads(node) & self.hidden):
            said = self.values(node)
            if said is not None:
                return said
        return getattr(self, f"e_{node.node}")(node)

    def _hiding(self, *names: str | None) -> English:
        """This reading, with the names a `where` binds left as names."""
        if self.values is None:
            return self
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.hidden = self.hidden | {x for x in names if x}
        return other

    def _element(self, coll: Any) -> English:
        alias = None
        while isinstance(coll, n.Filtered):
            coll = coll.collection
        if isinstance(coll, n.Collection):
            alias = coll.alias
        return self._hiding("it", alias)

    def negative(self, node: Any) -> str:
        """The English of `not node`, with the "not" where a reader expects it."""
        return self.e_not(n.Not(value=node, type="bool"))

    def e_number(self, node: n.Number) -> str:
        return str(node.value)

    def e_text(self, node: n.Text) -> str:
        return f"“{node.value}”"

    def e_bool(self, node: n.Boolean) -> str:
        return "yes" if node.value else "no"

    def e_none(self, node: n.NoneValue) -> str:
        return "nobody" if node.type in (None, "none", "player") else "none"

    def e_name(self, node: n.Name) -> str:
        if node.ref == "card":
            return f"the {self.v.cards.get(node.id, node.id)}"
        if node.category == "zone":
            return the(self.v.zones.get(node.id, node.id))
        if node.ref == "kind":
            return f"the {self.v.many(node.id)}"
        if node.ref == "builtin" or node.id in ("closer", "it"):
            return self.value_words(node)
        if node.ref == "order":
            return f"the players in {the(self.v.orders.get(node.id, node.id.replace('_', ' ')))}"
        return node.id.replace("_", " ")

    def value_words(self, node: n.Name) -> str:
        """A builtin value (`me`, `tiles`) or `it`, in words."""
        b = LIBRARY.get(node.id)
        if b is not None and b.value:
            return b.english(self, node)
        return node.id  # `it`

    def e_attr(self, node: n.Attr) -> str:
        x = self(node.obj)
        if node.obj.type == "game" and node.name in self.v.rounds:
            return f"the number of the {self.v.rounds[node.name]}"
        kernel = ATTRIBUTES.get((node.obj.type or "", node.name))
        if kernel is not None:
            return kernel.english(self, node, x)
        sentence = self._attribute_sentence(node, x)
        if sentence is not None:
            return sentence
        if node.obj.type in ("card", "tile") and node.name in self.v.card_phrases:
            return self.v.card_phrases[node.name].replace("{card}", x)
        if node.obj.type == "tile" and node.name == "card":
            return f"the card {x} shows"
        if node.name in self.v.plural:
            return f"{_possessive(x)} {self.v.many(node.name)}"
        if x == "you":
            return f"your {node.name.replace('_', ' ')}"
        return f"the {node.name.replace('_', ' ')} of {x}"

    def _attribute_sentence(self, node: n.Attr, x: str) -> str | None:
        """A yes/no attribute with a declared phrase, as a sentence: "you have built this turn"."""
        if node.type != "bool" or "{value}" in (self._phrase(node) or "{value}"):
            return None
        phrase = self._phrase(node)
        if node.obj.type in ("player", "game", "card", "tile"):
            return agree(x, phrase)  # type: ignore[arg-type]
        return agree(x, f"is {phrase}")

    def _phrase(self, node: n.Attr) -> str | None:
        if node.obj.type == "player":
            return self.v.player_phrases.get(node.name)
        if node.obj.type == "area":
            return self.v.area_phrases.get(node.name)
        if node.obj.type == "game":
            return self.v.game_phrases.get(node.name)
        if node.obj.type in ("card", "tile"):  # a card's phrase says the whole predicate
            return self.v.card_flags.get(node.name)
        return None

    def collection(self, node: Any, alias: bool = True) -> str:
        """`pawn in a of p` -> "p's pawns in a"."""
        if isinstance(node, n.Collection) and node.type == "zone":
            title = self.v.zones.get(node.source.id, "")  # type: ignore[union-attr]
            if node.owner is None:
                return the(title)
            return _owned(self(node.owner), title)
        if isinstance(node, n.Collection) and node.within is not None \
                and node.within.type == "zone":
            return f"the cards in {self(node.within)}"
        if isinstance(node, n.Collection):
            src = node.source
            if isinstance(src, n.Name) and src.ref in ("kind", "builtin"):
                noun = self.v.many(src.id) if src.ref == "kind" else \
                    self.value_words(src).removeprefix("the ")
            else:
                noun = self(src).removeprefix("the ")
            builtin = LIBRARY.get(src.id) if isinstance(src, n.Name) and \
                src.ref == "builtin" else None
            owned = builtin.english_of(self, src, _possessive(self(node.owner))) \
                if builtin is not None and node.owner is not None else None
            if owned is not None:
                text = owned
            elif node.owner is not None:
                text = _owned(self(node.owner), noun)
            else:
                text = f"the {noun}"
            if node.within is not None:
                text += f" in {self(node.within)}"
            return text
        return self(node)

    def e_collection(self, node: n.Collection) -> str:
        return self.collection(node)

    def e_filtered(self, node: n.Filtered) -> str:
        coll = self.collection(node.collection)
        cond = self._element(node.collection)(node.cond)
        relative = self._relative(cond) if not coll.startswith("a ") else None
        if relative is not None:
            return f"{coll} {relative}"
        return f"{coll} for which {cond}"

    def _relative(self, cond: str) -> str | None:
        """A condition on `it` as a relative clause of a plural noun: "it is a
        lake or it is a well" → "that are lakes or wells"; "it is
        closed and the controller of it is you" → "that are closed and whose
        controller is you". None where `it` is anything but the subject or
        owner of each clause."""
        clauses = re.split(r"(, and |, or |, | and | or )(?=it |the [a-z ]+? of it )", cond)
        out = []
        for i, part in enumerate(clauses):
            if i % 2:
                out.append(part)
                continue
            owned = re.match(r"the ((?:(?!\bof\b)[a-z ])+?) of it ", part)
            if part.startswith("it "):
                predicate = part.removeprefix("it ")
                plural = agree("you", predicate).removeprefix("you ")
                plural = re.sub(r"^(are(?: not)?) (an?) (.+)$",
                                lambda m: f"{m.group(1)} {many}" if (
                                    many := self._many_of(m.group(3))) else m.group(0),
                                plural)
                clause = ("that " if i == 0 else "") + plural
                rest = predicate
            elif owned:
                rest = part[owned.end():]
                clause = f"whose {owned.group(1)} {rest}"
            else:
                return None
            if re.search(r"\bits?\b", rest):
                return None
            out.append(clause)
        # "that are lakes or are wells" → "that are lakes or wells"
        text = "".join(out)
        return re.sub(r"^that (are(?: not)?) ([^,]+?)( or | and )\1 (?!not )", r"that \1 \2\3",
                      text)

    def _many_of(self, title: str) -> str | None:
        """The plural of a kind named by its title ("lake" → "lakes")."""
        for kind, one in self.v.singular.items():
            if one == title:
                return self.v.many(kind)
        return None

    def e_arith(self, node: n.Arith) -> str:
        symbols = {"+": "+", "-": "−", "*": "×", "/": "÷"}
        multiplying = node.rest[0][0] in "*/"
        parts = [self._operand(node.first, multiplying)]
        for op, e in node.rest:
            parts += [symbols[op], self._operand(e, multiplying)]
        return " ".join(parts)

    def _operand(self, node: Any, multiplying: bool = True) -> str:
        """Parentheses only where precedence needs them: a sum inside a product."""
        text = self(node)
        if isinstance(node, n.IfExpr):
            return f"({text})"
        if isinstance(node, n.Arith) and multiplying and node.rest[0][0] in "+-":
            return f"({text})"
        return text

    def e_neg(self, node: n.Neg) -> str:
        return f"−{self._operand(node.value, True)}"

    def e_logic(self, node: n.Logic) -> str:
        parts = [self._clause(i, node.op) for i in node.items]
        if len(parts) == 2:
            return f" {node.op} ".join(parts)
        return ", ".join(parts[:-1]) + f" {node.op} " + parts[-1]

    def _clause(self, node: Any, op: str) -> str:
        text = self(node)
        if isinstance(node, n.Logic) and node.op != op:
            return f"({text})"
        return text

    def e_not(self, node: n.Not) -> str:
        inner = node.value
        if self.values is not None:
            said = self.values(inner)
            if said is not None:
                return negate(said) if inner.type == "bool" else f"not {said}"
        if isinstance(inner, n.Not):
            return self(inner.value)
        if isinstance(inner, n.Has):
            return agree(self(inner.value), f"has no {self.v.one(inner.kind)}") \
                if not (inner.value.type or "").startswith("set:") else \
                f"none of {self(inner.value)} has {self.v.a(inner.kind)}"
        if isinstance(inner, n.IsKind):
            return self.e_is_kind(inner, negate=True)
        if isinstance(inner, n.IsNone):
            return self.e_is_none(inner, negate=True)
        if isinstance(inner, n.IsIn):
            return self.e_is_in(inner, negate=True)
        if isinstance(inner, n.Compare):
            flipped = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
            return self.e_compare(inner.model_copy(update={"op": flipped[inner.op]}))
        if isinstance(inner, n.Attr) and (inner.obj.type or "", inner.name) in ATTRIBUTES:
            said = ATTRIBUTES[(inner.obj.type or "", inner.name)].english_negated(self, inner)
            if said is not None:
                return said
        if isinstance(inner, n.Attr) and self._attribute_sentence(inner, "x") is not None:
            return negate(self(inner))
        if isinstance(inner, n.Call) and not inner.defined and inner.func in LIBRARY:
            said = LIBRARY[inner.func].english_negated(self, inner)
            if said is not None:
                return said
        if isinstance(inner, n.Call) and inner.defined:
            d = self.v.defines.get(inner.func)
            if d is not None and d.title:
                return self.e_call(inner, title=negate_title(d.title))
            return negate(self(inner))
        if isinstance(inner, n.Logic) and inner.op == "or" and all(
                isinstance(i, n.IsKind) and not i.negated for i in inner.items) and len(
                {self(i.value) for i in inner.items}) == 1:  # type: ignore[attr-defined]
            subject = self(inner.items[0].value)  # type: ignore[attr-defined]
            kinds = [self.v.a(i.kind) for i in inner.items]  # type: ignore[attr-defined]
            return agree(subject, "is not " + ", ".join(kinds[:-1]) + f" or {kinds[-1]}")
        if isinstance(inner, n.Logic):
            # De Morgan: "not (a and b)" is "not a or not b".
            other = "or" if inner.op == "and" else "and"
            parts = [self.negative(i) for i in inner.items]
            joined = f" {other} ".join(parts) if len(parts) == 2 else \
                ", ".join(parts[:-1]) + f" {other} " + parts[-1]
            return f"({joined})" if other == "or" else joined
        if inner.type == "bool":
            return f"it is not so that {self(inner)}"
        return f"not ({self(inner)})"

    def e_compare(self, node: n.Compare) -> str:
        left, right = node.left, node.right
        if isinstance(left, n.Call) and left.func in LIBRARY:
            said = LIBRARY[left.func].english_compared(self, node)
            if said is not None:
                return said
        if isinstance(left, n.Attr) and left.name in self.v.plural and isinstance(right, n.Number) \
                and right.value == 0 and node.op in (">", "==", "<="):
            owner = self(left.obj)
            if node.op == ">":
                return agree(owner, f"holds at least one {self.v.one(left.name)}")
            return agree(owner, f"holds no {self.v.many(left.name)}")
        return agree(self(left), f"{OPS[node.op]} {self(right)}")

    def e_is_kind(self, node: n.IsKind, negate: bool = False) -> str:
        neg = node.negated != negate
        if node.value.type == "player":
            what = self.v.seats.get(node.kind, node.kind)
        elif node.kind in self.v.cards:
            what = article(self.v.cards[node.kind])
        else:
            what = self.v.a(node.kind)
        return agree(self(node.value), f"is {'not ' if neg else ''}{what}")

    def e_is_none(self, node: n.IsNone, negate: bool = False) -> str:
        t = node.value.type
        word = "somebody" if t == "player" else "something"
        empty = "nobody" if t == "player" else "nothing"
        return agree(self(node.value), f"is {word if node.negated != negate else empty}")

    def e_is_in(self, node: n.IsIn, negate: bool = False) -> str:
        neg = node.negated != negate
        return agree(self(node.value), f"is {'not ' if neg else ''}among "
                                       f"{self.collection(node.collection)}")

    def e_has(self, node: n.Has) -> str:
        subject = self(node.value)
        if (node.value.type or "").startswith("set:"):
            subject = f"one of {subject}"
        return agree(subject, f"has {self.v.a(node.kind)}")

    def e_if_expr(self, node: n.IfExpr) -> str:
        return f"{self(node.then)} if {self(node.cond)}, otherwise {self(node.otherwise)}"

    def e_call(self, node: n.Call, title: str | None = None) -> str:
        """A call; a defined one reads as its title filled in (or as `title`, its
        negative, when given)."""
        args = node.args
        if node.ability:
            return self._ability(node.func, args)
        if node.defined:
            d = self.v.defines.get(node.func)
            if d is not None and d.title:
                text = fill(title or d.title, {p: self(a) for p, a in zip(d.params, args)})
                if text.startswith("you "):
                    text = agree("you", text[4:])
                mine = re.fullmatch(r"the (.+) of you", text)
                if mine and " of " not in mine.group(1):
                    text = f"your {mine.group(1)}"
                return text
            return f"{node.func.replace('_', ' ')}({', '.join(self(a) for a in args)})"
        f = node.func
        b = LIBRARY.get(f)
        if b is not None:
            return b.english(self, node)
        return f"{f}({', '.join(self(a) for a in args)})"

    # -------------------------------------------------------- statements

    def stmt(self, s: Any) -> str:
        return getattr(self, f"s_{s.node}")(s)

    def block(self, body: list[Any]) -> list[str]:
        return [self.stmt(s) for s in body]

    def s_place(self, s: n.Place) -> str:
        who = f"{_possessive(self(s.owner))} " if s.owner else "your "
        return f"put {article(self.v.one(s.kind))} from {who}supply on {self(s.at)}"

    def s_stack(self, s: n.StackOn) -> str:
        whose = "" if s.owner is None else f" of {self(s.owner)}"
        return f"put {article(self.v.one(s.kind))}{whose} on top of {self(s.on)}"

    def s_move(self, s: n.Move) -> str:
        if s.what == "card" and s.source is not None and isinstance(s.piece, n.Name):
            return f"move {self(s.piece)} from {self(s.source)} to {self(s.to)}"
        return f"move {self(s.piece)} to {self(s.to)}"

    def s_deal(self, s: n.Deal) -> str:
        count = self(s.count)
        cards = "card" if count == "1" else "cards"
        return f"deal {count} {cards} from {self(s.source)} to {self(s.target)}"

    def s_shuffle(self, s: n.Shuffle) -> str:
        return f"shuffle {self(s.zone)}"

    def s_rotate(self, s: n.Rotate) -> str:
        title = self.v.zones.get(s.zone, s.zone.replace("_", " "))
        k = s.by.value if isinstance(s.by, n.Number) else \
            -s.by.value.value if isinstance(s.by, n.Neg) and isinstance(s.by.value, n.Number) \
            else None
        if k is None:
            return (f"every player passes their {title} to the player {self(s.by)} seats on "
                    f"(clockwise; a negative number, anticlockwise)")
        way = "clockwise" if k >= 0 else "anticlockwise"
        return f"every player passes their {title} to the player {counted(abs(k), 'seat')} {way}"

    def s_reveal(self, s: n.Reveal) -> str:
        if s.attribute:  # a secret player attribute: its hidden values are shown
            what = s.zone.replace("_", " ")
            if s.owner is not None:
                return f"show {_possessive(self(s.owner))} {what}"
            return f"every player shows their {what}"
        title = self.v.zones.get(s.zone, s.zone.replace("_", " "))
        if s.owner is not None:
            return f"turn {_possessive(self(s.owner))} {title} face up"
        if s.zone in self.v.shared_zones:
            return f"turn {the(title)} face up"
        return f"turn every {title} face up"

    def s_return(self, s: n.Return) -> str:
        return f"return {self(s.what)} to their owners' supplies" \
            if (s.what.type or "").startswith("set:") else \
            f"return {self(s.what)} to its owner's supply"

    def s_give(self, s: n.Give) -> str:
        src = f" from {self(s.source)}" if s.source is not None else ""
        amount = self(s.amount)
        if s.kind_var:
            noun = f"of {s.resource.replace('_', ' ')}"  # a kind chosen in play
        else:
            noun = self.v.one(s.resource) if amount == "1" else self.v.many(s.resource)
            if amount.endswith(f" {self.v.many(s.resource)}"):
                noun = ""  # "o’s victory points", not "o’s victory points victory points"
        what = f"{amount} {noun}" if noun else amount
        target = self(s.target)
        if s.source is not None and target == self.v.pool:  # a payment: the payer's side
            return agree(self(s.source), f"pays {what} to {target}")
        return agree(target, f"receives {what}{src}")

    def s_draw(self, s: n.Draw) -> str:
        kinds = ", ".join(self.v.many(k) for k in s.kinds)
        return (f"draw {self(s.count)} at random from {self(s.source)} to {self(s.target)}, "
                f"each one of {kinds} as chance decides")

    def s_set_attr(self, s: n.SetAttr) -> str:
        sentence = self._attribute_sentence(s.target, self(s.target.obj))
        if sentence is not None and isinstance(s.value, n.Boolean):
            return sentence if s.value.value else negate(sentence)
        if sentence is not None and isinstance(s.value, n.Not) and _same_attr(s.value.value, s.target):
            return f"{sentence} if it did not before, and no longer if it did"  # a flag flipped
        if sentence is not None:
            return f"{sentence} if {self(s.value)}, and not otherwise"
        return f"{self(s.target)} becomes {self(s.value)}"

    def s_clear_attr(self, s: n.ClearAttr) -> str:
        who = self(s.target.obj)
        if self._attribute_sentence(s.target, who) is not None:
            return negate(self(s.target)) + " any more"
        return agree(who, f"has no {s.target.name.replace('_', ' ')} any more")

    def s_grant_one(self, s: n.GrantOne) -> str:
        who = "you" if s.to is None else self(s.to)
        verb = "must now" if s.must else "may also"
        acts = " or ".join(self.v.actions.get(a, a) for a in (s.action, *s.alternatives))
        return f"{who} {verb} {acts}"

    def _ability(self, name: str, args: list[Any]) -> str:
        """An ability of a card, in the words of its title ("the effect of t")."""
        d = self.v.abilities.get(name)
        if d is not None and d.title:
            return fill(d.title, {p: self(a) for (p, _), a in zip(d.params, args)})
        rest = f" for {', '.join(self(a) for a in args[1:])}" if len(args) > 1 else ""
        return f"the {name.replace('_', ' ')} of {self(args[0])}{rest}" if args else name

    def s_apply(self, s: n.Apply) -> str:
        if s.ability:
            return self._ability(s.effect, s.args)
        d = self.v.effects.get(s.effect)
        if d is not None and d.title:
            return fill(d.title, {p: self(a) for p, a in zip(d.params, s.args)})
        return f"{s.effect.replace('_', ' ')}({', '.join(self(a) for a in s.args)})"

    def s_grant_each(self, s: n.GrantEach) -> str:
        verb = "must now" if s.must else "may now"
        act = self.v.actions.get(s.action, s.action)
        text = f"each of {self(s.players)} {verb} {act}"
        if s.at_once:
            text += ", all at once and in secret"
        if s.then is not None:
            text += f"; when all have chosen: {self.stmt(s.then)}"
        return text

    def s_grant_many(self, s: n.GrantMany) -> str:
        acts = " or ".join(self.v.actions.get(a, a) for a in s.actions)
        count = self(s.count)
        return f"you may take up to {count} more action{'' if count == '1' else 's'}, " \
               f"each to {acts}"

    def s_for_each(self, s: n.ForEach) -> str:
        inner = "; ".join(self.block(s.body))
        return f"for each {s.var} of {self.collection(s.collection)}: {inner}"

    def s_if(self, s: n.If) -> str:
        text = f"if {self(s.cond)}: " + "; ".join(self.block(s.then))
        if s.otherwise:
            text += "; otherwise: " + "; ".join(self.block(s.otherwise))
        return text

    def s_let(self, s: n.Let) -> str:
        return f"let {s.name.replace('_', ' ')} be {self(s.value)}"

    def s_lay(self, s: n.Lay) -> str:
        whence = f" from {self(s.source)}" if s.source is not None and not s.inferred else ""
        if s.face is None and s.rotation is None:
            return f"lay {self(s.card)}{whence} at {self(s.cell)}"
        face = f" with face {self(s.face)} up" if s.face is not None else ""
        turned = f", turned {self(s.rotation)}" if s.rotation is not None else ""
        return f"lay {self(s.card)}{whence}{face} at {self(s.cell)}{turned}"

    def s_discard(self, s: n.Discard) -> str:
        return f"set {self(s.card)} aside, out of the game"

    def s_remove_tile(self, s: n.RemoveTile) -> str:
        where = "aside, out of the game" if s.zone == "set_aside" else \
            f"to the {s.zone.replace('_', ' ')}"
        return f"take {self(s.tile)} off its board and put it {where} (what it holds goes " \
               f"to {self.v.pool})"

    def s_turn_down(self, s: n.TurnDown) -> str:
        return f"turn {self(s.tile)} face down where it lies"


def _reads(node: Any) -> set[str]:
    """The variables an expression reads."""
    out: set[str] = set()
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, n.Name):
            if x.ref == "var":
                out.add(x.id)
            continue
        if isinstance(x, n.Node):
            for value in x.__dict__.values():
                for v in value if isinstance(value, list) else (value,):
                    if isinstance(v, tuple):
                        v = v[1]
                    if isinstance(v, n.Node):
                        stack.append(v)
    return out


def _owned(owner: str, noun: str) -> str:
    """"p’s pawns"; owned by a phrase, "the pieces of its controller" rather than
    "the controller of it’s pieces", which reads as if the pieces belonged to "it"."""
    about_it = re.fullmatch(r"the (.+) of it", owner)
    if about_it:
        return f"the {noun} of its {about_it.group(1)}"
    if owner.startswith("the ") and " of " in owner:
        return f"the {noun} of {owner}"
    return f"{_possessive(owner)} {noun}"


def possessive(x: str) -> str:
    """"Red’s", "your", "its", "the Vaks’"."""
    if x == "you":
        return "your"
    if x == "it":
        return "its"
    return f"{x}’" if x.endswith("s") else f"{x}’s"


_possessive = possessive


def _same_attr(a: Any, b: n.Attr) -> bool:
    """Whether `a` reads the same attribute of the same name as `b` (`x.f` in `set x.f to not x.f`)."""
    return isinstance(a, n.Attr) and a.name == b.name and isinstance(a.obj, n.Name) and \
        isinstance(b.obj, n.Name) and a.obj.id == b.obj.id


def declaration_readings(ruleset: m.Ruleset, decls: list[Any] | None = None
                         ) -> list[tuple[str, str]]:
    """Every condition, choice and effect of each declaration (every one of the ruleset's, by
    default), read in English, each with a label saying whose it is (the rule, the
    declaration and the part): what `rulebook diff` compares, and the tests keep."""
    en = English(Vocabulary.of(ruleset))
    out: list[tuple[str, str]] = []
    ordinal: dict[tuple[str | None, str], int] = {}
    for d in ruleset.all_decls() if decls is None else decls:
        key = (d.rule, d.decl)
        ordinal[key] = ordinal.get(key, 0) + 1
        who = f"{d.rule} {d.decl} {getattr(d, 'id', None) or ordinal[key]}"
        if isinstance(d, m.Action):
            if d.alongside:
                out.append((f"{who} offered", "wherever " + " or ".join(
                    en.v.actions.get(a, a) for a in d.alongside) + " is offered"))
            out += [(f"{who} choice {p.name}", en.collection(p.domain)) for p in d.params]
            out += [(f"{who} requires", en(r.cond)) for r in d.requires]
            out += [(f"{who} effect", t) for t in en.block(d.effects)]
        elif isinstance(d, m.Forbid):
            out.append((f"{who} when", en(d.cond)))
        elif isinstance(d, m.Trigger):
            out += [(f"{who} effect", t) for t in en.block(d.body)]
            if d.where is not None:
                out.append((f"{who} where", en(d.where)))
        elif isinstance(d, m.Define):
            out.append((f"{who} is", en(d.expr)))
        elif isinstance(d, m.Effect):
            out += [(f"{who} does", t) for t in en.block(d.body)]
    return out
