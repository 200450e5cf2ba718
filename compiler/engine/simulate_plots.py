"""Plots of a simulation (`rulebook simulate --out DIR`): PNG files a variant's "What
changes" page can include. Kept apart from simulate.py so that matplotlib, slow to import,
is imported only when plots are asked for; the Agg backend draws without a display.

Every plot is drawn from the summary alone (its `games_played` rows), so the figures can be
drawn again from a summary.json.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import MaxNLocator  # noqa: E402

from compiler.engine.simulate import RulesetFigures, SimulationSummary, margin  # noqa: E402

COLOURS = ("#1f77b4", "#ff7f0e")   # the variant, the base
DPI = 110


def plot(summary: SimulationSummary, folder: Path) -> list[Path]:
    """Draw every plot into `folder`; the files written."""
    sides = [summary.variant] + ([summary.base] if summary.base is not None else [])
    drawn = [_win_rates(summary, sides, folder / "win_rates.png"),
             _scores(summary, sides, folder / "scores.png"),
             _lengths(summary, sides, folder / "lengths.png")]
    return drawn


def _label(side: RulesetFigures) -> str:
    return side.ruleset


def _title(summary: SimulationSummary, what: str) -> str:
    return (f"{what}: {summary.games} {summary.policy} {summary.players}-player games "
            f"per ruleset")


def _win_rates(summary: SimulationSummary, sides: list[RulesetFigures], path: Path) -> Path:
    """Win rate per seat with 95 % intervals, the rulesets side by side, a line at a fair share."""
    fig, ax = plt.subplots(figsize=(6.4, 4), dpi=DPI)
    width = 0.8 / len(sides)
    seats = [s.id for s in sides[0].seats]
    for k, side in enumerate(sides):
        xs = [i + (k - (len(sides) - 1) / 2) * width for i in range(len(side.seats))]
        rates = [s.win_rate.estimate for s in side.seats]
        below = [s.win_rate.estimate - s.win_rate.low for s in side.seats]
        above = [s.win_rate.high - s.win_rate.estimate for s in side.seats]
        ax.bar(xs, rates, width, yerr=[below, above], capsize=4, color=COLOURS[k],
               label=_label(side))
    ax.axhline(1 / summary.players, color="grey", linestyle="--", linewidth=1,
               label="an even share")
    ax.set_xticks(range(len(seats)), [f"seat {i + 1}\n{s}" for i, s in enumerate(seats)])
    ax.set_ylabel("win rate (ties shared), 95 % interval")
    ax.set_ylim(0, 1)
    ax.set_title(_title(summary, "Wins by seat"), fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    return _save(fig, path)


def _scores(summary: SimulationSummary, sides: list[RulesetFigures], path: Path) -> Path:
    """Each seat's final scores as histograms, the rulesets overlaid on the same bins."""
    players = summary.players
    cols = min(players, 3)
    rows = -(-players // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, 2.8 * rows), dpi=DPI,
                             squeeze=False, sharex=True)
    every = [g.scores[i] for side in sides for g in side.games_played for i in range(players)]
    bins = _bins(every)
    for i in range(rows * cols):
        ax = axes[i // cols][i % cols]
        if i >= players:
            ax.set_visible(False)
            continue
        for k, side in enumerate(sides):
            ax.hist([g.scores[i] for g in side.games_played], bins=bins, alpha=0.55,
                    color=COLOURS[k], label=_label(side))
        ax.set_title(f"seat {i + 1} ({sides[0].seats[i].id})", fontsize=9)
        ax.set_xlabel("final score", fontsize=8)
        ax.set_ylabel("games", fontsize=8)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0][0].legend(fontsize=7, loc="upper right")
    fig.suptitle(_title(summary, "Scores"), fontsize=10)
    return _save(fig, path)


def _lengths(summary: SimulationSummary, sides: list[RulesetFigures], path: Path) -> Path:
    """Game length in decisions, and the winner's margin, the rulesets overlaid."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.2), dpi=DPI)
    for ax, what, read in ((left, "decisions per game", lambda g: g.decisions),
                           (right, "winner's lead over the next score",
                            lambda g: margin(g.scores))):
        bins = _bins([read(g) for side in sides for g in side.games_played])
        for k, side in enumerate(sides):
            ax.hist([read(g) for g in side.games_played], bins=bins, alpha=0.55,
                    color=COLOURS[k], label=_label(side))
        ax.set_xlabel(what, fontsize=8)
        ax.set_ylabel("games", fontsize=8)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    left.legend(fontsize=7, loc="upper right")
    fig.suptitle(_title(summary, "Length and margin"), fontsize=10)
    return _save(fig, path)


def _bins(values: list[int]) -> list[float]:
    """Shared bins for the overlaid histograms: one per integer value while there are few,
    else about 30."""
    if not values:
        return [0.0, 1.0]
    low, high = min(values), max(values)
    step = max(1, -(-(high - low + 1) // 30))
    return [low - 0.5 + step * i for i in range((high - low) // step + 2)]


def _save(fig: plt.Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
