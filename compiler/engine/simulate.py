"""`rulebook simulate`: many seeded games of a ruleset (and of a base to compare with), in
figures a variant author can read: does the house rule change who wins, by how much, how
long a game lasts, what players do?

Every game is named by its seed (game i of a run plays seed S+i), and chance goes through
the seeded generator exactly as random play does (`random_play.random_game` plays the
random policy's games itself), so a game is the same whichever process, core or Ray node
plays it. Results are gathered by seed, never by the order games finish in: the summary
is the same for one worker, several, or a cluster.

Policies are small and pluggable (`Policy`): one picks a move from the legal moves the
mover can see. `random` is uniform over them; `greedy` plays each in the mover's view and
keeps the one leaving the mover furthest ahead of the best opponent (ties broken by the
seeded generator); `greedy-random` plays a uniform move a quarter of the time, else the
greedy one. All use only the engine's general interface (legal moves, play, scores),
never anything of one game.

Every game also counts the moves each rule applied in (`RulesApplied`, watching random
play's loop): from what each move carried out already holds, without writing rulings.

The figures (`summarise`, `compare`) are plain statistics: Wilson intervals for win rates
(a tie shares the win: each of k winners counts 1/k). A ruleset and its base play the
same seeds, so a difference is paired by seed: the mean of the per-seed differences with
a normal interval from their standard deviation (what the seed shares, the shuffle and
the early draws, cancels out). Games not paired fall back to Newcombe's interval for a
difference of two rates and a normal (Welch) one for a difference of two means.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from compiler.engine.collector import set_apart
from compiler.engine.notation import Move
from compiler.engine.performed import Performed
from compiler.engine.position import IllegalMove, Position, Rules
from compiler.engine.random_play import RandomPlayStopped, random_game

Z95 = 1.959963984540054   # the normal quantile of a two-sided 95 % interval
MAX_DECISIONS = 10_000    # a game longer than this is stuck (as in random play)


# ----------------------------------------------------------------------------- policies


class Policy(Protocol):
    """How a simulated player chooses: from the moves the mover can see, with the game's
    seeded generator (the only source of randomness, so a seed names a game)."""

    name: str

    def choose(self, pos: Position, moves: Sequence[Move], rng: random.Random) -> Move: ...


class RandomPolicy:
    """Uniform over the legal moves; its games are `random_game`'s, record for record."""

    name = "random"

    def choose(self, pos: Position, moves: Sequence[Move], rng: random.Random) -> Move:
        return rng.choice(moves)


class GreedyPolicy:
    """The move that leaves the mover furthest ahead of the best opponent right after it
    (with one player: the highest score). Each candidate is played in the mover's view, so
    the policy never peeks at hidden cards; chance inside a candidate is drawn from a
    generator seeded by the game's, so looking ahead never changes what the table draws
    except through the move chosen."""

    name = "greedy"

    def choose(self, pos: Position, moves: Sequence[Move], rng: random.Random) -> Move:
        seat = pos.game.seat_id(pos.active)
        look = rng.getrandbits(64)
        best: list[Move] = []
        top = -math.inf
        for move in moves:
            try:  # no ruling is written: only the scores after it count
                after = pos.perform(move, chance=random.Random(look)).after
            except IllegalMove:
                continue  # listed, yet not playable here: never the best
            value = _lead(after.scores(), seat)
            if value > top:
                top, best = value, [move]
            elif value == top:
                best.append(move)
        return rng.choice(best or moves)


def _lead(scores: dict[str, int], seat: str) -> float:
    """The seat's score minus the best other seat's (its score alone if it plays alone)."""
    others = [v for k, v in scores.items() if k != seat]
    return scores[seat] - (max(others) if others else 0)


class GreedyRandomPolicy:
    """Greedy most of the time, a uniform move now and then (ε-greedy, ε = 1/4). Greedy
    alone never takes a move that pays later (where a move pays points at once, it takes
    that move every time); the random quarter of the moves reach the rest of the game, and
    the greedy ones still take what is plainly best now. Still seeded and game-agnostic."""

    name = "greedy-random"
    epsilon = 0.25

    def choose(self, pos: Position, moves: Sequence[Move], rng: random.Random) -> Move:
        if rng.random() < self.epsilon:
            return rng.choice(moves)
        return GREEDY.choose(pos, moves, rng)


GREEDY = GreedyPolicy()
POLICIES: dict[str, Policy] = {p.name: p for p in (RandomPolicy(), GREEDY,
                                                   GreedyRandomPolicy())}


# ----------------------------------------------------------------------------- one game


@dataclass(frozen=True)
class GameResult:
    """One game, by seed: small and picklable, so a worker or a Ray node sends it back."""

    seed: int
    scores: tuple[int, ...] = ()        # by seat, in playing order
    winners: tuple[int, ...] = ()       # seat indices
    decisions: int = 0
    turns: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    rules: dict[str, int] = field(default_factory=dict)   # rule id: moves it applied in
    stuck: str | None = None            # why the game could not go on, in words


class Stuck(RuntimeError):
    """A simulated game could not go on; the message names its seed."""


def play_game(rules: Rules, players: int, seed: int, policy: Policy) -> GameResult:
    """Play the game named by `seed` with `policy` in every seat (random play's own loop,
    `random_game`, with the policy choosing), counting the rules that applied."""
    applied = RulesApplied()
    try:
        final, history = random_game(
            rules, players, seed, MAX_DECISIONS, observe=applied, player=policy.name,
            choose=None if isinstance(policy, RandomPolicy) else policy.choose)
    except RandomPlayStopped as e:
        return GameResult(seed, stuck=str(e))
    seats = [final.game.seat_id(i) for i in range(players)]
    scores = final.scores()
    actions = Counter(m.action for _, _, m in history.moves)
    return GameResult(seed, tuple(scores[s] for s in seats),
                      tuple(sorted(seats.index(w) for w in final.winners())),
                      sum(actions.values()), final.state.turn.number,
                      dict(sorted(actions.items())), dict(sorted(applied.counts.items())))


class RulesApplied:
    """Counts, over a game, the moves in which each rule applied, from what a move carried
    out already holds (its ruling is never written for this): a rule applied in a move if
    one of the move's consequences cites it (as its rule, or as a definition that decided
    it) or if it took effect without a consequence of its own. A rule counts once a move
    however many consequences cite it, so a rule that now pays in two parts (points, then
    a marker) is not counted twice. The rules that allowed the move (its action's, its
    step's) are not counted: the moves per action say as much."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def __call__(self, done: Performed) -> None:
        applied = set(done.decided)
        for c in done.log:
            if c.rule is not None:
                applied.add(c.rule)
            applied.update(c.also)
        self.counts.update(applied)


# ------------------------------------------------------------------- running many games


@dataclass(frozen=True)
class Task:
    """What a worker needs to play one game: names only, so it pickles in a few bytes."""

    ruleset: str       # a ruleset name or folder, loaded once per worker
    players: int
    seed: int
    policy: str


_LOADED: dict[str, Rules] = {}   # per process: a ruleset compiles once, then serves every game


def rules_for(name: str) -> Rules:
    """The ruleset `name`, compiled once per process (a forked worker inherits the parent's)."""
    if name not in _LOADED:
        from compiler.load import load_ruleset
        _LOADED[name] = Rules(load_ruleset(name))
    return _LOADED[name]


def keep(name: str, rules: Rules) -> None:
    """Serve `name` with rules already compiled (by the command line, which checks the name
    first): forked workers then inherit them instead of compiling again."""
    _LOADED[name] = rules


def preload(names: tuple[str, ...]) -> None:
    """A worker's initialiser: compile the rulesets before the first game arrives."""
    for name in names:
        rules_for(name)


def run_task(task: Task) -> GameResult:
    return play_game(rules_for(task.ruleset), task.players, task.seed, POLICIES[task.policy])


def tasks(rulesets: list[str], players: int, seed: int, games: int, policy: str) -> list[Task]:
    """Every game to play: each ruleset on the same seeds, at the same table."""
    return [Task(r, players, seed + i, policy) for r in rulesets for i in range(games)]


def run_local(todo: list[Task], workers: int, done: Callable[[], None] = lambda: None
              ) -> list[GameResult]:
    """Play the games on this machine's cores (`workers` processes; 1: in this process),
    calling `done` as each finishes. The results come back in the order of `todo`.
    The rulesets loaded so far are set apart from the collector meanwhile (workers
    forked from here inherit that)."""
    with set_apart():
        return _run_local(todo, workers, done)


def _run_local(todo: list[Task], workers: int, done: Callable[[], None]) -> list[GameResult]:
    if workers <= 1 or len(todo) <= 1:
        out = []
        for t in todo:
            out.append(_arrived(run_task(t)))
            done()
        return out
    from concurrent.futures import ProcessPoolExecutor, as_completed
    names = tuple(dict.fromkeys(t.ruleset for t in todo))
    results: dict[int, GameResult] = {}
    with ProcessPoolExecutor(max_workers=min(workers, len(todo)), initializer=preload,
                             initargs=(names,)) as pool:
        futures = {pool.submit(run_task, t): i for i, t in enumerate(todo)}
        try:
            for f in as_completed(futures):
                results[futures[f]] = _arrived(f.result())
                done()
        except BaseException:  # a stuck game, a fault, Ctrl-C: the games not begun never are
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return [results[i] for i in range(len(todo))]


def _arrived(result: GameResult) -> GameResult:
    """A finished game, or `Stuck` at once: a ruleset whose games get stuck would otherwise
    spend the whole run on games that each go on to the last decision allowed."""
    if result.stuck is not None:
        raise Stuck(result.stuck)
    return result


class RayUnavailable(RuntimeError):
    """`--ray` without Ray installed (said with how to install it), or no cluster there."""


def run_ray(todo: list[Task], address: str, done: Callable[[], None] = lambda: None,
            num_cpus: int | None = None) -> list[GameResult]:
    """Play the games on a Ray cluster: `auto` (the one this machine belongs to), `local`
    (one started in this process, for trying it) or a cluster's address. Each Ray worker
    compiles a ruleset once (`rules_for`); results come back in the order of `todo`."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray, which is not installed here: install it with "
                         "`pip install ray` (or, in this project's checkout, "
                         "`pip install -e '.[simulate]'`)") from None
    started = not ray.is_initialized()
    if started:
        import logging
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": logging.ERROR}
        try:
            if address == "local":
                ray.init(num_cpus=num_cpus, **options)
            else:
                ray.init(address=address, **options)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise RayUnavailable(f"cannot reach a Ray cluster at `{address}`: {e}") from None
    try:
        remote = ray.remote(run_task)
        pending = {remote.remote(t): i for i, t in enumerate(todo)}
        results: dict[int, GameResult] = {}
        try:
            while pending:
                # whatever has finished within a moment (one at a time would cost a pass
                # over every pending game for each game)
                ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0.2)
                for ref in ready:
                    results[pending.pop(ref)] = _arrived(ray.get(ref))
                    done()
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise
        return [results[i] for i in range(len(todo))]
    finally:
        if started:
            ray.shutdown()


# ----------------------------------------------------------------------------- figures


class Stats(BaseModel):
    """A distribution in seven numbers (quartiles by the inclusive method)."""

    model_config = ConfigDict(extra="forbid")
    mean: float
    sd: float = Field(description="sample standard deviation (0 for one game)")
    min: float
    q1: float
    median: float
    q3: float
    max: float


class Interval(BaseModel):
    """An estimate with its 95 % confidence interval."""

    model_config = ConfigDict(extra="forbid")
    estimate: float
    low: float
    high: float


class Difference(Interval):
    """Variant minus base, with its 95 % interval; `significant` when it excludes 0."""

    significant: bool
    method: str = Field(description="how the interval was found: `paired` (mean of the "
                                    "per-seed differences, normal interval from their sd), "
                                    "`welch` (two independent means, normal interval) or "
                                    "`newcombe` (two independent proportions)")


class SeatFigures(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=1, description="place in playing order, from 1")
    id: str
    wins: float = Field(ge=0, description="games won; a tie shares the win (1/k to each of k)")
    win_rate: Interval = Field(description="wins ÷ games, Wilson 95 % interval")
    score: Stats


class ActionFigures(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str
    total: int = Field(ge=0, description="times taken in all the games")
    per_game: Stats


class RuleFigures(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rule: str = Field(description="the rule's id")
    number: str | None = Field(description="its number in the rulebook")
    title: str | None
    total: int = Field(ge=0, description="moves it applied in, in all the games: a "
                                         "consequence of the move cites it, or it decided "
                                         "something without a consequence of its own")
    per_game: Stats


class GameRow(BaseModel):
    """One game, for an author's own analysis (and the plots)."""

    model_config = ConfigDict(extra="forbid")
    seed: int
    scores: list[int]
    winners: list[int] = Field(description="seat numbers, from 1")
    decisions: int
    turns: int
    rules: dict[str, int] = Field({}, description="rule id: moves it applied in")


class RulesetFigures(BaseModel):
    """One ruleset's games, summarised."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str
    title: str
    games: int = Field(ge=1)
    shared_wins: int = Field(ge=0, description="games won by more than one seat")
    no_winner: int = Field(ge=0, description="games nobody won")
    seats: list[SeatFigures]
    margin: Stats = Field(description="the winner's lead over the next best score")
    decisions: Stats
    turns: Stats
    actions: list[ActionFigures]
    rules: list[RuleFigures] = Field(description="in how many moves each rule applied, most "
                                                 "first")
    games_played: list[GameRow] = Field([], description="every game (in summary.json only)")


class SeatDifference(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=1)
    win_rate: Difference = Field(description="paired: mean of the per-seed differences of the "
                                             "win indicator (a tie's share); else Newcombe")
    score: Difference = Field(description="paired by seed, else Welch")


class Differences(BaseModel):
    """Variant minus base, each with a 95 % interval and whether it excludes 0."""

    model_config = ConfigDict(extra="forbid")
    paired: bool = Field(description="both rulesets played the same seeds at the same table, "
                                     "so each difference is paired by seed")
    seats: list[SeatDifference]
    margin: Difference
    decisions: Difference
    turns: Difference
    actions: dict[str, Difference] = Field(description="moves of each action per game")
    rules: dict[str, Difference] = Field(description="moves each rule applied in, per game")


ABOUT = ("Seeded games: game i plays seed S+i, the same seeds for the ruleset and the base. "
         "Win rates count a tie as a shared win (each of k winners counts 1/k) and carry "
         "Wilson 95 % intervals. Games on the same seeds are paired: a difference is the "
         "mean of the per-seed differences (of a score, the margin, the length, a seat's win "
         "share, a count) with a normal 95 % interval from their standard deviation. "
         "Unpaired, a difference of win rates carries Newcombe's interval and a difference "
         "of means a normal (Welch) one. `method` says which; `significant` means the "
         "interval excludes 0.")


class SimulationSummary(BaseModel):
    """`rulebook simulate`: what `--json` prints and `--out` writes as summary.json."""

    model_config = ConfigDict(extra="forbid")
    about: str = ABOUT
    games: int = Field(ge=1, description="games per ruleset")
    players: int = Field(ge=1)
    seed: int = Field(description="the first game's seed")
    policy: str
    variant: RulesetFigures
    base: RulesetFigures | None = None
    differences: Differences | None = None


def summary_schema() -> dict[str, Any]:
    """The JSON Schema of summary.json (`rulebook schema simulation`)."""
    schema = SimulationSummary.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Simulation summary"
    return schema


def stats(xs: list[float]) -> Stats:
    if not xs:
        return Stats(mean=0, sd=0, min=0, q1=0, median=0, q3=0, max=0)
    q1, median, q3 = (statistics.quantiles(xs, n=4, method="inclusive") if len(xs) > 1
                      else [xs[0]] * 3)
    return Stats(mean=_r(statistics.fmean(xs)), sd=_r(statistics.stdev(xs) if len(xs) > 1 else 0),
                 min=min(xs), q1=_r(q1), median=_r(median), q3=_r(q3), max=max(xs))


def _r(x: float) -> float:
    return round(x, 4)


def wilson(successes: float, n: int) -> Interval:
    """The Wilson score interval of a proportion (95 %); successes may be fractional."""
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(estimate=_r(p), low=_r(max(0.0, centre - half)),
                    high=_r(min(1.0, centre + half)))


def newcombe(a: Interval, b: Interval) -> Difference:
    """a − b for two independent proportions with Wilson intervals (Newcombe, method 10)."""
    d = a.estimate - b.estimate
    low = d - math.sqrt((a.estimate - a.low) ** 2 + (b.high - b.estimate) ** 2)
    high = d + math.sqrt((a.high - a.estimate) ** 2 + (b.estimate - b.low) ** 2)
    return _difference(d, low, high, "newcombe")


def _var(xs: list[float]) -> float:
    return statistics.variance(xs) if len(xs) > 1 else 0.0


def mean_difference(a: list[float], b: list[float]) -> Difference:
    """The difference of two independent means with a normal (Welch) 95 % interval."""
    d = statistics.fmean(a) - statistics.fmean(b)
    half = Z95 * math.sqrt(_var(a) / len(a) + _var(b) / len(b))
    return _difference(d, d - half, d + half, "welch")


def paired_difference(a: list[float], b: list[float]) -> Difference:
    """The mean of the differences a[i] − b[i] of games paired by seed, with a normal 95 %
    interval from their standard deviation: what the seed shares (the shuffle, the draws
    before play differs) cancels out, so it is narrower than Welch's where that matters."""
    ds = [x - y for x, y in zip(a, b, strict=True)]
    d = statistics.fmean(ds)
    half = Z95 * math.sqrt(_var(ds) / len(ds))
    return _difference(d, d - half, d + half, "paired")


def _difference(d: float, low: float, high: float, method: str) -> Difference:
    low, high = _r(low), _r(high)
    return Difference(estimate=_r(d), low=low, high=high, significant=low > 0 or high < 0,
                      method=method)


def summarise(rules: Rules, players: int, results: list[GameResult], keep_games: bool = False
              ) -> RulesetFigures:
    """One ruleset's games in figures (raises `Stuck` for the first game that stuck)."""
    for r in results:
        if r.stuck is not None:
            raise Stuck(r.stuck)
    n = len(results)
    game = rules.table(players).game
    seats = [game.seat_id(i) for i in range(players)]
    wins = [0.0] * players
    for r in results:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    names = sorted({a for r in results for a in r.actions})
    applied = Counter[str]()
    for r in results:
        applied.update(r.rules)
    rs = rules.ruleset
    return RulesetFigures(
        ruleset=rs.id, title=rs.title or rs.id, games=n,
        shared_wins=sum(len(r.winners) > 1 for r in results),
        no_winner=sum(not r.winners for r in results),
        seats=[SeatFigures(seat=i + 1, id=seats[i], wins=_r(wins[i]), win_rate=wilson(wins[i], n),
                           score=stats([r.scores[i] for r in results]))
               for i in range(players)],
        margin=stats(margins(results)),
        decisions=stats([r.decisions for r in results]),
        turns=stats([r.turns for r in results]),
        actions=[ActionFigures(action=a, total=sum(r.actions.get(a, 0) for r in results),
                               per_game=stats([r.actions.get(a, 0) for r in results]))
                 for a in names],
        rules=[_rule_figures(rules, rid, total, [r.rules.get(rid, 0) for r in results])
               for rid, total in sorted(applied.items(), key=lambda kv: (-kv[1], kv[0]))],
        games_played=[GameRow(seed=r.seed, scores=list(r.scores),
                              winners=[w + 1 for w in r.winners], decisions=r.decisions,
                              turns=r.turns, rules=r.rules) for r in results]
        if keep_games else [])


def _rule_figures(rules: Rules, rid: str, total: int, per_game: list[float]) -> RuleFigures:
    """A rule's counts, named as rulings cite it (its number and title in the rulebook)."""
    cited = rules.cite(rid)
    return RuleFigures(rule=rid, number=cited.number if cited else None,
                       title=cited.title if cited else None, total=total,
                       per_game=stats(per_game))


def win_shares(results: list[GameResult], seat: int) -> list[float]:
    """The seat's share of each game's win: 1, 1/k in a k-way tie, else 0."""
    return [1 / len(r.winners) if seat in r.winners else 0.0 for r in results]


def margin(scores: Sequence[int]) -> int:
    """A game's winning margin: the top score minus the next (0 when tied at the top)."""
    top = sorted(scores, reverse=True)
    return top[0] - top[1] if len(top) > 1 else 0


def margins(results: list[GameResult]) -> list[float]:
    return [margin(r.scores) for r in results]


def compare(variant: RulesetFigures, base: RulesetFigures, ours: list[GameResult],
            theirs: list[GameResult]) -> Differences:
    """Variant minus base on every figure both have (seats by place in playing order):
    paired by seed when both played the same seeds at the same table, else as two
    independent samples."""
    paired = ([r.seed for r in ours] == [r.seed for r in theirs]
              and len(variant.seats) == len(base.seats))
    means = paired_difference if paired else mean_difference

    def diff(figure: Callable[[GameResult], float]) -> Difference:
        return means([figure(r) for r in ours], [figure(r) for r in theirs])

    names = sorted({a for r in ours + theirs for a in r.actions})
    applied = sorted({k for r in ours + theirs for k in r.rules})
    return Differences(
        paired=paired,
        seats=[SeatDifference(
            seat=a.seat,
            win_rate=paired_difference(win_shares(ours, i), win_shares(theirs, i)) if paired
            else newcombe(a.win_rate, b.win_rate),
            score=diff(lambda r, i=i: r.scores[i]))  # type: ignore[misc]
            for i, (a, b) in enumerate(zip(variant.seats, base.seats))],
        margin=diff(lambda r: margin(r.scores)),
        decisions=diff(lambda r: r.decisions),
        turns=diff(lambda r: r.turns),
        actions={a: diff(lambda r, a=a: r.actions.get(a, 0))  # type: ignore[misc]
                 for a in names},
        rules={k: diff(lambda r, k=k: r.rules.get(k, 0))  # type: ignore[misc]
               for k in applied})


def simulate(variant: str, base: str | None, players: int, games: int, seed: int = 1,
             policy: str = "random", run: Callable[[list[Task]], list[GameResult]] | None = None,
             keep_games: bool = False) -> SimulationSummary:
    """Play and summarise: `games` seeded games of `variant` (and of `base`, same seeds).
    `run` plays a list of tasks (default: in this process, one after the other)."""
    names = [variant] + ([base] if base is not None else [])
    todo = tasks(names, players, seed, games, policy)
    results = (run or (lambda t: run_local(t, 1)))(todo)
    ours, theirs = results[:games], results[games:]
    mine = summarise(rules_for(variant), players, ours, keep_games)
    if base is None:
        return SimulationSummary(games=games, players=players, seed=seed, policy=policy,
                                 variant=mine)
    other = summarise(rules_for(base), players, theirs, keep_games)
    return SimulationSummary(games=games, players=players, seed=seed, policy=policy,
                             variant=mine, base=other,
                             differences=compare(mine, other, ours, theirs))


def write(summary: SimulationSummary, folder: Path) -> list[Path]:
    """summary.json, its schema and the plots, into `folder`; the files written."""
    import json

    from compiler.engine.simulate_plots import plot
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "summary.json", folder / "summary.schema.json"]
    written[0].write_text(summary.model_dump_json(indent=2) + "\n", encoding="utf-8")
    written[1].write_text(json.dumps(summary_schema(), indent=2) + "\n", encoding="utf-8")
    return written + plot(summary, folder)
