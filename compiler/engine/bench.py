"""`rulebook bench`: how fast the engine plays, judges and compiles.

Measured on random legal games (seeded, so runs compare, and played the way
`random_play` plays them, chance included): games per second,
the time per decision early and late in a game (late boards are bigger),
the time per decision when the deciding player has many pieces on the board
against when they have one (pieces that multiply over a game should not make
each decision dearer),
the time to adjudicate moves on several full boards (one per game, up to
`BOARDS`), and the time to compile the ruleset from its files. Every time is
CPU time of this process (`time.process_time`), not wall time: another program
on the machine then disturbs the figures less (though it still shares caches).

A baseline of these figures (`.ci/bench_baseline.json`) lets a change that
should not slow the engine be checked against it: `compare` says whether
decisions per second fell by more than a margin. Timings depend on the machine
and on what else runs on it, so a baseline only compares with runs on the
machine that recorded it, and each side takes the best of a few runs (the
least disturbed: interference only ever slows a run down).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from compiler.engine import zones
from compiler.engine.collector import set_apart
from compiler.engine.position import IllegalMove, Position, Rules
from compiler.engine.random_play import RandomPlayStopped
from compiler.engine.state import STACKS, State
from compiler.ir.model import Ruleset
from compiler.load import load_ruleset
from compiler.parse import forget_parsed

MANY_PIECES = 12  # "many pieces": a player with at least this many on the board (see `_scaling`)
MARGIN = 0.07   # how much slower than the baseline a run may be before `compare` fails
COMPARED = "decisions per second"


@dataclass
class Measurement:
    """One bench run: the raw timings, from which the table and the key figures are read."""

    games: int
    players: int
    decisions: int
    elapsed: float
    early: list[float]
    late: list[float]
    judged: list[float]
    compile_time: float
    # Without a stack of tiles to count (a card game), early and late are the first and
    # last quarter of each game's decisions, and the "full board" is the last quarter's.
    by_decisions: bool = False
    boards: int = 1      # how many full boards the adjudication timings come from
    ruleset: str = ""
    # Every decision's time, with how many pieces the deciding player had on the board.
    by_pieces: list[tuple[int, float]] = field(default_factory=list)

    def summary(self) -> Summary:
        """The figures as numbers: what `--json` prints and `--all` makes a row of."""
        early, late = _spread(self.early), _spread(self.late)
        ratio = (round(late.median_ms / early.median_ms, 2)
                 if late.median_ms is not None and early.median_ms else None)
        per_second = 1 / self.elapsed if self.elapsed > 0 else 0.0
        return Summary(ruleset=self.ruleset, games=self.games, players=self.players,
                       decisions=self.decisions, cpu_seconds=round(self.elapsed, 3),
                       games_per_second=round(self.games * per_second, 2),
                       decisions_per_second=round(self.decisions * per_second, 1),
                       stages="decisions" if self.by_decisions else "tiles",
                       early=early, late=late, late_over_early=ratio,
                       adjudication=_spread(self.judged), boards=self.boards if self.judged else 0,
                       pieces=_scaling(self.by_pieces),
                       compile_ms=round(self.compile_time * 1000, 1))

    def report(self) -> dict[str, str]:
        """The table `rulebook bench` prints."""
        s = self.summary()

        def ms(x: Spread) -> str:
            if not x.samples:
                return "n/a"
            return f"median {x.median_ms:.2f} ms, p95 {x.p95_ms:.2f} ms ({x.samples} samples)"

        quarter = "the game" if self.by_decisions else "tiles"
        board = "late boards" if self.by_decisions else "full boards"
        return {
            "games": f"{self.games} random {self.players}-player games, "
                     f"{self.decisions} decisions, {s.cpu_seconds:.2f} s of CPU time",
            "games per second": f"{s.games_per_second:.1f}",
            "decisions per second": f"{s.decisions_per_second:.0f}",
            f"time per decision, early (first quarter of {quarter})": ms(s.early),
            f"time per decision, late (last quarter of {quarter})": ms(s.late),
            "late ÷ early (medians)": "n/a" if s.late_over_early is None
            else f"{s.late_over_early:.2f}",
            "many pieces ÷ few (medians)": pieces_said(s.pieces),
            f"adjudication on {s.boards} {board}": ms(s.adjudication),
            "compile time (parse, check, build tables)": f"{s.compile_ms:.0f} ms",
        }

    def figures(self) -> Figures:
        """The key figures, as numbers, for a baseline."""
        def median_ms(xs: list[float]) -> float | None:
            return round(statistics.median(xs) * 1000, 3) if xs else None

        return Figures(games=self.games, players=self.players, decisions=self.decisions,
                       decisions_per_second=round(self.decisions / self.elapsed, 1),
                       games_per_second=round(self.games / self.elapsed, 2),
                       early_decision_ms=median_ms(self.early),
                       late_decision_ms=median_ms(self.late),
                       adjudication_ms=median_ms(self.judged),
                       many_pieces_over_few=(scaling.many_over_few
                                             if (scaling := _scaling(self.by_pieces)) else None),
                       compile_ms=round(self.compile_time * 1000, 1))


class Figures(BaseModel):
    """The key figures of one ruleset's bench run, as a baseline file keeps them."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    games: int = Field(ge=1)
    players: int = Field(ge=1)
    decisions: int = Field(ge=0)
    decisions_per_second: float = Field(gt=0, alias="decisions per second")
    games_per_second: float = Field(gt=0, alias="games per second")
    early_decision_ms: float | None = Field(None, alias="median ms per decision, early")
    late_decision_ms: float | None = Field(None, alias="median ms per decision, late")
    adjudication_ms: float | None = Field(None, alias="median ms per adjudication, full board")
    many_pieces_over_few: float | None = Field(
        None, alias="median decision with many pieces ÷ with few")
    compile_ms: float = Field(ge=0, alias="compile ms")
    every_run: list[float] = Field([], alias="decisions per second, every run")


class Baseline(BaseModel):
    """`.ci/bench_baseline.json`: figures per ruleset, and where they were measured."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    about: str = ("Key figures of `rulebook bench RULESET`, the best of several runs. Timings "
                  "depend on the machine: compare only with runs on the machine named here.")
    machine: str = ""
    recorded: str = ""
    rulesets: dict[str, Figures] = {}


def best(runs: Sequence[Figures]) -> Figures:
    """The least disturbed of several runs (the most decisions per second), with every run's
    rate kept beside it."""
    top = max(runs, key=lambda f: f.decisions_per_second)
    return top.model_copy(update={"every_run": [f.decisions_per_second for f in runs]})


@dataclass
class Verdict:
    """Whether a new measurement keeps up with the baseline, said in lines of text."""

    slower: bool
    lines: list[str]


def compare(baseline: Figures, now: Figures, margin: float = MARGIN) -> Verdict:
    """Fail when decisions per second fell more than `margin` below the baseline's.

    Only the rate is judged (it covers playing, listing moves and judging them); the
    other figures are shown beside it to help read a failure.
    """
    floor = baseline.decisions_per_second * (1 - margin)
    change = now.decisions_per_second / baseline.decisions_per_second - 1
    slower = now.decisions_per_second < floor
    lines = [f"{COMPARED}: baseline {baseline.decisions_per_second:g}, now "
             f"{now.decisions_per_second:g} ({change:+.1%}); allowed: down to {floor:.1f} "
             f"({margin:.0%} slower than the baseline) -> " + ("TOO SLOW" if slower else "ok")]
    for label, key in (("median ms per decision, early", "early_decision_ms"),
                       ("median ms per decision, late", "late_decision_ms"),
                       ("median ms per adjudication, full board", "adjudication_ms"),
                       ("compile ms", "compile_ms")):
        was, is_ = getattr(baseline, key), getattr(now, key)
        if was is not None and is_ is not None:
            lines.append(f"{label}: baseline {was:g}, now {is_:g} (shown, not judged)")
    if (now.games, now.players) != (baseline.games, baseline.players):
        lines.append(f"note: the baseline played {baseline.games} {baseline.players}-player "
                     f"games, this run {now.games} {now.players}-player games; the rates do not "
                     f"compare like for like")
    elif now.decisions != baseline.decisions:
        lines.append(f"note: the same seeded games took {baseline.decisions} decisions in the "
                     f"baseline and {now.decisions} now: the engine plays differently, so the "
                     f"rates do not compare like for like")
    return Verdict(slower, lines)


def _spread(xs: list[float]) -> Spread:
    """Median and 95th percentile of some timings (seconds), in milliseconds."""
    if not xs:
        return Spread(samples=0)
    ordered = sorted(xs)
    return Spread(median_ms=round(statistics.median(ordered) * 1000, 3),
                  p95_ms=round(ordered[min(len(ordered) - 1, int(len(ordered) * .95))] * 1000, 3),
                  samples=len(ordered))


class Spread(BaseModel):
    """How long one kind of step took: the median and the 95th percentile, in CPU ms."""

    model_config = ConfigDict(extra="forbid")
    median_ms: float | None = None
    p95_ms: float | None = None
    samples: int = Field(0, ge=0)


class PieceScaling(BaseModel):
    """How the time per decision grows with the deciding player's pieces on the board: the
    decisions taken with the fewest pieces seen (one, where a player ever had just one) against
    those taken with many (`MANY_PIECES` or more, or the most seen if nobody got that far)."""

    model_config = ConfigDict(extra="forbid")
    few_pieces: int = Field(ge=1, description="the fewest pieces a deciding player had (≥ 1)")
    many_pieces: int = Field(ge=2, description="at least this many pieces: the 'many' decisions")
    few: Spread
    many: Spread
    many_over_few: float = Field(description="median with many pieces ÷ median with few")


def _scaling(samples: list[tuple[int, float]]) -> PieceScaling | None:
    """`PieceScaling` from (pieces of the deciding player, seconds) per decision; None when no
    player ever had more than one piece count to compare (no pieces, or they never multiply)."""
    counts = {c for c, _ in samples if c >= 1}
    if not counts:
        return None
    few, most = min(counts), max(counts)
    many = min(MANY_PIECES, most)
    if many <= few:
        return None
    low = _spread([t for c, t in samples if c == few])
    high = _spread([t for c, t in samples if c >= many])
    if not low.median_ms:
        return None
    return PieceScaling(few_pieces=few, many_pieces=many, few=low, many=high,
                        many_over_few=round((high.median_ms or 0) / low.median_ms, 2))


def pieces_said(p: PieceScaling | None) -> str:
    """The many-pieces figure in a line of the table ("—" without pieces that multiply)."""
    if p is None:
        return "— (no player's pieces on the board multiply)"
    def said(n: int) -> str:
        return f"{n} piece{'s' * (n != 1)}"
    return (f"{p.many_over_few:.2f} ({said(p.many_pieces)} or more: median {p.many.median_ms:.2f} "
            f"ms, {p.many.samples} decisions; {said(p.few_pieces)}: median "
            f"{p.few.median_ms:.2f} ms, {p.few.samples} decisions)")


class Summary(BaseModel):
    """One ruleset's bench run as `rulebook bench --json` gives it, and one row of `--all`.

    Every time is CPU time of this process (`time.process_time`), not wall time, so another
    program sharing the machine disturbs it less.
    """

    model_config = ConfigDict(extra="forbid")
    ruleset: str
    games: int = Field(ge=1)
    players: int = Field(ge=1)
    decisions: int = Field(ge=0)
    cpu_seconds: float = Field(ge=0, description="CPU time spent playing the games")
    games_per_second: float = Field(ge=0)
    decisions_per_second: float = Field(ge=0)
    stages: str = Field(description="what early and late mean: 'tiles' (the first and last "
                                    "quarter of the stack placed) or 'decisions' (the first and "
                                    "last quarter of each game's decisions)")
    early: Spread
    late: Spread
    late_over_early: float | None = Field(None, description="late median ÷ early median")
    adjudication: Spread = Field(description="judging moves written as text, legal and not, "
                                             "on full (or late) boards")
    boards: int = Field(ge=0, description="how many full boards the adjudication ran on")
    pieces: PieceScaling | None = Field(
        None, description="time per decision with many pieces of the deciding player on the "
                          "board against with few; null where no player's pieces multiply")
    compile_ms: float = Field(ge=0)


class Benchmarks(BaseModel):
    """`rulebook bench --all --json`: every ruleset's figures, and the machine they were taken on."""

    model_config = ConfigDict(extra="forbid")
    machine: str
    games_each: int = Field(ge=1)
    rulesets: list[Summary]


ALL_GAMES = 8   # games per ruleset for `--all` by default: every ruleset in a minute or two


def fit_players(low: int, high: int, asked: int | None) -> int:
    """The player count asked for (4 if none), or the nearest one a ruleset allows."""
    return max(low, min(4 if asked is None else asked, high))


BOARDS = 8      # full boards adjudication is measured on, spread over the games played
JUDGED = 12     # legal moves judged on each of them (plus a few illegal ones)


def _judge(boards: list[Position]) -> list[float]:
    """CPU time to adjudicate moves on each board: some legal, some aimed off the board, a pass."""
    if len(boards) > BOARDS:  # an even spread over the games, first and last included
        step = (len(boards) - 1) / (BOARDS - 1)
        boards = [boards[round(i * step)] for i in range(BOARDS)]
    judged: list[float] = []
    for board in boards:
        candidates = [board.notation(m) for m in board.legal_moves()][:JUDGED]
        candidates += [c.replace(",", "9,", 1) for c in candidates[:3]] + ["pass"]
        for text in candidates:
            t = time.process_time()
            board.adjudicate(text)
            judged.append(time.process_time() - t)
    return judged


def measure(name: str, games: int = 30, players: int | None = 4) -> Measurement:
    """Play `games` seeded random games and time them; every time is CPU time (process time).

    `players` outside what the ruleset allows (or None) becomes the nearest count it allows,
    so one count can be asked of every ruleset (`--all`).
    """
    forget_parsed()  # the whole compile, as a new process does it (not from files parsed before)
    t0 = time.process_time()
    ruleset = load_ruleset(name)
    rules = Rules(ruleset)
    compile_time = time.process_time() - t0
    players = fit_players(ruleset.players_min, ruleset.players_max, players)
    with set_apart():  # the ruleset, alive all along, is walked by no collection meanwhile
        return _played(ruleset, rules, games, players, compile_time)


def _played(ruleset: Ruleset, rules: Rules, games: int, players: int, compile_time: float
            ) -> Measurement:
    """`measure`'s games and judging, with the ruleset compiled."""
    early: list[float] = []
    late: list[float] = []
    by_pieces: list[tuple[int, float]] = []
    boards: list[Position] = []
    t0 = time.process_time()
    decisions = 0
    total = 0
    for g in range(games):
        # The same driver as random play: chance (a die, a draw) is decided by the
        # seeded generator through `play`, as `rulebook play` does.
        rng = random.Random(g)
        pos, _ = Position.set_up(rules, players, seed=g, sampler=rng)
        total = zones.size(pos.state, STACKS)
        timeline: list[tuple[float, Position]] = []
        full_board: Position | None = None
        while not pos.finished:
            held = _held(pos.state)
            t = time.process_time()
            moves = pos.listed_moves()  # as random play lists them
            if not moves:
                raise RandomPlayStopped(f"no legal move and the game is not over (game {g + 1}, "
                                        f"turn {pos.state.turn.number})")
            try:
                pos = pos.perform(rng.choice(moves), chance=rng).after  # no ruling written
            except IllegalMove as e:  # listed as legal, yet the rules cannot carry it out
                why = "; ".join(b.message for m in e.ruling.moves for b in m.breaches)
                raise RandomPlayStopped(f"game {g + 1} stopped at turn "
                                        f"{pos.state.turn.number}: {why}") from None
            spent = time.process_time() - t
            decisions += 1
            by_pieces.append((held, spent))
            if not total:
                timeline.append((spent, pos))
                continue
            placed = len(pos.state.board)
            (early if placed <= total // 4 else late if placed >= 3 * total // 4 else []).append(
                spent)
            if not pos.finished and placed >= total - players:
                full_board = pos
        if timeline:  # no tiles to count: quarters of the game's own decisions
            quarter = len(timeline) // 4
            early += [t for t, _ in timeline[:quarter]]
            late += [t for t, _ in timeline[len(timeline) - quarter:]]
            full_board = next((p for _, p in reversed(timeline[:len(timeline) - quarter])
                               if not p.finished), full_board)
        if full_board is not None:
            boards.append(full_board)
    elapsed = time.process_time() - t0
    judged = _judge(boards)
    return Measurement(games, players, decisions, elapsed, early, late, judged, compile_time,
                       by_decisions=not total, boards=min(len(boards), BOARDS), ruleset=ruleset.id,
                       by_pieces=by_pieces)


def _held(st: State) -> int:
    """How many pieces the player deciding now has on the board."""
    who = st.turn.actor
    return sum(1 for p in st.pieces.values() if p.owner == who)
