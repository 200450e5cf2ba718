"""The language reference: every construct of the rules language, with an example that compiles.

Why it exists: an author learning the language needs one page that says, for
each construct, what it is for, shows it in use and gives its exact syntax.
Such a page drifts the moment it is retyped by hand, so this one is built from
the sources of truth instead:

* the syntax shown under each construct is cut out of `grammar/rules.lark`
  when the page is made (`grammar_excerpt`), never copied;
* every example is a real snippet that `wrap` embeds in a small, complete
  ruleset, and the tests compile each one (and play the worked examples
  against the engine);
* the tests compare the constructs with the grammar and the IR: every
  top-level item, declaration, statement, event, expression form and
  expectation of the grammar appears in some example, and every declaration
  class of the IR (`compiler/ir/model.py`) has a construct. A new kind added
  to either without an entry here fails the tests.

The examples use a neutral little game of pawns, towers, fields and lakes:
the compiler is game-agnostic and so is its reference.
"""

from __future__ import annotations

import re
import textwrap
import typing
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from lark import Tree

from compiler.check.symbols import BUILTIN_VALUES, EVENT_VALUES, FUNCTIONS
from compiler.check.types import words
from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.parse.grammar import GRAMMAR_DIR, rules_parser

GRAMMAR_FILE = GRAMMAR_DIR / "rules.lark"

Context = Literal["top", "chapter", "rule", "action", "expr", "variant"]

GROUPS = ("Structure", "Variants", "Board and components", "Turn and actions",
          "Triggers and scoring", "Expressions", "Examples and rulings")

CONTEXT_WORDS: dict[str, str] = {
    "top": "Written at the top level of a `.rules` file.",
    "chapter": "Written inside a chapter.",
    "rule": "Written inside a rule (or directly inside a chapter).",
    "action": "Written inside an action; statements also make up the blocks of triggers, "
              "`if` and `for each`.",
    "expr": "An expression: it stands wherever the language expects a value or a condition.",
    "variant": "Written at the top level of a variant, a ruleset that `extends` another.",
}

# The ids of the small rulesets the examples are compiled in.
BASE_ID = "demo"
VARIANT_ID = "demo_variant"


@dataclass(frozen=True)
class Construct:
    """One construct of the language, as the reference presents it."""

    name: str                 # the heading, e.g. "action"
    grammar_rule: str         # the Lark rule (or terminal) of grammar/rules.lark it documents
    summary: str              # what it is for, and why, in our own words
    example: str              # a short snippet in the language
    context: Context          # where the snippet goes (see CONTEXT_WORDS)
    group: str                # the section of the page (one of GROUPS)
    also: tuple[str, ...] = ()       # further grammar rules shown under it
    shows: tuple[str, ...] = ()      # parse-tree nodes the example must contain
    ir: tuple[str, ...] = ()         # IR classes the example compiles to
    replaces: tuple[str, ...] = ()   # parts of the surrounding ruleset the example stands in for

    @property
    def anchor(self) -> str:
        return "ref-" + (re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-") or "item")

    @property
    def grammar_rules(self) -> tuple[str, ...]:
        return (self.grammar_rule, *self.also)


def _src(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


# --------------------------------------------------------- the base ruleset
# The parts of the small ruleset every example is compiled in. An example that
# stands in for one of them (`replaces`) takes its place.

HEADER = _src('''
    ruleset demo {
        title "Demo"
        players 2 to 4
        seats red "Red", blue "Blue", green "Green", white "White"
        chapters main
    }
''')

TILESET = _src('''
    tiles base "Base tiles" {
        text "Three double-sided tiles, enough for the examples."
        tile t1 {
            face a [lake, field, field] { lake 0  field 1, 2 with town }
            face b [field, field, field] { field 0, 1, 2 }
        }
        tile t2 {
            face a [field, field, lake] { field 0, 1  lake 2 }
            face b [field, field, field] { field 0, 1, 2 with well }
        }
        tile t3 {
            face a [lake, lake, lake] { lake 0, 1, 2 }
            face b [field, lake, field] { field 0, 2  lake 1 }
        }
    }
''')

AREAS = _src('''
    area field "field" plural "fields" crosses field
    area lake "lake" plural "lakes" crosses lake {
        holds gold
        attribute keeper: player "kept by {value}"
        attribute dry: bool "dry"
        attribute fished: int "fished {value} times this turn" reset each turn
        attribute counted: bool "counted" given as it.closed
    }
''')

PIECES = _src('''
    piece pawn "pawn" plural "pawns"
    piece tower "tower" plural "towers" on pawn
''')

RESOURCES = _src('''
    resource gold "gold coin" plural "gold coins" limit 40
    resource points "point" plural "points" unlimited
''')

SUPPLY = _src('''
    supply by players {
        2: pawn 6, tower 2
        3: pawn 5, tower 2
        4: pawn 4, tower 1
    }
''')

STEPS = _src('''
    step lay "Lay a tile": must lay_tile also set_aside
    step act "Act": must one of build, research
    step score "Score": automatic
''')

LAY_TILE = _src('''
    action lay_tile "lay a tile" {
        notation "{card} {face} at {cell} r{rotation}"
        choose card from drawable
        choose face from faces(card)
        choose cell from frontier
        choose rotation from rotations
        require fits(card, face, cell, rotation) else "the edges do not match"
        lay card face face at cell rotation rotation
    }
''')

SET_ASIDE = _src('''
    action set_aside "set aside a tile that fits nowhere" {
        notation "set aside {card}"
        choose card from drawable
        require not placeable(card)
        discard card
    }
''')

BUILD = _src('''
    action build "build a pawn" {
        notation "build {site}"
        choose site from sites in placed
        require site is field or site is lake else "pawns stand in fields and lakes"
        require supply(me, pawn) > 0 per main.board
        place pawn at site
    }
''')

RESEARCH = _src('''
    action research "research" {
        notation "research"
        give 1 points to me
    }
''')

# name -> (where it goes, text); in this order within each place.
BASE: dict[str, tuple[str, str]] = {
    "header": ("header", HEADER),
    "lattice": ("board", "lattice triangle"),
    "edges": ("board", 'edge field "field"\nedge lake "lake"'),
    "match": ("board", "match same"),
    "features": ("board", 'feature town "town" plural "towns"\nfeature well "well"'),
    "areas": ("board", AREAS),
    "pieces": ("board", PIECES),
    "resources": ("board", RESOURCES),
    "score": ("board", "score is points"),
    "supply": ("board", SUPPLY),
    "stacks": ("board", "stacks 2 hiding well"),
    "first tile": ("board", "first tile at 0,0"),
    "use tiles": ("board", "use tiles base"),
    "steps": ("turn", STEPS),
    "lay_tile": ("turn", LAY_TILE),
    "set_aside": ("turn", SET_ASIDE),
    "build": ("turn", BUILD),
    "research": ("research", RESEARCH),
    "tired": ("turn", 'player attribute tired: bool "is tired"'),
    "end": ("goal", "game ends after turn when count(stock) == 0"),
    "last point": ("goal", "at end of game {\n    for each p in players {\n"
                           "        give 1 points to p\n    }\n}"),
    "winner": ("goal", "winner most it.points then most it.gold"),
    "tileset": ("tiles", TILESET),
}


# -------------------------------------------------------------- constructs

S, V, B, T, G, X, E = GROUPS  # X: expressions, E: examples

CONSTRUCTS: list[Construct] = [
    # ------------------------------------------------------------ structure
    Construct(
        name="ruleset header", grammar_rule="ruleset", group=S, context="top",
        also=("_header_item", "title", "subtitle", "version", "source", "players", "seats",
              "seat", "contents", "pool_name", "code"),
        summary="Names the ruleset and says what the rulebook's cover needs: title, edition, "
                "where the rules come from, how many may play (at most 100), the seats, and "
                "the chapters in reading order. `pool` names the general supply as rulings "
                "say it (\"the pool\" unless told). `code` (1 to 6 capitals or digits) "
                "prefixes the ids of the rulings and examples this ruleset writes: `DM-R1`, "
                "`DM-E1`; unsaid, it is the initials of the ruleset's name, and no two "
                "rulesets of a site may share one. Exactly one file of a ruleset carries it.",
        example='''
            ruleset demo {
                title "Demo"
                subtitle "A small game of pawns and lakes"
                version "1.0"
                source "Written for this reference"
                pool "the bank"
                code "DM"
                players 2 to 4
                seats red "Red", blue "Blue", green "Green", white "White"
                chapters main
            }
        ''',
        ir=("Ruleset",), replaces=("header",)),
    Construct(
        name="chapter", grammar_rule="chapter", group=S, context="top",
        also=("_chapter_item",),
        summary="A chapter of the rulebook: a page with its own introduction and numbered "
                "rules. Every chapter is listed in the header's `chapters`, which fixes the "
                "order of the book.",
        example='''
            chapter scoring "Scoring" {
                text "Points come from closed lakes and from research."

                rule scoring.lakes "Closed lakes" {
                    text "A closed lake pays its keeper one point per tile."
                }
            }
        ''',
        ir=("Chapter", "Rule")),
    Construct(
        name="page per rule", grammar_rule="page_per_rule", group=S, context="chapter",
        summary="Gives each of the chapter's rules a page of its own, for a long chapter of "
                "separate topics read one at a time (one page per faction, per card family). "
                "The chapter's page lists them; numbers, ids and links do not change, only "
                "where a rule is shown.",
        example='''
            page per rule

            rule main.river "The river folk" {
                text "They cross lakes as if they were land."
            }
            rule main.hill "The hill folk" {
                text "Their pawns count twice in a majority."
            }
        ''',
        ir=("Rule",)),
    Construct(
        name="rule", grammar_rule="rule", group=S, context="chapter",
        also=("rule_id", "_rule_item"),
        summary="A numbered, linkable rule: prose for the reader and, beside it, the "
                "declarations the engine runs. Rules nest; the engine cites the rule a "
                "declaration sits in whenever it applies it, so every verdict names its source. "
                "Numbers follow the reading order (the second rule of chapter 3 is 3.2, its "
                "first sub-rule 3.2.1) and, once given, never move: a variant keeps them "
                "(see `extends`). Links and anchors use the id, never the number.",
        example='''
            rule main.towers "Towers" {
                text "A tower stands on one of its owner's pawns."
                forbid tower entering s when s.tile has tower

                rule main.towers.height "No tower on a tower" {
                    text "A tower never carries another tower."
                }
            }
        ''',
        ir=("Rule",)),
    Construct(
        name="text and links", grammar_rule="text", group=S, context="rule",
        summary="Prose, in Markdown. Double brackets link a glossary term (`[[lake]]`), a rule, "
                "a ruling, an example, a chapter or a generated page; the checker rejects a "
                "link that leads nowhere.",
        example='''
            text """
            Lay your tile beside one already on the table so that every edge
            it touches matches ([[rule:main.board]]). The whole game is in
            [[chapter:main|one chapter]]; the tiles are shown in the
            [[page:catalogue|catalogue]].
            """
        ''',
        shows=("text",)),
    Construct(
        name="term", grammar_rule="term", group=S, context="top",
        also=("term_body", "plural", "also"),
        summary="A glossary entry. Prose links to it by id; `plural` and `also` give the other "
                "words the glossary lists for it. A term nothing links to earns a warning.",
        example='''
            term lake "lake" {
                plural "lakes"
                also "pond"
                text "Water running from tile to tile across lake edges. A lake can be [[kept]]."
            }

            term kept "kept" {
                text "A closed [[lake]] is kept by the player who holds it."
            }
        ''',
        ir=("Term",)),
    Construct(
        name="tile set", grammar_rule="tileset", group=S, context="top",
        also=("tile", "face", "segment", "edge_list", "features"),
        summary="The tile catalogue. Each tile has one or more faces; a face lists its edge "
                "labels clockwise and cuts the face into segments, each of an area kind, "
                "reaching some edges and showing some features. The checker makes every "
                "edge agree with the areas that cross it.",
        example=TILESET,
        ir=("TileSet", "TileDef", "Face", "Segment"), replaces=("tileset",)),
    Construct(
        name="tiles from", grammar_rule="tiles_from", group=S, context="top",
        summary="A game of its own that plays with another game's tiles borrows its tile "
                "sets, and nothing else: it is not a variant of it. A tile set of its own with "
                "the same id wins.",
        example='''
            ruleset demo {
                title "Demo"
                players 2 to 4
                seats red "Red", blue "Blue", green "Green", white "White"
                tiles from trian_deluxe
                chapters main
            }
        ''',
        shows=("ruleset", "tiles_from"), ir=("Ruleset",), replaces=("header",)),
    Construct(
        name="tile set copies", grammar_rule="copies", group=S, context="top",
        summary="A second copy of a tile set, as from a second box: the same faces under ids "
                "with a suffix, without writing the tiles out again.",
        example='''
            tiles spare "Tiles from a second box" copies base suffix "_2" { }
        ''',
        shows=("tileset", "copies"), ir=("TileSet",)),
    # ------------------------------------------------------------- variants
    Construct(
        name="extends", grammar_rule="extends", group=V, context="variant",
        summary="A variant names the ruleset it starts from. It begins as a complete copy of "
                "it; header fields it leaves out are the base's, except `code`. Every chapter "
                "and rule keeps the number it has in the base, whether left alone, added to "
                "or replaced. What the variant adds shifts nothing: after the last of its "
                "siblings it takes the next whole number never used there (a removed 3.5 "
                "leaves a gap, and a new last rule is 3.6); placed before a sibling, as a "
                "new chapter listed in `chapters` between two old ones, it takes the number "
                "of the one before it and a letter (7a, 7b; 3.2a inside a chapter). Rulings "
                "and examples keep their ids (`DM-E3`); the variant's own ones take its own "
                "code.",
        example='''
            ruleset demo_variant extends demo {
                subtitle "Rich lakes"
            }
        ''',
        shows=("ruleset", "extends"), ir=("Ruleset",), replaces=("variant header",)),
    Construct(
        name="replace", grammar_rule="change", group=V, context="variant",
        also=("_replaceable",),
        summary="Replaces a rule, chapter, tile set, tile, term, ruling or example of the base "
                "by id. A replaced rule gets new text and declarations; sub-rules it does not "
                "mention stay. One action, `define`, condition or `effect` is replaced on its "
                "own, wherever the base declares it (`replace action research \"…\" { … }`): "
                "the rest of its rule stays as the base wrote it, and the rule is listed as "
                "changed. So are a player's or the game's attribute (`replace player attribute "
                "NAME: …`) and an area kind (`replace area lake …`), by name. A trigger or a "
                "prohibition has no name: `replace trigger in RULE { … }` replaces the one that "
                "rule declares (`replace trigger 2 in RULE` the second, when it has several), "
                "and `replace forbid in RULE { … }` likewise.",
        example='''
            replace rule main.research "Research" {
                text "Research pays two points in this variant."
                action research "research" {
                    notation "research"
                    give 2 points to me
                }
            }
            replace trigger in main.goal {
                at end of game {
                    for each p in players {
                        give 2 points to p
                    }
                }
            }
        ''',
        shows=("replace", "replace_in", "unnamed"), ir=("Rule", "Change")),
    Construct(
        name="remove", grammar_rule="change", group=V, context="variant",
        also=("removable",),
        summary="Removes items of the base by id, or with `every` all the base has of a kind "
                "(its worked examples, say, when the variant changes too much for them); "
                "`remove action`, `remove define` and `remove effect` take one declaration out "
                "of the rule that holds it, `remove player attribute NAME` and `remove game "
                "attribute NAME` one attribute, `remove trigger in RULE` and `remove forbid in "
                "RULE` (with a number when the rule has several) a trigger or a prohibition. "
                "Anything that still refers to a removed rule is reported, with a hint saying "
                "which variant removed it.",
        example='''
            remove tile t3
            remove every example
            remove trigger in main.goal
            remove player attribute tired
        ''',
        shows=("remove", "remove_every", "removable", "remove_in", "remove_attribute",
               "attr_owner"), ir=("Change",)),
    Construct(
        name="add to", grammar_rule="change", group=V, context="variant",
        also=("addable", "_add_item"),
        summary="A plain new item in a variant stands on its own; `add to` puts new rules, "
                "declarations or tiles inside an existing chapter, rule or tile set of the "
                "base, and `text` a paragraph after a rule's or chapter's own (to say what "
                "the added declarations do, without copying the rule).",
        example='''
            add to chapter main {
                rule main.bonus "A town pays" {
                    text "Laying a tile with a town pays a point."
                    when tile t laid where t has town {
                        give 1 points to me
                    }
                }
            }
        ''',
        shows=("add_to", "addable"), ir=("Rule", "Change")),
    # ------------------------------------------------- board and components
    Construct(
        name="lattice", grammar_rule="lattice", group=B, context="rule",
        summary="The grid the tiles are laid on; it fixes how many edges a tile has and which "
                "cells touch.",
        example="lattice triangle",
        ir=("LatticeDecl",), replaces=("lattice",)),
    Construct(
        name="edge", grammar_rule="edge_decl", group=B, context="rule",
        summary="An edge label: what a tile edge can show. Faces list their edges by these "
                "labels, and areas say which labels they run across.",
        example='''
            edge field "field"
            edge lake "lake"
        ''',
        ir=("EdgeLabel",), replaces=("edges",)),
    Construct(
        name="match same", grammar_rule="match_decl", group=B, context="rule",
        summary="When two tiles touch, the edges that meet must show the same label.",
        example="match same",
        shows=("match_same",), ir=("MatchDecl",), replaces=("match",)),
    Construct(
        name="match table", grammar_rule="match_decl", group=B, context="rule",
        also=("match_pair",),
        summary="Lists which labels may meet, for games where different labels fit together.",
        example="match field with field, lake with lake",
        shows=("match_table", "match_pair"), ir=("MatchDecl",), replaces=("match",)),
    Construct(
        name="feature", grammar_rule="feature_decl", group=B, context="rule",
        summary="Something a tile face can show inside a segment, such as a town. Features are "
                "sites pieces can stand on, and conditions test for them with `has`.",
        example='''
            feature town "town" plural "towns"
            feature well "well"
        ''',
        ir=("FeatureKind",), replaces=("features",)),
    Construct(
        name="area", grammar_rule="area_decl", group=B, context="rule",
        also=("area_body", "_area_item", "holds", "attribute", "reset", "given_as", "TYPE_NAME"),
        summary="A kind of area: segments joined across the edges it `crosses` into one area "
                "that grows as tiles are laid and closes when nothing can be added. An area "
                "may hold resources and carry typed attributes, optionally reset every turn. "
                "`given as EXPR` says what an attribute is in a position set up on the table "
                "(a position file, an example's `given`) where the position does not say: it "
                "follows from the board (`it` is the area), unless the turn still has a "
                "triggered rule pending for that area; a value written that contradicts it "
                "is an error.",
        example=AREAS,
        ir=("AreaKind", "AttributeDecl"), replaces=("areas",)),
    Construct(
        name="piece", grammar_rule="piece_decl", group=B, context="rule",
        also=("stacks_on",),
        summary="A kind of player piece. `on` says it is put on top of a piece of another kind "
                "rather than on a site.",
        example=PIECES,
        ir=("PieceKind",), replaces=("pieces",)),
    Construct(
        name="above", grammar_rule="stands_above", group=B, context="rule",
        summary="A piece that always stands above pieces of other kinds on a shared site, "
                "whichever arrived first: a guard put on the pawn it guards, and a pawn that "
                "comes to a guarded site slips in under the guard. It exists because the "
                "order of a stack decides what `covered` and `above` say, and an order that "
                "followed only the order of arrival would let the pawn that came second be "
                "on top, uncovered. Kinds may not stand above each other in a circle.",
        example='''
            piece guard "guard" plural "guards" above pawn
            when pawn p enters s where count(guard where it.site == s) > 0 {
                give 1 points to p.owner
            }
        ''',
        shows=("piece_decl", "stands_above"), ir=("PieceKind",)),
    Construct(
        name="counts as", grammar_rule="counts_as", group=B, context="rule",
        summary="A piece that plays the part of another kind, like a token that acts as a "
                "pawn: it is found among that kind, tested as it (`is pawn`), stacked on as it, "
                "and meets its prohibitions and triggers. Its supply is its own.",
        example='''
            piece scout "scout" plural "scouts" counts as pawn
            when pawn p enters s where p is scout {
                give 1 points to p.owner
            }
        ''',
        shows=("piece_decl", "counts_as"), ir=("PieceKind",)),
    Construct(
        name="resource", grammar_rule="resource_decl", group=B, context="rule",
        also=("resource_limit",),
        summary="Something counted rather than placed: coins, points. A limited resource comes "
                "from the pool and runs out; an unlimited one never does.",
        example=RESOURCES,
        shows=("limited", "unlimited"), ir=("ResourceKind",), replaces=("resources",)),
    Construct(
        name="resource family", grammar_rule="family_decl", group=B, context="rule",
        summary="Resources that are kinds of one thing, like gems of several colours. "
                "`HOLDER.family` reads their total, `draw … among family` draws any of them, "
                "an area that `holds` the family holds each, and `kinds(family)` lets a "
                "player choose one: `give 1 k …` then gives the kind chosen. `held(h, k)` "
                "reads what a holder has of a chosen kind.",
        example='''
            resource ruby "ruby" plural "rubies" limit 5
            resource jade "jade" plural "jades" limit 5
            family gem "gem" plural "gems" of ruby, jade
            at end of turn {
                for each k in kinds(gem) as g where held(me, g) > 2 {
                    give 1 k from me to pool
                }
                if me.gem > 4 {
                    give 1 points to me
                }
            }
        ''',
        ir=("FamilyDecl",)),
    Construct(
        name="player attribute", grammar_rule="player_attr_decl", group=B, context="rule",
        summary="Something every player has, as areas have attributes: a flag, a count or a "
                "player, read as `p.name` and changed with `set` and `clear`; `reset each "
                "turn` clears it when a turn ends. The string says how a change reads.",
        example='''
            player attribute luck: int "has {value} luck"
            player attribute lucky_now: bool "is lucky this turn" reset each turn
            at start of turn {
                set me.luck to me.luck + 1
                if me.luck > 2 {
                    set me.lucky_now to true
                    clear me.luck
                }
            }
            at end of turn {
                let next = first(clockwise(me, players where it.luck > 0))
                if next is not none {
                    give 1 points to next
                }
            }
        ''',
        ir=("PlayerAttribute", "AttributeDecl")),
    Construct(
        name="score", grammar_rule="score_decl", group=B, context="rule",
        summary="Names the resource that is the score. Every ruleset says it once.",
        example="score is points",
        ir=("ScoreDecl",), replaces=("score",)),
    Construct(
        name="supply", grammar_rule="supply_decl", group=B, context="rule",
        also=("supply_row", "supply_count"),
        summary="The pieces each player starts with, by number of players.",
        example=SUPPLY,
        ir=("SupplyTable",), replaces=("supply",)),
    Construct(
        name="teams", grammar_rule="teams_decl", group=B, context="rule",
        also=("team_row", "team"),
        summary="Partnerships, by number of players: the seats of each team, teams separated "
                "by `vs`. The teams take turns: a game seats the first seat of each team, "
                "then the second of each, and so on, and a table seated otherwise is refused. "
                "`allies(p)` is p with their partners and `captain(p)` the first seat of p's "
                "team, a label for what the team holds.",
        example='''
            teams by players {
                4: red green vs blue white
            }
            forbid pawn p entering s when s.area.keeper is not none and not (s.area.keeper is in allies(p.owner))
            when lake a closes, at step score {
                set a.keeper to captain(closer)
            }
        ''',
        shows=("teams_decl", "team_row", "team"), ir=("TeamsDecl",)),
    Construct(
        name="stacks", grammar_rule="stacks_decl", group=B, context="rule",
        also=("hiding", "dealing", "deal_row"),
        summary="How many face-down stacks the tiles are shuffled into (at least one, at most "
                "one per tile); `hiding` turns faces "
                "with the named features down, and `dealing` deals only part of the tiles "
                "(with `from`, only those of the named tile sets: one box of two) "
                "for some numbers of players. It is shorthand for a zone: one shared, ordered "
                "zone of that many piles whose top tiles show (`drawable` lists them, `stock` "
                "counts what is left), beside the zone of tiles set out of the game.",
        example="stacks 2 hiding well dealing by players { 2: 2 from base  3: 3  4: 3 }",
        shows=("stacks_decl", "hiding", "dealing", "deal_row"), ir=("ZoneDecl",),
        replaces=("stacks",)),
    Construct(
        name="first tile", grammar_rule="first_tile_decl", group=B, context="rule",
        also=("cell", "signed"),
        summary="Where the first tile goes, since it has nothing to touch.",
        example="first tile at 0,0",
        ir=("FirstTileDecl",), replaces=("first tile",)),
    Construct(
        name="zone", grammar_rule="zone_decl", group=B, context="rule",
        also=("zone_owner", "zone_order", "zone_visibility", "zone_piles", "zone_in_play"),
        summary="A place cards are kept off the board: a deck, each player's hand, a discard "
                "pile. `shared` makes one for the table, `each` one per player (named `hand of "
                "p`). An `ordered` zone keeps the order cards came in, its top card first "
                "(the default for a shared zone); an `unordered` one is a set of cards (the "
                "default for a player's). Who may look is declared (`public`, the default; "
                "`private`: its owner; `hidden`: nobody; `showing top`: the top card of each "
                "pile) but never decides what is legal: the engine judges the whole table. "
                "`piles N` splits it into piles; `in play` says its cards' abilities count.",
        example='''
            zone deck "draw deck" shared ordered hidden piles 2
            zone hand "hand" each unordered private
            zone market "market" shared showing top in play
            zone discards "discard pile" shared public
        ''',
        shows=("zone_decl", "zone_shared", "zone_each", "zone_ordered", "zone_unordered",
               "see_nobody", "see_owner", "see_top", "see_everyone", "zone_piles",
               "zone_in_play"),
        ir=("ZoneDecl",)),
    Construct(
        name="cards start in", grammar_rule="cards_start", group=B, context="rule",
        summary="The zone every card is in when the game is set up, before the rules deal "
                "them out; in a position, every card not said to be elsewhere is there, face "
                "down.",
        example='''
            zone box "the box" shared unordered hidden
            cards start in box
        ''',
        ir=("CardsStart",)),
    Construct(
        name="board", grammar_rule="board_decl", group=B, context="rule",
        summary="Every player builds a board of their own (a camp, a village) instead of one "
                "board all share. `lattice`, `edge`, `match` and `first tile at` hold on each "
                "board; a first tile goes at the origin of its own board, `frontier` holds the "
                "origin of every empty board, and `tiles of p`, `frontier of p`, `sites of p` "
                "keep player p's. A cell on the mover's own board is written `0,1`, on another "
                "player's `blue/0,1`, in moves, positions and examples; no board reaches more "
                "than 2000 cells from its origin. A laid card whose kind `holds` a resource "
                "holds it (`t.energy`, `give 1 energy from t to pool`) and has its kind's "
                "attributes (`set t.scored to 3`). `remove t to ZONE` takes a laid tile off "
                "its board (what it holds goes to the pool); `turn t face down` leaves it in "
                "its place, showing and holding nothing, though distances still run through "
                "it. Both are refused in rulesets with areas, which only ever merge.",
        example="""
            board camp "camp" each player
            first tile at 0,0
        """,
        ir=("BoardDecl",)),
    Construct(
        name="use tiles", grammar_rule="use_tiles", group=B, context="rule",
        summary="The tile sets this ruleset plays with; a variant can swap or add sets.",
        example="use tiles base",
        ir=("UseTiles",), replaces=("use tiles",)),
    Construct(
        name="look", grammar_rule="look_decl", group=B, context="rule",
        summary="How the rulebook's diagrams draw an area, edge, feature, piece or seat: a "
                "shape and a colour. It changes nothing in play.",
        example='''
            look lake: fill "#3b6fa0"
            look field: fill "#8fbf5a"
            look town: square "#a0522d"
            look pawn: circle "#ffffff"
            look red: color "#d64545"
        ''',
        ir=("Look",)),
    Construct(
        name="card kind", grammar_rule="card_kind_decl", group=B, context="rule",
        also=("_card_kind_item", "property_decl", "prop_type", "ability_decl", "ability_result",
              "typed_param", "value_type"),
        summary="A kind of card: the properties printed on every card of the kind (int, bool "
                "or text; a card that does not print one has 0, false or nothing), the "
                "abilities a card of the kind may have, and what it holds. Each card writes "
                "its own body for an ability, or none. An ability without a result type is "
                "something the card does, run by `apply opened(t)`; with one it is a value, "
                "read like a definition, `worth(c, p)`. Its first parameter is the card (or "
                "the tile it is laid as) whose body decides. An attribute marked `recorded` "
                "may be left out of a position (it then reads none); a card laid in play has "
                "it from the start, at 0 or false. A kind may count as another: "
                "`x is stall` then holds for it too. Rules read `c.cost` from a card or from "
                "a tile that shows one, test `c is bakery` (a kind or a printed card) and "
                "`c has town` (a feature the card is printed `with`).",
        example='''
            card kind stall "Stall" plural "Stalls" {
                property cost: int "the cost of {card}"
                property night: bool
                property motto: text
                ability opened(t: tile) "{t} opens"
                ability worth(c: card, p: player): int "what {c} is worth to {p}"
                holds gold
                attribute earned: int "has earned {value} points" recorded
            }
            card kind kiosk "Kiosk" counts as stall {
                property small: bool
            }
        ''',
        shows=("tile_type", "card_type", "text_prop", "ability_result", "recorded"),
        ir=("CardKind",)),
    Construct(
        name="card set", grammar_rule="cardset", group=B, context="top",
        also=("card", "card_like", "_card_item", "card_copies", "card_tags", "card_prop",
              "prop_value", "card_ability"),
        summary="The printed cards of one kind, like a tile set: each card has an id, a "
                "title, its copies, the features it is printed `with`, its properties, its "
                "text and its abilities' bodies (`opened(t) { … }` does something, "
                "`worth(c, p) = …` is a value). A `like` card is the same card in another "
                "printing: it copies its original and overrides what it writes. A card is a "
                "tile too: without faces of its own it is laid by `front` or `down` (face "
                "down it shows nothing), on any free cell next to other cards. It is cited "
                "like a rule (`stalls.bakery`), and shown in its set's page of the rulebook.",
        example='''
            chapter stalls "Stalls" {
                rule stalls.kind "Stall cards" {
                    card kind stall "Stall" {
                        property cost: int
                        property night: bool
                        property motto: text
                        ability opened(t: tile)
                        ability worth(c: card): int
                    }
                    when tile t laid where t is stall and not t.night {
                        apply opened(t)
                        give worth(t) points to me
                    }
                }
            }

            cards stall_cards "Stall cards" of stall {
                text "Two designs; the night bakery is the bakery in another printing."
                card bakery "Bakery" {
                    copies 2  with town  cost 2 motto "Fresh at dawn"
                    text "When it opens, its owner gains 1 gold coin."
                    opened(t) { give 1 gold to me }
                    worth(c) = c.cost - 1
                }
                card bakery_night "Bakery" like bakery { night true }
                card well_stall "Well Stall" { with well  cost -1 night false }
            }
        ''',
        shows=("card_like", "card_copies", "card_tags", "card_prop", "prop_text", "prop_true",
               "prop_false", "ability_block", "ability_value"),
        ir=("CardSet", "CardDef", "AbilityBody")),
    Construct(
        name="card look", grammar_rule="card_look_decl", group=B, context="rule",
        also=("card_slot", "corner"),
        summary="How the rulebook draws every card of a kind, from what the card prints: a "
                "band coloured by its first feature with a `look`, numbers in the corners "
                "beside a resource's icon (or only `when` a condition on the card holds, "
                "`it` being the card), badges under the title, a dark text box for cards "
                "with a feature, and a shape marking another. It changes nothing in play.",
        example='''
            card kind stall "Stall" {
                property cost: int
                property points: int
                property upkeep: int
                property limit: int
            }
            look card stall {
                band from features
                top left cost with gold
                top right points with points
                bottom left upkeep with gold
                bottom right limit when it.limit > 1
                badge limit "at most {value}"
                dark when well
                mark town: star
            }
        ''',
        shows=("band_slot", "corner_slot", "badge_slot", "dark_slot", "mark_slot", "top_left",
               "top_right", "bottom_left", "bottom_right"),
        ir=("CardLook",)),
    # ------------------------------------------------------ turn and actions
    Construct(
        name="step", grammar_rule="step_decl", group=T, context="rule",
        also=("step_mode", "step_also"),
        summary="A step of every turn, in order: `must one of` takes exactly one of the listed "
                "actions, `may one of` at most one, `may any of` any number. `also` actions "
                "stand beside them without using the step up. An `automatic` step offers no "
                "action; deferred triggers run there.",
        example='''
            step lay "Lay a tile": must lay_tile also set_aside
            step act "Act": must one of build, research
            step bonus "A bonus action": may one of build, research
            step more "More pawns": may any of build
            step score "Score": automatic
        ''',
        shows=("must_one", "may_one", "may_any", "automatic", "step_also"), ir=("StepDecl",),
        replaces=("steps",)),
    Construct(
        name="steps each player takes", grammar_rule="step_who", group=T, context="rule",
        summary="`each player` makes a step everybody's: the players take it one after "
                "another, in seat order from the active player or in a named `order`, each "
                "finishing their part (the action, anything it grants, the rules they set "
                "waiting for the step) before the next begins. In records their moves carry "
                "the seat: `red: research`.",
        example='''
            order rich_first "richest first" = most it.gold then seats from me
            step lay "Lay a tile": must lay_tile also set_aside
            step act "Act": each player in rich_first must one of build, research
            step score "Score": automatic
        ''',
        shows=("step_decl", "each_in_order"), ir=("StepDecl", "OrderDecl"),
        replaces=("steps",)),
    Construct(
        name="choices made at once", grammar_rule="step_who", group=T, context="rule",
        also=("SECRET",),
        summary="`each player at once` makes a step that everybody takes at the same time: "
                "nobody sees another's choice until all have chosen. The engine takes the "
                "choices in seat order, but anyone who has not chosen may choose first "
                "(`blue: bid 1` while Red is still to choose); a second choice is refused, "
                "citing the rule that declares the step. A `secret` player attribute set "
                "while choosing stays hidden from the others until everyone has chosen "
                "(`reveal NAME` shows it earlier). So that no choice can depend on one "
                "not yet seen, the step's actions may only move cards into a private or "
                "hidden zone of `me` and set secret attributes of `me` (with `let`, `if` "
                "and `for each` around them): anything else is done `at end of step`, or "
                "in a later step.",
        example='''
            player attribute wager: int secret "wagers {value} gold"
            action wager "wager gold" {
                notation "wager {k}"
                choose k from upto(2)
                set me.wager to k
            }
            step lay "Lay a tile": must lay_tile also set_aside
            step bids "Wager": each player at once must wager
            step act "Act": must one of build, research
            at end of step bids {
                reveal wager
                for each p in players {
                    give p.wager gold to p
                }
            }
        ''',
        shows=("step_decl", "each_at_once"), ir=("StepDecl", "PlayerAttribute"),
        replaces=("steps",)),
    Construct(
        name="grant to each", grammar_rule="grant", group=T, context="rule",
        also=("at_once", "grant_then"),
        summary="One choice of an action for each of several players, out of turn, in seat "
                "order from the player whose turn it is. `at once`: they choose in secret, "
                "as in a step every player takes at once (anyone still to choose may go "
                "first; the same rule limits what the action may do). `then apply E(…)` "
                "runs when the last of them has chosen or declined, with the values its "
                "arguments had when the choices were granted.",
        example='''
            player attribute pledge: int secret "pledges {value} gold"
            action pledge "pledge gold" {
                notation "pledge {k}"
                choose k from upto(1)
                set me.pledge to k
            }
            effect collect(host) "the pledges go to {host}" {
                for each p in players where it != host {
                    give p.pledge gold to host
                }
            }
            at end of turn {
                grant must pledge to each (players where it != me) at once then apply collect(me)
            }
        ''',
        shows=("grant_each", "at_once", "grant_then"), ir=("GrantEach",)),
    Construct(
        name="order of play", grammar_rule="order_decl", group=T, context="rule",
        also=("order_term",),
        summary="A named order of the players: by measures of each player (`it`), most or "
                "fewest first, ties broken by the next measure and finally by seat order from "
                "a player (`seats from`, by default the active one). The name is a collection "
                "of players in that order (`first(late_first)`); a step that goes round in it "
                "fixes it for the rest of the turn.",
        example='''
            order late_first "fewest points first" = fewest it.points then seats from me
            at end of turn {
                give 1 gold to first(late_first)
            }
        ''',
        shows=("order_decl", "seats_from", "tiebreak"), ir=("OrderDecl", "Tiebreak")),
    Construct(
        name="next turn", grammar_rule="next_turn_decl", group=T, context="rule",
        summary="Who plays the next turn; without it, the next seat does. The expression is "
                "read when the turn ends, so a game attribute may turn the direction round.",
        example='''
            game attribute backwards: bool "goes round backwards"
            next turn to if game.backwards then first(clockwise(me, players where it != me)) else none
        ''',
        ir=("NextTurnDecl", "GameAttribute")),
    Construct(
        name="rounds", grammar_rule="round_decl", group=T, context="rule",
        summary="Turns grouped in rounds: `count` rounds of `turns` turns each (counted as "
                "each round starts, after its `at start of round` rules), and the game ends "
                "after the last turn of the last round, so a ruleset with rounds has no "
                "`game ends` condition. `game.NAME` is the round's number, from 1. A decision "
                "granted at the end of a round is made before the next round begins.",
        example='''
            round season "season" { count 3  turns count(players) }
            at start of round season {
                give game.season gold to me
            }
            at end of round season {
                grant research to first(players where it.gold == 0)
            }
        ''',
        shows=("round_decl", "round_target"), ir=("RoundDecl",), replaces=("end",)),
    Construct(
        name="game attribute", grammar_rule="game_attr_decl", group=T, context="rule",
        summary="Something the game as a whole has, as players have attributes: a flag, a "
                "count or a player, read as `game.NAME`, changed with `set` and `clear`; "
                "`reset each turn` clears it when a turn ends. The string says how a change "
                "reads (the game “goes round backwards”).",
        example='''
            game attribute backwards: bool "goes round backwards"
            game attribute lakes_closed: int "has seen {value} lakes closed"
            when lake a closes {
                set game.lakes_closed to game.lakes_closed + 1
                if game.lakes_closed == 3 {
                    set game.backwards to not game.backwards
                }
            }
        ''',
        ir=("GameAttribute",)),
    Construct(
        name="action", grammar_rule="action", group=T, context="rule",
        also=("_action_item", "notation"),
        summary="Something a player may do: the choices they make, the requirements those "
                "choices must meet, and what then happens. The notation is how the move is "
                "written in records and examples; no two actions may be written alike, or a "
                "record could not say which was played, so the check refuses it.",
        example=BUILD,
        shows=("action", "notation", "choose", "require"), ir=("Action", "Choose", "Require"),
        replaces=("build",)),
    Construct(
        name="alongside", grammar_rule="alongside", group=T, context="rule",
        summary="An action offered wherever another one is: in every turn step that lists "
                "that action and in every grant that offers it, as one more way to answer "
                "the same choice. A skill or a variant plugs into a choice a rule it does not "
                "own makes, without copying that rule; the grant's reading in the rulebook "
                "then names the new option too. A grant that fixes some of the choice's "
                "parameters (`with a = a`) fixes them for the new action, which must declare "
                "them.",
        example='''
            action study "study the stars" alongside research {
                notation "study"
                require me.gold > 0 else "studying costs a gold coin"
                give 1 gold from me to pool
                give 2 points to me
            }
        ''',
        shows=("action", "alongside"), ir=("Action",)),
    Construct(
        name="choose", grammar_rule="choose", group=T, context="action",
        also=("SOME", "cite"),
        summary="A choice the player makes when taking the action, from a collection. `some` "
                "chooses several elements at once; `per` names the rule cited when the choice "
                "is not allowed.",
        example='''
            choose some ps from pawn of me where not it.covered per main.board
            return ps
        ''',
        ir=("Choose",)),
    Construct(
        name="require", grammar_rule="require", group=T, context="action",
        also=("message", "cite"),
        summary="A condition the move must meet to be legal. `else` gives the message a "
                "refused player reads; `per` cites a rule other than the one the action "
                "sits in.",
        example='''
            require count(pawn of me) < 5 else "you have five pawns on the board" per main.board
            give 1 points to me
        ''',
        shows=("require", "message", "cite"), ir=("Require",)),
    Construct(
        name="forbid", grammar_rule="forbid", group=T, context="rule",
        also=("by_actions",),
        summary="A prohibition: a piece of the kind may not enter a site when the condition "
                "holds, whatever action moves it (or only the listed ones). Cannot beats can: "
                "it is checked on every move.",
        example='''
            forbid pawn entering s when s.tile has pawn else "one pawn per tile"
            forbid pawn p entering s by build when s.area.keeper is not none and s.area.keeper != p.owner
        ''',
        shows=("forbid", "by_actions", "message"), ir=("Forbid",)),
    Construct(
        name="place", grammar_rule="place", group=T, context="action",
        also=("owner",),
        summary="Takes a piece of the kind from a supply and puts it on a site: the active "
                "player's, or with `of` another player's.",
        example='''
            choose s from sites in placed where it is field
            choose helper from players where it != me
            place pawn of helper at s
        ''',
        shows=("place", "owner"), ir=("Place",)),
    Construct(
        name="stack", grammar_rule="stack", group=T, context="action",
        summary="Puts a piece on top of another piece, from the supply of that piece's owner, "
                "or with `of` from another player's (a partner building on a teammate's "
                "piece).",
        example='''
            choose p from pawn where it.owner is in allies(me) and not it.covered
            stack tower of me on p
        ''',
        shows=("stack", "owner"), ir=("StackOn",)),
    Construct(
        name="move", grammar_rule="move", group=T, context="action",
        summary="Moves a piece on the board to another site; prohibitions on entering apply.",
        example='''
            choose p from pawn of me
            choose s from sites in neighbours(p.tile)
            move p to s
        ''',
        ir=("Move",)),
    Construct(
        name="return", grammar_rule="return", group=T, context="action",
        summary="Sends a piece, or every piece of a collection, back to its owner's supply.",
        example="return pawn in placed where it.owner != me",
        ir=("Return",)),
    Construct(
        name="give", grammar_rule="give", group=T, context="action",
        also=("from_holder",),
        summary="Moves an amount of a resource to a player, an area or the pool; from the pool "
                "unless `from` names the holder. When the source runs short, only what it "
                "holds moves. Given a piece kind, it hands pieces from one player's supply to "
                "another's (`from` is then required): partners sharing out what came back.",
        example='''
            give 2 points to me
            choose a from lake where it.keeper == me
            give 1 gold from a to me
            choose p from players where it != me
            give 1 pawn from me to p
        ''',
        shows=("give", "from_holder"), ir=("Give",)),
    Construct(
        name="draw", grammar_rule="draw", group=T, context="action",
        summary="Draws units at random, one at a time, from a holder to another: each is a "
                "kind chance picks among those listed, weighted by how many the source holds. "
                "What came up is part of the move: a judge is told it after `!` "
                "(`dig ! gold gold`), random play samples it, and the record keeps it. A die "
                "roll is the expression `die(6)` (a die has 1 to 100 sides), likewise an "
                "outcome of the move.",
        example='''
            draw 2 from pool to me among gold, points
            give die(6) points to me
        ''',
        shows=("draw",), ir=("Draw",)),
    Construct(
        name="set", grammar_rule="set_attr", group=T, context="action",
        summary="Sets an attribute of an area.",
        example='''
            choose a from lake where it.closed and it.keeper is none
            set a.keeper to me
        ''',
        ir=("SetAttr",)),
    Construct(
        name="clear", grammar_rule="clear_attr", group=T, context="action",
        summary="Clears an attribute of an area back to nothing.",
        example='''
            choose a from lake where it.keeper == me
            clear a.keeper
        ''',
        ir=("ClearAttr",)),
    Construct(
        name="grant", grammar_rule="grant", group=T, context="action",
        also=("MUST", "grant_to", "grant_with", "binding"),
        summary="Gives one extra use of an action, with some of its choices already made. "
                "`to` hands the decision to another player before play goes on; `must` makes "
                "it compulsory whenever it is possible; `either a or b` offers one choice between "
                "actions (each must take the bound parameters).",
        example='''
            choose rival from players where it != me
            choose k from upto(2)
            grant build to rival
            grant either build or research
            grant must build with site = only(sites in placed where it is lake)
        ''',
        shows=("grant_one", "grant_to", "grant_with", "binding"), ir=("GrantOne",)),
    Construct(
        name="grant actions", grammar_rule="grant", group=T, context="action",
        summary="Gives up to a number of extra actions, each any one of those listed.",
        example="grant 2 actions from build, research",
        shows=("grant_many",), ir=("GrantMany",)),
    Construct(
        name="for each", grammar_rule="for_each", group=T, context="action",
        also=("block",),
        summary="Runs a block once for every element of a collection.",
        example='''
            for each p in players where it.points > 3 {
                give 1 gold to p
            }
        ''',
        ir=("ForEach",)),
    Construct(
        name="if", grammar_rule="if_stmt", group=T, context="action",
        also=("else_part",),
        summary="Runs a block only when a condition holds, with optional `else` and "
                "`else if` branches.",
        example='''
            if placed has town {
                give 2 points to me
            } else if placed has well {
                give 1 gold to me
            } else {
                give 1 points to me
            }
        ''',
        shows=("if_stmt", "else_part"), ir=("If",)),
    Construct(
        name="let", grammar_rule="let", group=T, context="action",
        summary="Names a value for the statements that follow.",
        example='''
            let n = count(pawn of me)
            give n points to me
        ''',
        ir=("Let",)),
    Construct(
        name="lay", grammar_rule="lay", group=T, context="action",
        also=("lay_face", "lay_rotation"),
        summary="Takes a tile from the stacks and lays it on the board, with a face, a cell "
                "and a rotation. Whether it fits is for a `require` to say. A card chosen "
                "from a zone (`cards in Z`) is taken from there, or say `from Z`; without "
                "`face` its first face is up, without `rotation` it is not turned.",
        example='''
            choose card from drawable
            choose face from faces(card)
            choose cell from frontier
            choose rotation from rotations
            require fits(card, face, cell, rotation)
            lay card face face at cell rotation rotation
        ''',
        ir=("Lay",)),
    Construct(
        name="apply", grammar_rule="apply", group=T, context="rule",
        summary="Runs a named `effect` with these values for its parameters.",
        example='''
            effect tithe(p) "take a tithe from {p}" {
                give 1 gold from p to pool
            }
            at end of turn {
                for each p in players where it.gold > 3 {
                    apply tithe(p)
                }
            }
        ''',
        ir=("Apply", "Effect")),
    Construct(
        name="remove … to", grammar_rule="remove_tile", group=T, context="rule",
        summary="Takes a laid tile off the board into a zone (`set_aside`: out of the game): "
                "what it holds goes to the pool, its own attributes go, and the empty cells "
                "next to the board are worked out again. Not yet in a ruleset with areas, "
                "which only ever merge; nor for a tile that carries pieces.",
        example="""
            step act "Act": may one of clear, research
            action clear "clear a tile" {
                choose t from tiles where not splits(it)
                remove t to set_aside
            }
        """,
        ir=("RemoveTile",),
        replaces=("areas", "tileset", "use tiles", "stacks", "steps", "build", "lay_tile",
                  "set_aside")),
    Construct(
        name="turn … face down", grammar_rule="turn_down", group=T, context="rule",
        summary="Turns a laid card face down where it lies: it keeps its place, and distances "
                "run through it, but it shows no kind, features or properties and holds "
                "nothing (what it held goes to the pool). Not yet in a ruleset with areas.",
        example="""
            step act "Act": may one of hide, research
            action hide "hide a tile" {
                choose t from tiles where splits(it)
                turn t face down
            }
        """,
        ir=("TurnDown",),
        replaces=("areas", "tileset", "use tiles", "stacks", "steps", "build", "lay_tile",
                  "set_aside")),
    Construct(
        name="discard", grammar_rule="discard", group=T, context="action",
        summary="Takes a tile out of the stacks and out of the game.",
        example='''
            choose card from drawable
            require not placeable(card)
            discard card
        ''',
        ir=("Discard",)),
    Construct(
        name="move a card", grammar_rule="move", group=T, context="rule", also=("move_from",),
        summary="Moves a card (or every card of a collection) from one zone to the top of "
                "another. A card chosen from, `let`-bound to or walked over `cards in Z` "
                "remembers `Z`; otherwise say where it is taken from with `from`. A card that "
                "is not there makes the move illegal, and nothing changes.",
        example='''
            zone hand "hand" each private
            zone discards "discard pile" shared ordered public
            at end of turn {
                for each c in cards in hand of me where count(cards in hand of me) > 2 {
                    move c to discards
                }
                move first(cards in discards) from discards to hand of me
            }
        ''',
        shows=("move", "move_from"), ir=("Move",)),
    Construct(
        name="deal", grammar_rule="deal", group=T, context="rule",
        summary="Deals up to N cards, one at a time, from the top of an ordered zone to "
                "another (as many as there are, if fewer).",
        example='''
            zone deck "draw deck" shared ordered hidden
            zone hand "hand" each private
            at start of game {
                for each p in players {
                    deal 2 from deck to hand of p
                }
            }
        ''',
        ir=("Deal",)),
    Construct(
        name="shuffle", grammar_rule="shuffle", group=T, context="rule",
        summary="Puts an ordered zone's cards in a new order: chance, an input like a die "
                "roll. The outcome is the zone's cards in their new order, top first "
                "(`deck:t3,t1,t2`): given after a move's `!`, in a record's `Setup` tag or "
                "table decision (`! deck:…`), or drawn by random play; never made up by the "
                "engine when a move is judged. A zone whose cards can lie one way only "
                "takes no outcome.",
        example='''
            zone deck "draw deck" shared ordered hidden
            at start of game {
                shuffle deck
            }
        ''',
        ir=("Shuffle",)),
    Construct(
        name="rotate", grammar_rule="rotate", group=T, context="rule",
        summary="Every player's zone of that name passes k seats on, all at once: with 1, "
                "each player's hand goes to the next player clockwise; with -1, anticlockwise.",
        example='''
            zone hand "hand" each private
            at end of turn {
                rotate hand by 1
            }
        ''',
        ir=("Rotate",)),
    Construct(
        name="reveal", grammar_rule="reveal", group=T, context="rule",
        summary="Turns a zone face up until it next becomes empty: every player's zone of "
                "that name, or with `of p` one player's. Given a `secret` player attribute "
                "instead, shows the values of it that are still hidden.",
        example='''
            zone chosen "chosen card" each private
            at end of turn {
                reveal chosen of me
                reveal chosen
            }
        ''',
        ir=("Reveal",)),
    # ------------------------------------------------ triggers and scoring
    Construct(
        name="when … closes", grammar_rule="trigger", group=G, context="rule",
        also=("event", "where"),
        summary="Runs when an area of the kind (or any area: `area`) closes. Inside, `closer` "
                "is the player whose tile closed it.",
        example='''
            when lake a closes where count(pawn in a) == 0 {
                give count(tiles in a) points to closer
            }
        ''',
        shows=("when_trigger", "closes_event", "where"), ir=("Trigger", "Event")),
    Construct(
        name="when … enters", grammar_rule="trigger", group=G, context="rule",
        also=("event",),
        summary="Runs after a piece of the kind (or any piece: `piece`) enters a site; the "
                "piece and the site are the variables.",
        example='''
            when pawn p enters s where s is lake {
                give 1 gold to p.owner
            }
        ''',
        shows=("when_trigger", "enters_event"), ir=("Trigger", "Event")),
    Construct(
        name="when … leaves", grammar_rule="trigger", group=G, context="rule",
        also=("event",),
        summary="Runs after a piece leaves a site: moved, returned or sent away.",
        example='''
            when pawn p leaves s where s.area.keeper == p.owner and count(pawn in s.area of p.owner) == 0 {
                clear s.area.keeper
            }
        ''',
        shows=("when_trigger", "leaves_event"), ir=("Trigger", "Event")),
    Construct(
        name="when … returns", grammar_rule="trigger", group=G, context="rule",
        also=("event",),
        summary="Runs after a piece goes back to its owner's supply, however it left the board "
                "(unlike `leaves`, which a move raises too); the piece is the variable.",
        example='''
            when pawn p returns {
                give 1 gold to p.owner
            }
        ''',
        shows=("when_trigger", "returns_event"), ir=("Trigger", "Event")),
    Construct(
        name="when tile … laid", grammar_rule="trigger", group=G, context="rule",
        also=("event",),
        summary="Runs as soon as a tile is laid; the tile is the variable. `neighbours(t)` are "
                "the tiles sharing an edge with it, `around(t)` those sharing an edge or a "
                "corner.",
        example='''
            when tile t laid where t has well {
                return pawn in neighbours(t)
                return tower in around(t)
            }
        ''',
        shows=("when_trigger", "laid_event"), ir=("Trigger", "Event")),
    Construct(
        name="at start / end of …", grammar_rule="trigger", group=G, context="rule",
        also=("MOMENT", "moment_target"),
        summary="Runs at the start or end of a step, of every turn, or of the game; the end of "
                "the game is where final scoring goes.",
        example='''
            at start of turn {
                give 1 gold to me
            }
            at end of step act {
                for each a in lake where it.keeper == me {
                    give 1 gold from a to me
                }
            }
            at end of game {
                for each a in lake where it.keeper is not none {
                    give a.gold points to a.keeper
                }
            }
        ''',
        shows=("at_trigger", "turn_target", "step_target", "game_target"),
        ir=("Trigger", "Event")),
    Construct(
        name="deferred triggers", grammar_rule="deferral", group=G, context="rule",
        summary="`, at step S` lets the event happen now but holds its consequences until step "
                "S of the same turn, for rules that settle things later in the turn.",
        example='''
            when lake a closes, at step score {
                set a.keeper to closer
            }
        ''',
        shows=("when_trigger", "deferral"), ir=("Trigger",)),
    Construct(
        name="the order of triggers", grammar_rule="run_after", group=G, context="rule",
        summary="The triggers on one event run in the order the book reads: chapter by "
                "chapter, rule by rule, each rule's in the order written (a rule's sub-rules "
                "after it). `after RULE` runs a trigger just after the triggers of that rule "
                "(and of the rules inside it) on the same event, wherever it is written: a "
                "variant that adds a trigger to an early rule can still read what a later "
                "rule's trigger gives. The rulebook says so beside the trigger. When one "
                "trigger reads what another on the same event changes and neither says "
                "`after`, `rulebook check` warns ([`order`](errors/order.md)).",
        example='''
            when lake a closes after main.board {
                give count(tiles in a) points to closer
            }
        ''',
        shows=("when_trigger", "run_after"), ir=("Trigger",)),
    Construct(
        name="define", grammar_rule="define", group=G, context="rule",
        also=("params",),
        summary="Names an expression, with parameters, so rules can share it and the rulebook "
                "can print it in words: the string says how it reads.",
        example='''
            define rich(p) "{p} is rich" = p.gold >= 5
            forbid pawn q entering s when s is lake and not rich(q.owner)
        ''',
        shows=("define", "params"), ir=("Define",)),
    Construct(
        name="condition", grammar_rule="condition", group=G, context="rule",
        summary="A definition that is a yes-or-no test a rule decides (a power is "
                "unlocked, a pawn is shielded). It reads and works like `define`, and "
                "whenever a move's checks, or what follows from the move, find it true, "
                "the ruling cites the rule the condition is written in: a rule that "
                "only changes a test elsewhere is named when it made the difference.",
        example='''
            condition shielded(q) "{q} is shielded" = q.owner.gold >= 5
            forbid pawn q entering s when s is lake and not shielded(q)
        ''',
        ir=("Define",)),
    Construct(
        name="effect", grammar_rule="effect", group=G, context="rule",
        summary="Names a sequence of statements, with parameters, so that rules which end "
                "the same way from several places (a fight won, or no fight at all) say it "
                "once; `apply` runs it. The string says how it reads.",
        example='''
            effect reward(p, k) "pay {p} {k} gold coins" {
                give k gold to p
            }
            when tile t laid {
                apply reward(me, 1)
            }
        ''',
        ir=("Effect",)),
    Construct(
        name="game ends", grammar_rule="end_decl", group=G, context="rule",
        summary="The condition, checked after every turn, that ends the game.",
        example="game ends after turn when count(stock) == 0",
        ir=("EndDecl",), replaces=("end",)),
    Construct(
        name="winner", grammar_rule="winner_decl", group=G, context="rule",
        also=("tiebreak", "MOST"),
        summary="Who wins: the most (or fewest) of a measure of each player (`it`), with "
                "tie-breaks in order; players still tied share the win.",
        example="winner most it.points then fewest count(pawn of it) then most it.gold",
        ir=("WinnerDecl", "Tiebreak"), replaces=("winner",)),
    Construct(
        name="audit", grammar_rule="audit_decl", group=G, context="rule",
        also=("breach",),
        summary="A check of the whole table that lists every mistake with the rule it breaks: "
                "each element of a breach's collection (tiles, pieces, areas, players, cards) "
                "is one breach, of the rule it sits in or the one `per` names. A judge runs "
                "it with `rulebook audit RULESET POSITION`; `faulty(NAME)` hands the rules "
                "what it finds, so they can let a player put it right. The breaches of one "
                "audit find one kind of thing.",
        example='''
            audit crowded "Lakes with room for everyone" {
                breach "more than one pawn stands in it" in lake where count(pawn in it) > 1
                breach "its keeper has no pawn in it" per main.board
                    in lake where it.keeper is not none and count(pawn in it of it.keeper) == 0
            }
            at end of turn {
                for each l in faulty(crowded) {
                    set l.dry to true
                }
            }
        ''',
        shows=("audit_decl", "breach", "cite", "call"), ir=("AuditDecl", "BreachDecl")),
    # ----------------------------------------------------------- expressions
    Construct(
        name="if … then … else", grammar_rule="expr", group=X, context="expr",
        summary="A value that depends on a condition.",
        example="if placed has town then 2 else 1",
        shows=("if_expr",), ir=("IfExpr",)),
    Construct(
        name="where", grammar_rule="expr", group=X, context="expr",
        summary="Keeps the elements of a collection for which a condition holds; inside, `it` "
                "is the element. The filter reaches to the end of the expression, so elsewhere "
                "it goes in parentheses.",
        example="pawn of me where not it.covered and it.area is lake",
        shows=("filtered",), ir=("Filtered",)),
    Construct(
        name="and, or, not", grammar_rule="or_expr", group=X, context="expr",
        also=("and_expr", "not_expr"),
        summary="Combine conditions; `not` binds tightest, then `and`, then `or`.",
        example="placed has town and not (placed has well) or count(tiles) == 1",
        shows=("or_op", "and_op", "not_op"), ir=("Logic", "Not")),
    Construct(
        name="comparisons", grammar_rule="test", group=X, context="expr",
        also=("COMPARE",),
        summary="Compare two numbers, or test two values for equality.",
        example="count(pawn of me) >= supply(me, pawn)",
        shows=("compare",), ir=("Compare",)),
    Construct(
        name="is", grammar_rule="test", group=X, context="expr",
        also=("NOT",),
        summary="`is KIND` tests the kind of a piece, site or area; `is none` tests for "
                "nothing; `is in` tests membership. Each may be negated with `not`.",
        example="count(pawn where it.area is lake and it.area.keeper is not none "
                "and it.tile is not in neighbours(placed))",
        shows=("is_kind", "is_none", "is_in"), ir=("IsKind", "IsNone", "IsIn")),
    Construct(
        name="has", grammar_rule="test", group=X, context="expr",
        summary="Whether a tile, site, area or set of tiles holds a feature or a piece of the "
                "kind.",
        example="placed has town or neighbours(placed) has pawn",
        shows=("has",), ir=("Has",)),
    Construct(
        name="arithmetic", grammar_rule="sum", group=X, context="expr",
        also=("product", "unary", "ADD_OP", "MUL_OP"),
        summary="Integer arithmetic, left to right with the usual precedence; division rounds "
                "down. `+` also joins two collections.",
        example="-2 + 3 * count(tiles) / 2 - me.gold",
        shows=("arith", "neg"), ir=("Arith", "Neg")),
    Construct(
        name="collections", grammar_rule="collection", group=X, context="expr",
        also=("alias", "within", "owned"),
        summary="A kind names every object of that kind on the board. `as` names the element "
                "for the filter, `in` narrows to a tile, site or area, `of` to one player's "
                "pieces.",
        example="pawn as q in neighbours(placed) of me where not q.covered",
        shows=("collection", "alias", "within", "owned"), ir=("Collection",)),
    Construct(
        name="attributes", grammar_rule="postfix", group=X, context="expr",
        summary="A dot reads an attribute: a piece's owner, site, tile or area, the piece "
                "`above` or `below` it, whether it is `covered`, and whether it `arrived` "
                "(was put or moved where it stands during this turn); an area's attributes "
                "and held resources; a player's resources.",
        example="count(pawn where it.site.area.keeper == it.owner) + me.gold",
        shows=("attr",), ir=("Attr",)),
    Construct(
        name="literals and names", grammar_rule="atom", group=X, context="action",
        summary="Numbers (whole, of at most 18 digits), quoted strings, `true`, `false`, "
                "`none`, and names. A name is a variable, a kind or a built-in such as `me` or "
                "`placed`. Expressions and statements nest at most 64 deep; name a part with "
                "`define` or `let` to go further.",
        example='''
            let note = "a lake dries up"
            choose a from lake where it.dry == false and it.keeper != none
            set a.dry to true
            give 3 points to a.keeper
        ''',
        shows=("number", "string", "true", "false", "none", "name"),
        ir=("Number", "Text", "Boolean", "NoneValue", "Name")),
    Construct(
        name="counting: count, sum, min, max", grammar_rule="atom", group=X, context="expr",
        summary="`count` counts a collection; `sum` adds a measure of each element (`it`); "
                "`min` and `max` pick among numbers; `upto(n)` is the numbers 0 to n (n at most "
                "1,000), for a choice of how many.",
        example="min(sum(lake where it.keeper == me, it.gold), max(count(pawn of me), 2))",
        shows=("call",), ir=("Call",)),
    Construct(
        name="picking: top, only", grammar_rule="atom", group=X, context="expr",
        summary="`top` keeps the elements with the highest measure, ties included; `only` is "
                "the one element of a collection that must hold exactly one, so guard it.",
        example="if count(top(players, it.points)) == 1 then only(top(players, it.points)) "
                "else none",
        shows=("call",), ir=("Call",)),
    Construct(
        name="board functions", grammar_rule="atom", group=X, context="action",
        summary="`neighbours` gives the tiles sharing an edge with a tile, `reach` the tiles a "
                "piece gets to in some moves through some tiles and one kind of area, "
                "`reach_across` the same for a piece that passes a barrier feature (a wall, a "
                "cloud) that otherwise splits the area, `hops` the tiles within some steps "
                "across any edges whatever the tiles show, `nearest` the tiles or sites of a "
                "collection closest to a tile in such steps; `supply` counts a player's "
                "pieces left of a kind; `faces`, `fits` and `placeable` serve laying tiles. "
                "`reach_sites` and `reach_sites_across` tell the same walk by site, because a "
                "barrier can split a tile: only the sites in the part of each tile the piece "
                "gets into count (the part and what is drawn in it), with those of areas of "
                "other kinds that meet that part at an edge (a village on a road that runs "
                "through a field). Use them where a piece stops, sees or "
                "fights only in the part it reaches; `pieces in` them are the pieces there. "
                "What stops a piece (the fifth argument of `reach` and `reach_sites`) may be "
                "tiles or sites; a site stops it only in the part of its tile it lies in.",
        example='''
            choose p from pawn of me
            choose s from sites in reach(p.site, 2, tiles, field) + sites in reach_across(p.site, 1, tiles, field, well)
            require s is in reach_sites(p.site, 2, tiles, field, reach_sites(s, 1, tiles, field)) + reach_sites_across(p.site, 1, tiles, field, well)
            require count(pawn in reach_sites(s, 1, tiles, field)) == 0
            require count(pawn in neighbours(s.tile)) < supply(me, pawn)
            require s.tile is in hops(p.tile, 3, tiles)
            require s is in nearest(p.tile, sites where it is field)
            move p to s
        ''',
        shows=("call",), ir=("Call",)),
    Construct(
        name="distances and payments", grammar_rule="atom", group=X, context="action",
        summary="`distance` counts the edge steps from one tile or empty position to another "
                "through laid tiles (a rule that asks for a distance where no path joins the "
                "two cannot be carried out); `splits` tells whether taking a tile away would "
                "leave its board in two parts; `ways(n, R, tiles)` lists every way to take n "
                "of resource R from tiles that hold it, each a sorted list of tiles, one per "
                "unit; `highest` is the highest measure over a collection (0 when empty); "
                "`next(p, k)` is the player k seats after p.",
        example="""
            require distance(placed, placed) <= highest(tiles, distance(it, placed))
            require not splits(placed)
            require count(ways(1, gold, tiles)) >= 0
            require next(me, 1) != me
        """,
        shows=("call",), ir=("Call",)),
    # ------------------------------------------------- examples and rulings
    Construct(
        name="worked example", grammar_rule="example", group=E, context="top",
        also=("_example_item", "illustrates", "play"),
        summary="A position, the moves played, and what must follow. The build plays every "
                "example against the engine and stops if it disagrees, so the book's examples "
                "are always true. The book shows it as the ruleset's `code`, E and its place "
                "among the ruleset's examples (`DM-E1`): an id that is the same in every "
                "variant and names no other example on the site.",
        example='''
            example research_pays "Research pays a point" {
                illustrates main.research
                text "Red has laid a tile and researches."
                given {
                    players red, blue
                    turn 3 red step act placed 1,0
                    tile t1 a at 0,0 rotation 0
                    tile t2 a at 1,0 rotation 0
                    points red 4
                    stacks [t3], []
                }
                play "research"
                expect legal
                expect points red +1
                expect points red 5
            }
        ''',
        shows=("example", "illustrates", "given", "play", "expect_legal", "expect_delta",
               "expect_amount"),
        ir=("Example", "PositionFact")),
    Construct(
        name="rounds and turns in examples", grammar_rule="pos_round", group=E, context="top",
        also=("pos_game", "pos_waiting"),
        summary="Where the rounds stand (`round 2 turn 1`: the first turn of the second round), "
                "the game's attributes, and who is still to take a step each player takes "
                "(`waiting`, the first deciding now; left out, the whole order is). Moves in "
                "such a step name their seat (`blue: research`); `expect game`, `expect round` "
                "and `expect waiting` check the same facts after the moves.",
        example='''
            chapter seasons "Seasons" {
                rule seasons.play "Seasons of play" {
                    text "Two seasons of two turns; everybody acts in every turn."
                    round season "season" { count 2  turns 2 }
                    game attribute calm: bool "is calm"
                    step lay "Lay a tile": must lay_tile also set_aside
                    step act "Act": each player must one of build, research
                    step score "Score": automatic
                }
            }
            example everybody_acts "Everybody acts, in seat order from the active player" {
                illustrates seasons.play
                given {
                    players red, blue, green
                    turn 2 blue step act placed 1,0
                    tile t1 a at 0,0 rotation 0
                    tile t2 a at 1,0 rotation 0
                    round 1 turn 2
                    game calm true
                    waiting green, red
                }
                play "green: research"
                expect legal
                expect waiting red
                expect round 1 turn 2
                expect game calm true
            }
        ''',
        shows=("pos_round", "pos_game", "pos_waiting", "expect_round", "expect_game",
               "expect_waiting"),
        replaces=("end", "steps")),
    Construct(
        name="positions", grammar_rule="given", group=E, context="top",
        also=("_position_item", "pos_players", "pos_turn", "placed", "pos_tile", "pos_piece",
              "pos_amount", "pos_area", "pos_supply", "pos_stacks", "tile_stack", "stack_entry",
              "holder", "value", "site"),
        summary="What the table shows: the seats in playing order, whose turn and step, the "
                "tiles laid, the pieces, the amounts held by players, areas and the pool, area "
                "attributes, supplies and the stacks (`?` for a tile nobody knows).",
        example='''
            example kept_lake "A kept lake" {
                illustrates main.board
                given {
                    players red, blue, green
                    turn 5 blue step act placed 1,0
                    tile t1 a at 0,0 rotation 0
                    tile t2 a at 1,0 rotation 0
                    pawn red at 0,0:lake
                    pawn blue at 1,0:field
                    gold red 3
                    gold 0,0:lake 2
                    gold pool 35
                    points green -1
                    area 0,0:lake keeper red
                    area 0,0:lake dry true
                    supply red pawn 4
                    stacks [?], []
                }
                expect closed 0,0:lake
                expect open 0,0:field
                expect pawn red at 0,0:lake
                expect no pawn at 1,0:lake
                expect supply red pawn 4
                expect step act
            }
        ''',
        shows=("pos_players", "pos_turn", "placed", "pos_tile", "pos_piece", "pos_amount",
               "pos_area", "pos_supply", "pos_stacks", "tile_stack", "unknown_tile",
               "pool_holder", "true_value", "expect_closed", "expect_open", "expect_piece",
               "expect_no_piece", "expect_supply", "expect_step"),
        ir=("Example", "PositionFact")),
    Construct(
        name="zones in examples", grammar_rule="pos_zone", group=E, context="top",
        also=("zone_cards", "card_entry"),
        summary="What a zone holds, top card first (`?`: a card nobody at the table knows), "
                "with the seat for a player's zone; `expect zone` checks its cards (in order, "
                "if the zone is ordered) and `expect zone … holds N` how many it holds.",
        example='''
            chapter cards "Cards" {
                rule cards.hands "Hands" {
                    zone hand "hand" each private
                    zone discards "discard pile" shared ordered public
                }
            }

            example hands_kept "Research leaves the hands alone" {
                illustrates main.research
                given {
                    players red, blue
                    turn 3 red step act placed 1,0
                    tile t1 a at 0,0 rotation 0
                    tile t2 a at 1,0 rotation 0
                    stacks [], []
                    zone hand red [?]
                    zone discards []
                }
                play "research"
                expect zone hand red [?]
                expect zone hand blue holds 0
            }

            example discards_kept "Research leaves the discard pile alone" {
                illustrates main.research
                given {
                    players red, blue
                    turn 3 red step act placed 1,0
                    tile t1 a at 0,0 rotation 0
                    tile t2 a at 1,0 rotation 0
                    stacks [], []
                    zone discards [t3]
                }
                play "research"
                expect zone discards [t3]
            }
        ''',
        shows=("pos_zone", "zone_cards", "card_entry", "unknown_card", "expect_zone",
               "expect_zone_size"),
        ir=("Example", "PositionFact")),
    Construct(
        name="examples from the set-up", grammar_rule="pos_start", group=E, context="top",
        also=("start_seed", "start_setup"),
        summary="An example may begin with the game as its set-up leaves it: `start`, with "
                "the seats (`players`) and, in a tile game, how the stacks lie (`stacks`), "
                "nothing else. What chance decides in the set-up (a shuffle, a draw) is given "
                "in order with `setup`, as a record's `Setup` tag writes it, or left to a "
                "seed the example states (`seed 7`); without either, a set-up that needs "
                "chance fails the example and says what to give.",
        example='''
            chapter cards "Cards" {
                rule cards.deck "The deck" {
                    text "The tiles start in a deck, shuffled; each player is dealt one."
                    zone box "the box" shared unordered hidden
                    cards start in box
                    zone deck "draw deck" shared ordered hidden
                    zone hand "hand" each private
                    at start of game {
                        move cards in box to deck
                        shuffle deck
                        for each p in players {
                            deal 1 from deck to hand of p
                        }
                    }
                }
            }

            example first_cards "Red is dealt the top card" {
                illustrates cards.deck
                given {
                    start setup "deck:t2,t3,t1"
                    players red, blue
                }
                expect zone hand red [t2]
                expect zone deck [t1]
            }

            example one_left "Whatever the shuffle, one card is left with two players" {
                illustrates cards.deck
                given {
                    start seed 7
                    players red, blue
                }
                expect zone deck holds 1
            }
        ''',
        shows=("pos_start", "start_seed", "start_setup"),
        ir=("Example", "PositionFact")),
    Construct(
        name="laid cards and values in examples", grammar_rule="pos_card", group=E,
        context="top", also=("face_down", "card_values", "card_value"),
        summary="`card ID at CELL` lays a printed card in a position, its first face up, or "
                "`down`; `with NAME VALUE, …` gives what it holds and its own attributes. "
                "`expect card ID at CELL [down] [with …]` and `expect no card at CELL` check "
                "the board after the moves. `expect value EXPR is VALUE` checks anything the "
                "rules can compute, each seat's id standing for that player; the checker "
                "types the expression, and a failure says what the engine found.",
        example='''
            chapter huts "Huts" {
                rule huts.cards "Hut cards" {
                    step act "Act": may research
                    card kind hut "hut" plural "huts" {
                        holds gold
                        attribute filled: int "filled {value} times"
                    }
                }
            }

            cards hutcards "Hut cards" of hut {
                card hut1 "Hut" { }
                card hut2 "Hut" { }
                card hut3 "Hut" { }
            }

            example huts_kept "Research leaves the huts alone" {
                illustrates main.research
                given {
                    players red, blue
                    turn 3 red step act
                    card hut1 at 0,0 with gold 1, filled 2
                    card hut2 at 1,0 down
                    points red 4
                }
                play "research"
                expect card hut1 at 0,0 with gold 1, filled 2
                expect card hut2 at 1,0 down
                expect no card at 2,0
                expect value count(tiles) is 2
                expect value red.points + 1 is 6
            }
        ''',
        shows=("pos_card", "face_down", "card_values", "card_value", "expect_card",
               "expect_no_card", "expect_value"),
        ir=("Example", "PositionFact"),
        replaces=("areas", "tileset", "use tiles", "stacks", "steps", "build", "lay_tile",
                  "set_aside")),
    Construct(
        name="illegal moves", grammar_rule="expectation", group=E, context="top",
        summary="An example may show a move the rules forbid. It names the rules that forbid "
                "it, and the engine must cite exactly those.",
        example='''
            example build_elsewhere "Only on the tile just laid" {
                illustrates main.turn
                given {
                    players red, blue
                    turn 3 red step act placed 1,0
                    tile t1 a at 0,0 rotation 0
                    tile t2 a at 1,0 rotation 0
                }
                play "build 0,0:field"
                expect illegal per main.turn
            }
        ''',
        shows=("expect_illegal",), ir=("Example", "PositionFact")),
    Construct(
        name="breaches in examples", grammar_rule="expectation", group=E, context="top",
        also=("breach_at",),
        summary="`expect breach X at PLACE` checks that an audit finds a breach after the "
                "moves: X names an audit, a rule its breaches cite, or both (`AUDIT.RULE`); "
                "PLACE is where the element is (a cell, a site of an area, a seat, a cell of "
                "a player's board `red/1,0`), and may be left out. `expect no breach` checks "
                "that no audit finds anything.",
        example='''
            audit crowded "Lakes with room for everyone" {
                breach "more than one pawn stands in it" per main.board
                    in lake where count(pawn in it) > 1
            }
            example two_in_a_lake "Two pawns in one lake" {
                illustrates main.board
                given {
                    players red, blue
                    turn 3 red step act placed 1,0
                    tile t1 a at 0,0 rotation 0
                    tile t2 a at 1,0 rotation 0
                    pawn red at 0,0:lake
                    pawn blue at 1,0:lake
                }
                expect breach crowded.main.board at 1,0:lake
            }
            example one_in_a_lake "One pawn in a lake" {
                illustrates main.board
                given {
                    players red, blue
                    turn 3 red step act placed 1,0
                    tile t1 a at 0,0 rotation 0
                    tile t2 a at 1,0 rotation 0
                    pawn red at 0,0:lake
                }
                expect no breach
            }
        ''',
        shows=("expect_breach", "expect_no_breach", "breach_at"),
        ir=("AuditDecl", "Example", "PositionFact")),
    Construct(
        name="the end of the game", grammar_rule="expectation", group=E, context="top",
        also=("end_game",),
        summary="`end game` ends the game after the moves, running final scoring; then the "
                "example can expect the winners and what the end changed.",
        example='''
            example most_points "The most points win" {
                illustrates main.goal
                given {
                    players red, blue
                    turn 9 blue step act placed 1,0
                    tile t1 a at 0,0 rotation 0
                    tile t2 a at 1,0 rotation 0
                    points red 7
                    points blue 5
                    area 0,0:lake dry false
                    stacks [], []
                }
                end game
                expect winner red
                expect area 0,0:lake keeper none
                expect area 0,0:lake dry false
            }
        ''',
        shows=("end_game", "expect_winner", "expect_area", "none_value", "false_value"),
        ir=("Example", "PositionFact")),
    Construct(
        name="player attributes in positions", grammar_rule="pos_player", group=E,
        context="top",
        summary="`player SEAT NAME VALUE` sets a player attribute in a position; `expect "
                "player SEAT NAME VALUE` checks one after the moves.",
        example='''
            player attribute luck: int "has {value} luck"
            at end of turn {
                set me.luck to me.luck + 1
            }
            example lucky "Luck grows" {
                illustrates main.board
                given {
                    players red, blue
                    turn 3 red step act placed 0,0
                    tile t1 a at 0,0 rotation 0
                    player red luck 2
                    stacks [t2], []
                }
                play "research"
                expect player red luck 3
            }
        ''',
        shows=("pos_player", "expect_player"), ir=("PlayerAttribute", "PositionFact")),
    Construct(
        name="ruling", grammar_rule="ruling", group=E, context="top",
        also=("_ruling_item", "question", "reason", "settles"),
        summary="Our reading where the printed rules are silent, unclear or contradict "
                "themselves: the question, the answer, why, and the rules it settles, which "
                "link back to it. Shown as the ruleset's `code`, R and its place (`DM-R1`).",
        example='''
            ruling dry_lake "A lake that dries up" {
                question "Does a dry lake still count as closed?"
                text "Yes. Drying changes what the lake pays, not its shape."
                reason "The rules never open an area once it is closed."
                settles main.board
            }
        ''',
        ir=("Ruling",)),
]


# ----------------------------------------------------------- the grammar


@lru_cache(maxsize=None)
def _grammar_blocks() -> dict[str, str]:
    """Every rule and terminal of grammar/rules.lark, by name, as written there."""
    blocks: dict[str, list[str]] = {}
    current: str | None = None
    for line in GRAMMAR_FILE.read_text(encoding="utf-8").splitlines():
        head = re.match(r"^[?!]?([A-Za-z_][A-Za-z0-9_]*)(?:\.-?\d+)?\s*:", line)
        if head:
            current = head.group(1)
            blocks[current] = [line.rstrip()]
        elif current is not None and re.match(r"^\s+\|", line):
            blocks[current].append(line.rstrip())
        else:
            current = None
    return {name: "\n".join(lines) for name, lines in blocks.items()}


def grammar_excerpt(rule_name: str) -> str:
    """The rule (or terminal) `rule_name` exactly as grammar/rules.lark writes it."""
    try:
        return _grammar_blocks()[rule_name]
    except KeyError:
        raise KeyError(f"grammar/rules.lark has no rule `{rule_name}`") from None


def grammar_names() -> set[str]:
    """The names of every rule and terminal of the grammar, as Lark loads it."""
    parser = rules_parser()
    return {r.origin.name for r in parser.rules} | {t.name for t in parser.terminals}


def alternatives(rule_name: str) -> list[str]:
    """The rules an inlined choice such as `_decl` or `_stmt` stands for, in grammar order."""
    out: list[str] = []
    for r in rules_parser().rules:
        if r.origin.name == rule_name:
            for sym in r.expansion:
                if not sym.is_term and sym.name not in out:
                    out.append(sym.name)
    return out


def node_names(rule_name: str | None = None) -> set[str]:
    """The names a parse tree can show for `rule_name` (or for any rule): its own or its aliases.

    Inlined rules (`_x`) never show; a `?rule` alternative with a single child is
    replaced by that child.
    """
    out: set[str] = set()
    for r in rules_parser().rules:
        origin = str(r.origin.name)
        if origin.startswith("_") or (rule_name is not None and origin != rule_name):
            continue
        kept = [s for s in r.expansion if not (s.is_term and getattr(s, "filter_out", False))]
        if r.options.expand1 and len(kept) == 1 and not r.alias:
            continue
        out.add(str(r.alias or origin))
    return out - {"start"}


# ----------------------------------------------------- wrapping examples


def _indent(text: str, spaces: int) -> list[str]:
    return [(" " * spaces + line) if line.strip() else "" for line in text.splitlines()]


def _assemble(construct: Construct | None) -> tuple[str, tuple[int, int]]:
    """The source around `construct`'s example, and the lines (1-based, inclusive) it fills.

    With no construct: the bare base ruleset, with an empty rule where examples go.
    """
    ctx: Context = construct.context if construct else "rule"
    snippet = _src(construct.example) if construct else ""
    dropped = set(construct.replaces) if construct else set()
    lines: list[str] = []
    span = (0, 0)

    def put(text: str, spaces: int) -> None:
        nonlocal span
        start = len(lines) + 1
        lines.extend(_indent(text, spaces))
        span = (start, len(lines))

    if construct is not None and ctx == "variant":
        lines.append(f"# The example `{construct.name}` of the language reference, "
                     f"in a variant of `{BASE_ID}`.")
        if "variant header" not in dropped:
            lines += [f"ruleset {VARIANT_ID} extends {BASE_ID} {{", '    subtitle "A variant"',
                      "}", ""]
        put(snippet, 0)
        return "\n".join(lines) + "\n", span

    parts: dict[str, list[str]] = {"header": [], "board": [], "turn": [], "research": [],
                                   "goal": [], "tiles": []}
    for name, (where, text) in BASE.items():
        if name not in dropped:
            parts[where].append(text)
    if ctx in ("action", "expr"):
        parts["research"] = []

    def rule(rid: str, title: str, texts: list[str], prose: str | None = None) -> None:
        lines.append(f'    rule {rid} "{title}" {{')
        if prose:
            lines.append(f'        text "{prose}"')
        for t in texts:
            lines.extend(_indent(t, 8))
        if ctx in ("action", "expr") and rid == "main.research":
            lines.append('        action research "research" {')
            put(snippet if ctx == "action" else f"let value = {snippet}", 12)
            lines.append("        }")
        lines.append("    }")

    if construct is None:
        lines.append("# The small ruleset the examples of the language reference are compiled in.")
    else:
        lines.append(f"# The example `{construct.name}` of the language reference, in a small "
                     "complete ruleset.")
    if ctx == "top" and "header" in dropped:
        put(snippet, 0)
    else:
        header = HEADER
        added = re.findall(r"^chapter\s+(\w+)", snippet, re.M) if ctx == "top" else []
        if added:
            header = header.replace("chapters main", "chapters " + ", ".join(["main", *added]))
        lines.extend(header.splitlines())
    lines += ["", 'chapter main "Main" {']
    rule("main.board", "Board", parts["board"])
    rule("main.turn", "A turn", parts["turn"])
    rule("main.research", "Research", parts["research"])
    rule("main.goal", "The goal", parts["goal"], "At the end of the game each player scores a last "
         "point; then the player with the most points wins.")
    if ctx == "rule":
        lines.append('    rule main.example "The example" {')
        put(snippet, 8)
        lines.append("    }")
    elif ctx == "chapter":
        lines.append("")
        put(snippet, 4)
    lines += ["}", ""]
    for t in parts["tiles"]:
        lines.extend(t.splitlines())
    if ctx == "top" and "header" not in dropped:
        lines.append("")
        put(snippet, 0)
    return "\n".join(lines) + "\n", span


def wrap(construct: Construct) -> str:
    """The construct's example inside a minimal complete ruleset, ready to compile.

    For a `variant` construct this is the variant's file; it extends the ruleset
    `base_source()` gives, which must be found as a folder named `BASE_ID`.
    """
    return _assemble(construct)[0]


def example_lines(construct: Construct) -> tuple[int, int]:
    """The first and last line (1-based) of the example inside `wrap(construct)`."""
    return _assemble(construct)[1]


def base_source() -> str:
    """The small ruleset, with no example in it: the base the variant examples extend."""
    return _assemble(None)[0]


def example_nodes(construct: Construct) -> set[str]:
    """The names of the parse-tree nodes the example itself produces (not its surroundings)."""
    text, (first, last) = _assemble(construct)
    tree = rules_parser().parse(text)
    found: set[str] = set()
    for sub in tree.iter_subtrees():
        if not isinstance(sub, Tree) or sub.meta.empty:
            continue
        if first <= sub.meta.line and sub.meta.end_line <= last:
            found.add(str(sub.data))
    return found


# ----------------------------------------------------------------- the IR


def declaration_classes() -> list[type[m.Decl]]:
    """Every IR declaration class: the subclasses of `Decl` told apart by a `decl` literal."""
    out: list[type[m.Decl]] = []
    todo: list[type[m.Decl]] = list(m.Decl.__subclasses__())
    while todo:
        cls = todo.pop(0)
        todo.extend(cls.__subclasses__())
        field = cls.model_fields.get("decl")
        if field is not None and typing.get_origin(field.annotation) is Literal:
            out.append(cls)
    return out


def statement_classes() -> list[type[n.Stmt]]:
    """Every IR statement class."""
    return [c for c in n.Stmt.__subclasses__() if "node" in c.model_fields]


def expression_classes() -> list[type[n.Node]]:
    """Every IR expression class (the members of `Expr`)."""
    union = typing.get_args(n.Expr)[0]
    return list(typing.get_args(union))


def _tag(cls: type[Any], field: str) -> str:
    return str(typing.get_args(cls.model_fields[field].annotation)[0])


def constructs_for(ir_class: type[Any]) -> list[Construct]:
    return [c for c in CONSTRUCTS if ir_class.__name__ in c.ir]


# ------------------------------------------------------------------- page


def _section(c: Construct) -> list[str]:
    out = [f"### {c.name} {{#{c.anchor}}}", "", c.summary, "", f"*{CONTEXT_WORDS[c.context]}*",
           "", "```rules", *_src(c.example).splitlines(), "```", "",
           '??? abstract "Grammar"', "", "    ```text"]
    for rule in c.grammar_rules:
        out += ["    " + line for line in grammar_excerpt(rule).splitlines()]
    out += ["    ```", ""]
    return out


def _link(cs: list[Construct]) -> str:
    return ", ".join(f"[{c.name}](#{c.anchor})" for c in cs) or "**missing**"


def reference_page() -> str:
    """The "Language reference" page, in Markdown."""
    out = [
        "---", "title: Language reference", "---", "",
        "# Language reference", "",
        "Every construct of the rules language, with what it is for and a short example. "
        "The examples use a small neutral game of pawns, towers, fields and lakes; each one is "
        "compiled by the test suite inside a complete little ruleset, and the worked examples "
        "are played against the engine, so none of them can go stale. The syntax under each "
        "construct is cut out of `grammar/rules.lark`, the grammar the compiler itself loads.",
        "",
    ]
    out += ['??? example "The ruleset around the examples"', "",
            "    Each example is compiled inside this ruleset: a declaration example in a rule "
            "of its own, a statement or an expression inside the `research` action, an item "
            "of a file after it, a variant as a variant of it. An example that declares "
            "something this ruleset already has takes its place.", "",
            "    ```rules"]
    out += ["    " + line if line else "" for line in base_source().splitlines()[1:]]
    out += ["    ```", ""]
    for group in GROUPS:
        members = [c for c in CONSTRUCTS if c.group == group]
        if not members:
            continue
        out += [f"## {group}", ""]
        for c in members:
            out += _section(c)
    out += ["## Built-in names", "",
            "Names every ruleset can use without declaring them.", "",
            "| Name | Is |", "| --- | --- |"]
    out += [f"| `{k}` | {words(t)} |" for k, t in BUILTIN_VALUES.items()]
    out += [f"| `{k}` | {words(t)} (only in a rule triggered when an area closes) |"
            for k, t in EVENT_VALUES.items()]
    out += ["| `it` | the element, inside `where` and the measures of `sum`, `top` and "
            "`winner` |", "",
            "Built-in functions: " + ", ".join(f"`{f}`" for f in FUNCTIONS) + ".", ""]
    out += ["## What the compiler makes of it", "",
            "Each declaration compiles to one class of the IR that the engine and this book "
            "both read.", "", "| Declaration | IR class | Construct |", "| --- | --- | --- |"]
    out += [f"| `{_tag(cls, 'decl')}` | `{cls.__name__}` | {_link(constructs_for(cls))} |"
            for cls in declaration_classes()]
    out += ["", "| Statement | IR class | Construct |", "| --- | --- | --- |"]
    out += [f"| `{_tag(cls, 'node')}` | `{cls.__name__}` | {_link(constructs_for(cls))} |"
            for cls in statement_classes()]
    out.append("")
    return "\n".join(out)


__all__ = [
    "BASE_ID", "CONSTRUCTS", "Construct", "GROUPS", "VARIANT_ID", "alternatives", "base_source",
    "constructs_for", "declaration_classes", "example_lines", "example_nodes", "expression_classes",
    "grammar_excerpt", "grammar_names", "node_names", "reference_page", "statement_classes",
    "wrap",
]
