"""Game records: read, replay, write.

A record is a header of tags and a line per turn. Every random outcome is in
it: the `Stacks` tag lists the order of the shuffled tiles (top first), the
`Setup` tag what chance decided while the game was set up (a shuffle as the
zone's cards in their new order, `deck:c3,c1,c2`), each placement names its
tile, face, position and turn, a move's own chance follows its `!`, and what
chance decided for the table once a move's turn was over (the deal at the
start of the next round) is a **table decision** of its own right after that
move, `! deck:…`. So a record replays the same way every time, without its
seed, and reads without a board at hand. A `Result` other than `*` must be
what the replay reaches.

Reading is lenient about spacing and comments, strict about meaning: every
decision is adjudicated, and the first one that is not legal stops the replay
with its line, column and ruling. A `pass` may be left out wherever the next
decision is not possible in the current step; the writer leaves it out
exactly there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from lark.exceptions import UnexpectedInput

from compiler.diagnostics import Diagnostic, did_you_mean
from compiler.engine import chance, zone_play
from compiler.engine.evaluate import AT_TABLE
from compiler.engine.notation import Move, NotationError, clip
from compiler.engine.notation import number as _number
from compiler.engine.position import IllegalMove, Position, Rules, stacks_problem
from compiler.engine.ruling import Ruling
from compiler.parse.grammar import record_parser


@dataclass
class Decision:
    text: str
    line: int
    column: int
    written: str = ""  # as the record writes it, when that differs (a table decision after it)


@dataclass
class TurnLine:
    number: int
    decisions: list[Decision]
    line: int


@dataclass
class Record:
    tags: dict[str, str] = field(default_factory=dict)
    turns: list[TurnLine] = field(default_factory=list)
    file: str = "<record>"
    tag_lines: dict[str, int] = field(default_factory=dict)  # where each tag was written

    def line_of(self, tag: str) -> int:
        return self.tag_lines.get(tag, 1)


# The tags a record may carry; others (an event, a date) are kept and ignored.
TAGS = {
    "Ruleset": "the ruleset played", "Version": "its version", "Players": "the seats, in "
    "playing order", "Seed": "the seed the tiles were shuffled with", "Stacks": "the tiles, top "
    "first, stacks split by |", "Setup": "what chance decided while the game was set up, in "
    "order (a shuffle as `zone:card,card,…`, top first)",
    "Result": "the final scores and winners, or *",
    "View": "whose view of the game this is (a player's notes: it does not replay)",
}
OLD_SETUP = "Chance"  # the `Setup` tag's older name, still read
SEED_DIGITS = 40  # seeds are any whole number a player picks; this many digits is plenty


class RecordError(ValueError):
    """A record that cannot be read or replayed: where, why, and the ruling if any."""

    def __init__(self, diagnostic: Diagnostic, ruling: Ruling | None = None) -> None:
        self.diagnostic = diagnostic
        self.ruling = ruling
        text = diagnostic.render()
        if ruling is not None:
            text += "\n" + ruling.render()
        super().__init__(text)


def parse_record(text: str, file: str = "<record>") -> Record:
    """Read a record's text; a `RecordError` says where and what a record line looks like."""
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("{"):
        raise RecordError(Diagnostic(
            file=file, line=1, column=1, code="not-a-record",
            message="this is a position (JSON), not a record",
            hint="give it where a position is expected (moves, adjudicate, replay read "
                 "either); a record is a header of [Tag \"value\"] lines and one line per turn"))
    parser = record_parser()
    try:
        tree = parser.parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as e:
        raise RecordError(_syntax(text, file, e)) from None
    rec = Record(file=file)
    for node in tree.children:
        if node.data == "tag":
            name, line = str(node.children[0]), node.meta.line
            if name in rec.tags:
                raise _error(rec, line, 1, "header", f"the tag [{name}] is given twice (first "
                             f"on line {rec.tag_lines[name]})")
            if name not in TAGS:
                hint = did_you_mean(name, TAGS)
                if hint:
                    raise _error(rec, line, 2, "header", f"unknown tag [{name}]; {hint}")
            rec.tags[name] = _unquote(str(node.children[1]))
            rec.tag_lines[name] = line
        elif node.data == "turn":
            tok = node.children[0]
            try:
                number = _number(str(tok), "a turn number")
            except NotationError as e:
                raise _error(rec, tok.line, tok.column, "syntax", str(e)) from None
            decisions = []
            for d in node.children[1:]:
                tok = d.children[0]
                raw = str(tok)
                lead = len(raw) - len(raw.lstrip())
                decisions.append(Decision(" ".join(raw.split()), tok.line, tok.column + lead))
            rec.turns.append(TurnLine(number, decisions, node.meta.line))
    return rec


def _unquote(token: str) -> str:
    """A tag's value: the text between the quotes, with \\" and \\\\ read as " and \\."""
    return re.sub(r'\\(["\\])', r"\1", token[1:-1])


def _syntax(text: str, file: str, e: UnexpectedInput) -> Diagnostic:
    """A syntax error in a record's own words: what its kind of line looks like."""
    lines = text.splitlines()
    line = getattr(e, "line", 0) or len(lines) or 1
    column = getattr(e, "column", 0) or 1
    source = lines[line - 1] if 1 <= line <= len(lines) else ""
    body = source.split("#", 1)[0].strip()
    tag = 'a tag is written [Name "value"], e.g. [Players "quuylto xemh"]'
    turn = "a turn line is the turn's number, a dot, then its moves separated by `;`, " \
           "e.g. `12. t17 a at 1,0 r2; research`"
    if body.startswith("["):
        earlier = any(re.match(r"\s*[0-9]", x) for x in lines[:line - 1])
        if earlier and re.fullmatch(r'\[[A-Za-z][A-Za-z0-9_]*\s+"(?:[^"\\]|\\.)*"\s*\]', body):
            message = "tags come before the first turn line"
        elif not body.endswith("]"):
            message = f"this tag has no closing `]`; {tag}"
        elif '"' not in body:
            message = f"a tag's value is in double quotes; {tag}"
        else:
            message = tag
    elif re.match(r"[0-9]", body):
        if not re.match(r"[0-9]+\s*\.", body):
            message = f"a turn number is followed by a dot; {turn}"
        elif re.search(r"[\[\]]", body):
            message = f"a move cannot contain `[` or `]`; {turn}"
        else:
            message = f"a move is missing (nothing before or after a `;`); {turn}"
    elif body.startswith("{"):
        message = "this is a position (JSON), not a record"
    else:
        message = ("each line of a record is a tag [Name \"value\"], a turn line "
                   "(`12. move; move`), a comment (# ...) or blank")
    shown = source if len(source) <= 200 else source[:199] + "…"
    return Diagnostic(file=file, line=line, column=min(column, len(shown) + 1), code="syntax",
                      message=message, source_line=shown)


def start_of(rules: Rules, rec: Record) -> Position:
    """The starting position a record describes (players, seats, stacks, set-up chance).

    A header error points at its tag's line."""
    tags = rec.tags
    name = tags.get("Ruleset", rules.ruleset.id).replace("-", "_")
    if name != rules.ruleset.id:
        raise _error(rec, rec.line_of("Ruleset"), 1, "header",
                     f"this record is for {name!r}, not {rules.ruleset.id!r}")
    seats = tags.get("Players", "").split()
    at = rec.line_of("Players")
    if not seats:
        raise _error(rec, at, 1, "header", "the record has no [Players \"...\"] tag naming "
                     "the seats in playing order" if "Players" not in tags else
                     "the [Players] tag names no seat")
    rs = rules.ruleset
    if not rs.players_min <= len(seats) <= rs.players_max:
        plural = "s" if len(seats) != 1 else ""
        raise _error(rec, at, 1, "header", f"{len(seats)} player{plural}; {rs.title or rs.id} "
                     f"is for {rs.player_counts}")
    declared = [s.id for s in rs.seats]
    if all(s in declared for s in seats) and len(set(seats)) == len(seats):
        rules = rules.seated(seats)
    g = rules.game
    for i, s in enumerate(seats):
        if g.seat_index(s, len(seats)) != i:
            hint = did_you_mean(s, declared)
            raise _error(rec, at, 1, "header",
                         f"seat {i + 1} is {g.seat_id(i)!r}, not {clip(s)!r} (players are "
                         f"listed in playing order, using the ruleset's seat ids: "
                         f"{', '.join(declared)})" + (f"; {hint}" if hint else ""))
    stacks = None
    if "Stacks" in tags:
        stacks = [part.split() for part in tags["Stacks"].split("|")]
        problem = stacks_problem(g, stacks)
        if problem:
            raise _error(rec, rec.line_of("Stacks"), 1, "header", problem)
    seed = None
    if "Seed" in tags:
        try:
            seed = _number(tags["Seed"].strip(), "a seed", SEED_DIGITS)
        except NotationError as e:
            raise _error(rec, rec.line_of("Seed"), 1, "header", str(e)) from None
    if stacks is None and seed is None and zone_play.start_zone(g) is None:
        raise _error(rec, 1, 1, "header", "the record says neither how the tiles lie "
                     "([Stacks \"...\"]) nor the seed they were shuffled with ([Seed \"...\"])")
    setup_tag = "Setup" if "Setup" in tags else OLD_SETUP
    if "Setup" in tags and OLD_SETUP in tags:
        raise _error(rec, rec.line_of(OLD_SETUP), 1, "header", "the set-up's outcomes are given "
                     f"twice: [{OLD_SETUP}] is the older name of [Setup]; keep one")
    # Only what the record says: its seed shuffles the legacy stacks, never the set-up's chance.
    setup = tags.get(setup_tag, "").split()
    try:
        return rules.start(len(seats), seed=seed, stacks=stacks, seats=seats, setup=setup)
    except ValueError as e:
        line = rec.line_of(setup_tag) if setup_tag in tags else at
        raise _error(rec, line, 1, "header", str(e)) from None


def replay(rules: Rules, rec: Record, upto: int | None = None,
           on_line: Callable[[TurnLine, Position], None] | None = None) -> Position:
    """The position after the record (or after its first `upto` turn lines).

    A complete replay is checked against the record's `Result`, if it states one.
    `on_line` is shown each turn line with the position it starts from (whose line it is).
    """
    if upto is not None and upto < 0:
        raise _error(rec, 1, 1, "upto", f"cannot stop after {upto} turn lines; give 0 or more")
    if upto is not None and upto > len(rec.turns):  # a slider or a typo past the end
        raise _error(rec, 1, 1, "upto", f"cannot stop after {upto} turn lines: the record has "
                                        f"{len(rec.turns)}")
    _not_a_view(rec)
    pos = start_of(rules, rec)
    lines = rec.turns if upto is None else rec.turns[:upto]
    previous = None
    for line in lines:
        if previous is not None and pos.state.turn.number == previous < line.number:
            # The previous line ended its turn: pass what is left of it.
            pos = _finish_turn(rec, pos, previous + 1, line.line)
        previous = line.number
        if pos.state.turn.number != line.number:
            raise _error(rec, line.line, 1, "turn-number",
                         f"this line is turn {line.number}, but the game is at turn "
                         f"{pos.state.turn.number}")
        if on_line is not None:
            on_line(line, pos)
        for d in with_table_decisions(rec, line.decisions):
            pos = _decide(rec, pos, d)
    result = rec.tags.get("Result", "*").strip()
    if upto is None and result not in ("*", ""):
        pos = _finish_turn(rec, pos, None, rec.turns[-1].line if rec.turns else 1)
        _check_result(rec, pos, result)
    return pos


def _not_a_view(rec: Record) -> None:
    """A view record (`[View "red"]`, written by `play --as`) keeps what one player saw: the
    others' hidden choices and hidden chance are `?`, so there is no game to replay."""
    if "View" in rec.tags:
        seat = rec.tags["View"].strip() or "a player"
        raise _error(rec, rec.line_of("View"), 1, "view",
                     f"this record is {clip(seat)}'s view of a game: the others' hidden "
                     f"choices and what chance hid are written `?`, so it cannot be replayed; "
                     f"replay the full record (written without --as)")


def result_text(pos: Position) -> str:
    """A finished game's `Result`: "seat points, seat points; winner seat ..."."""
    scores = ", ".join(f"{k} {v}" for k, v in pos.scores().items())
    return f"{scores}; winner {' '.join(pos.winners())}"


def _check_result(rec: Record, pos: Position, stated: str) -> None:
    """The record's `Result` must be what the replay reaches."""
    line = rec.line_of("Result")
    shape = "a result is written `seat points, seat points; winner seat`, or `*` while the " \
            "game goes on"
    m = re.fullmatch(r"(.*?);\s*winners?\s+(.+)", stated)
    if m is None:
        raise _error(rec, line, 1, "result", f"cannot read the [Result] {clip(stated)!r}: {shape}")
    scores: dict[str, int] = {}
    for part in m.group(1).split(","):
        words = part.split()
        if len(words) != 2:
            raise _error(rec, line, 1, "result",
                         f"cannot read {clip(part.strip())!r} in the [Result]: {shape}")
        try:
            scores[words[0]] = _number(words[1], "a score")
        except NotationError as e:
            raise _error(rec, line, 1, "result", f"{e}; {shape}") from None
    winners = m.group(2).split()
    if scores != pos.scores() or sorted(winners) != sorted(pos.winners()):
        said = ", ".join(f"{k} {v}" for k, v in scores.items()) + "; winner " + " ".join(winners)
        raise _error(rec, line, 1, "result",
                     f"the [Result] says {clip(said, 120)}, but the replay ends {result_text(pos)}")


def _finish_turn(rec: Record, pos: Position, number: int | None, line: int) -> Position:
    """Pass until the game reaches turn `number` (or its end)."""
    while not pos.finished and (number is None or pos.state.turn.number < number):
        passed = _applied(pos, "pass")
        if passed is None:
            ruling = pos.adjudicate("pass")
            raise _error(rec, line, 1, "unfinished",
                         f"turn {pos.state.turn.number} is not finished: "
                         f"{ruling.moves[0].breaches[0].message}", ruling)
        pos = passed
    return pos


def _applied(pos: Position, text: str) -> Position | None:
    """`pos.apply(text)`, or None if it is refused (the ruling is written only then, by
    `adjudicate`: a replay judges each decision once)."""
    try:
        return pos.apply(text)
    except IllegalMove:
        return None


def _decide(rec: Record, pos: Position, d: Decision) -> Position:
    turn = pos.state.turn.number
    while True:
        done = _applied(pos, d.text)
        if done is not None:
            return done
        ruling = pos.adjudicate(d.text)
        if ruling.verdict == "UNREADABLE":
            breach = ruling.moves[0].breaches[0]
            raise _error(rec, d.line, d.column, "unreadable", breach.message, ruling)
        chance = next((b for b in ruling.moves[0].breaches if b.code == "chance"), None)
        if chance is not None:  # the move is legal, but its outcomes are missing or wrong
            raise _error(rec, d.line, d.column, "chance", f"turn {turn}, "
                         f"`{clip(d.written or d.text, 120)}`: "
                         f"{chance.message}{_TABLE_HINT if AT_TABLE in chance.message else ''}",
                         ruling)
        passed = _applied(pos, "pass") if d.text != "pass" else None
        if passed is not None:
            if passed.state.turn.number == turn and not passed.finished:
                pos = passed
                continue
        raise _error(rec, d.line, d.column, "illegal", f"`{d.written or d.text}` is not legal here",
                     ruling)


def _error(rec: Record, line: int, column: int, code: str, message: str,
           ruling: Ruling | None = None) -> RecordError:
    return RecordError(Diagnostic(file=rec.file, line=line, column=column, code=code,
                                  message=message), ruling)


# ------------------------------------------------------------- table decisions
#
# What chance decides once a move's turn is over (a shuffle and a deal at the start of
# the next round) is no player's decision: the record writes it as a decision of its
# own, `! deck:c3,c1,…`, right after the move whose end led to it. The engine takes a
# move's outcomes in one list, its own first, then the table's; the split between
# them is positional, so the writer (`chance.table_entries`) and the reader
# (`chance.with_table`, here and in a sequence of moves) are each other's inverse,
# and a test holds them to it.

_TABLE_HINT = (" (what chance decides for the table once a move's turn is over is written "
               "right after the move, as a decision of its own: `move; ! outcome …`)")


def with_table_decisions(rec: Record, decisions: list[Decision]) -> list[Decision]:
    """A line's decisions as the engine takes them: each table decision's outcomes after
    those of the move before it."""
    out: list[Decision] = []
    for d in decisions:
        outcomes = chance.table_outcomes(d.text)
        if outcomes is None:
            out.append(d)
            continue
        if not out:
            raise _error(rec, d.line, d.column, "table-decision",
                         "a table decision (`! …`) comes right after the move whose end led "
                         "to it, on that move's line; what chance decided at the set-up goes "
                         "in the [Setup \"…\"] tag")
        if not outcomes:
            raise _error(rec, d.line, d.column, "table-decision",
                         "a table decision lists what chance decided after `!`")
        before = out[-1]
        out[-1] = Decision(chance.with_table(before.text, outcomes), before.line, before.column,
                           f"{before.written or before.text}; {d.text}")
    return out


# --------------------------------------------------------------------- writing


@dataclass
class History:
    """What a game record is made of, gathered while playing."""

    start: Position
    seats: list[str]
    stacks: list[list[str]] | None
    seed: int | None = None
    chance: tuple[str, ...] = ()  # what chance decided while the game was set up
    # (turn number, position before, move) for every decision taken
    moves: list[tuple[int, Position, Move]] = field(default_factory=list)
    # For a move whose last outcomes were the table's, how many (by the move's index).
    table: dict[int, int] = field(default_factory=dict)

    def add(self, pos: Position, move: Move, table: int = 0) -> None:
        if table:
            self.table[len(self.moves)] = table
        # The table as it stood, without the moves listed there (kept for every decision
        # of a game, they would only weigh on the collector; they are listed again if asked).
        self.moves.append((pos.state.turn.number, Position(pos.rules, pos.state), move))


def _deals_from_zone(rules: Rules) -> bool:
    """Whether the cards start in a zone of their own (`cards start in box`), so that
    empty stacks are not worth a tag."""
    return zone_play.start_zone(rules.game) is not None


def write_record(history: History, final: Position | None = None) -> str:
    rules = history.start.rules
    tags = [("Ruleset", rules.ruleset.id), ("Version", rules.ruleset.version),
            ("Players", " ".join(history.seats))]
    if history.seed is not None:
        tags.append(("Seed", str(history.seed)))
    if history.stacks is not None and (any(history.stacks) or not _deals_from_zone(rules)):
        tags.append(("Stacks", " | ".join(" ".join(s) for s in history.stacks)))
    if history.chance:
        tags.append(("Setup", " ".join(history.chance)))
    if final is not None and final.finished:
        tags.append(("Result", result_text(final)))
    else:
        tags.append(("Result", "*"))
    out = [f'[{k} "{v}"]' for k, v in tags]
    out.append("")
    lines: dict[int, list[str]] = {}
    moves = history.moves
    for i, (turn, pos, move) in enumerate(moves):
        text = pos.notation(move)
        if move.action == "pass" and not move.chance:  # a pass chance spoke in is written
            nxt = moves[i + 1] if i + 1 < len(moves) else None
            if nxt is None or nxt[0] != turn:
                continue  # the end of a turn passes by itself
            if pos.adjudicate(nxt[1].notation(nxt[2])).verdict != "LEGAL":
                continue  # the next decision is not possible here: the pass is implied
        table = history.table.get(i, 0)
        if table:
            text_alone = pos.notation(replace(move, chance=()))
            lines.setdefault(turn, []).extend(
                chance.table_entries(text_alone, move.chance, table))
            continue
        lines.setdefault(turn, []).append(text)
    for turn in sorted(lines):
        out.append(f"{turn}. " + "; ".join(lines[turn]))
    return "\n".join(out) + "\n"
