"""Game records: read, replay, write.

A record is a header of tags and a line per turn. Every random outcome is in
it: the `Stacks` tag lists the order of the shuffled tiles (top first), and
each placement names its tile, face, position and turn, so a record replays
the same way every time and reads without a board at hand.

Reading is lenient about spacing and comments, strict about meaning: every
decision is adjudicated, and the first one that is not legal stops the replay
with its line, column and ruling. A `pass` may be left out wherever the next
decision is not possible in the current step; the writer leaves it out
exactly there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lark.exceptions import UnexpectedInput

from compiler.diagnostics import Diagnostic
from compiler.engine.notation import Move
from compiler.engine.position import Position, Rules
from compiler.engine.ruling import Ruling
from compiler.parse.errors import syntax_diagnostic
from compiler.parse.grammar import record_parser
from compiler.parse.transform import unquote


@dataclass
class Decision:
    text: str
    line: int
    column: int


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
    parser = record_parser()
    try:
        tree = parser.parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as e:
        raise RecordError(syntax_diagnostic(parser, e, text, file)) from None
    rec = Record(file=file)
    for node in tree.children:
        if node.data == "tag":
            rec.tags[str(node.children[0])] = unquote(str(node.children[1]))
        elif node.data == "turn":
            number = int(node.children[0])
            decisions = []
            for d in node.children[1:]:
                tok = d.children[0]
                raw = str(tok)
                lead = len(raw) - len(raw.lstrip())
                decisions.append(Decision(" ".join(raw.split()), tok.line, tok.column + lead))
            rec.turns.append(TurnLine(number, decisions, node.meta.line))
    return rec


def start_of(rules: Rules, rec: Record) -> Position:
    """The starting position a record describes (players, seats, stacks)."""
    tags = rec.tags
    name = tags.get("Ruleset", rules.ruleset.id).replace("-", "_")
    if name != rules.ruleset.id:
        raise _error(rec, 1, 1, "header", f"this record is for {name!r}, not {rules.ruleset.id!r}")
    seats = tags.get("Players", "").split()
    if not seats:
        raise _error(rec, 1, 1, "header", "the record has no [Players \"...\"] tag")
    declared = [s.id for s in rules.ruleset.seats]
    if all(s in declared for s in seats) and len(set(seats)) == len(seats):
        rules = rules.seated(seats)
    g = rules.game
    for i, s in enumerate(seats):
        if g.seat_index(s, len(seats)) != i:
            raise _error(rec, 1, 1, "header",
                         f"seat {i + 1} is {g.seat_id(i)!r}, not {s!r} (players are listed in "
                         f"playing order, using the ruleset's seat ids)")
    stacks = None
    if "Stacks" in tags:
        stacks = [part.split() for part in tags["Stacks"].split("|")]
    seed = int(tags["Seed"]) if tags.get("Seed", "").isdigit() else None
    try:
        return rules.start(len(seats), seed=seed, stacks=stacks, seats=seats)
    except ValueError as e:
        raise _error(rec, 1, 1, "header", str(e)) from None


def replay(rules: Rules, rec: Record, upto: int | None = None) -> Position:
    """The position after the record (or after its first `upto` turn lines)."""
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
        for d in line.decisions:
            pos = _decide(rec, pos, d)
    if upto is None and rec.tags.get("Result", "*") not in ("*", ""):
        pos = _finish_turn(rec, pos, None, rec.turns[-1].line if rec.turns else 1)
    return pos


def _finish_turn(rec: Record, pos: Position, number: int | None, line: int) -> Position:
    """Pass until the game reaches turn `number` (or its end)."""
    while not pos.finished and (number is None or pos.state.turn.number < number):
        ruling = pos.adjudicate("pass")
        if ruling.verdict != "LEGAL":
            raise _error(rec, line, 1, "unfinished",
                         f"turn {pos.state.turn.number} is not finished: "
                         f"{ruling.moves[0].breaches[0].message}", ruling)
        pos = pos.apply("pass")
    return pos


def _decide(rec: Record, pos: Position, d: Decision) -> Position:
    turn = pos.state.turn.number
    while True:
        ruling = pos.adjudicate(d.text)
        if ruling.verdict == "LEGAL":
            return pos.apply(d.text)
        if d.text != "pass" and pos.adjudicate("pass").verdict == "LEGAL":
            passed = pos.apply("pass")
            if passed.state.turn.number == turn and not passed.finished:
                pos = passed
                continue
        raise _error(rec, d.line, d.column, "illegal", f"`{d.text}` is not legal here", ruling)


def _error(rec: Record, line: int, column: int, code: str, message: str,
           ruling: Ruling | None = None) -> RecordError:
    return RecordError(Diagnostic(file=rec.file, line=line, column=column, code=code,
                                  message=message), ruling)


# --------------------------------------------------------------------- writing


@dataclass
class History:
    """What a game record is made of, gathered while playing."""

    start: Position
    seats: list[str]
    stacks: list[list[str]] | None
    seed: int | None = None
    # (turn number, position before, move) for every decision taken
    moves: list[tuple[int, Position, Move]] = field(default_factory=list)

    def add(self, pos: Position, move: Move) -> None:
        self.moves.append((pos.state.turn.number, pos, move))


def write_record(history: History, final: Position | None = None) -> str:
    rules = history.start.rules
    tags = [("Ruleset", rules.ruleset.id), ("Version", rules.ruleset.version),
            ("Players", " ".join(history.seats))]
    if history.seed is not None:
        tags.append(("Seed", str(history.seed)))
    if history.stacks is not None:
        tags.append(("Stacks", " | ".join(" ".join(s) for s in history.stacks)))
    if final is not None and final.finished:
        scores = ", ".join(f"{k} {v}" for k, v in final.scores().items())
        tags.append(("Result", f"{scores}; winner {' '.join(final.winners())}"))
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
        lines.setdefault(turn, []).append(text)
    for turn in sorted(lines):
        out.append(f"{turn}. " + "; ".join(lines[turn]))
    return "\n".join(out) + "\n"
