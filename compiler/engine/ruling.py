"""What the engine answers when asked about a move: a ruling.

A ruling says LEGAL or ILLEGAL, which rules decide it (each with its number,
title and rulebook address), why a move is illegal, and for a legal move
everything that follows from it, each consequence citing its rule.

A list or a dict left out starts empty from a factory, not from a default `[]`: pydantic
deep-copies a default value for every model made without it, and a game makes a ruling
for every move (that copy was more than half the cost of making one).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer


class RuleCitation(BaseModel):
    # Frozen: each rule's citation is made once per ruleset and shared by every ruling.
    model_config = ConfigDict(frozen=True)

    id: str
    number: str
    title: str
    url: str


class Breach(BaseModel):
    """One reason a move is illegal."""

    rule: RuleCitation | None
    code: Literal["notation", "unavailable", "domain", "requirement", "forbidden", "impossible",
                  "game-over", "must-act", "chance"]
    message: str
    detail: str | None = None
    # More specific rules the failing part of the rule lives in (a definition's rule).
    also: list[RuleCitation] = Field(default_factory=list)


class Effect(BaseModel):
    kind: str
    rule: RuleCitation | None
    text: str
    data: dict[str, Any] = Field(default_factory=dict)
    # More specific rules that decided it: the rules of the definitions it used.
    also: list[RuleCitation] = Field(default_factory=list)


class Situation(BaseModel):
    turn: int
    player: str  # the seat that decides now
    step: str
    finished: bool = False
    scores: dict[str, int] = Field(default_factory=dict)
    # In words: the deciding player's name, the step's title, and, when a choice
    # was granted out of turn, whose turn it is.
    player_name: str = ""
    step_title: str = ""
    turn_of: str | None = None
    # A choice everyone taking part makes at once (any of them may choose first): their
    # names, and those still to choose, in seat order; `every_player` when all take part.
    at_once: list[str] = Field(default_factory=list)
    still_to_choose: list[str] = Field(default_factory=list)
    every_player: bool = False

    def said(self) -> str:
        """"turn 9, Blue to play, step “Building”" (or who decides out of turn); during a
        choice made at once, "turn 4, step “Choose”: every player chooses at once (still
        to choose: Red, Green)": nobody is first there."""
        who = self.player_name or self.player
        step = self.step_title or self.step
        if self.at_once:
            whose = f" ({self.turn_of}’s turn)" if self.turn_of else ""
            choosers = "every player chooses" if self.every_player else \
                f"{_listed(self.at_once)} choose" if len(self.at_once) > 1 else \
                f"{self.at_once[0]} chooses"
            still = f" (still to choose: {', '.join(self.still_to_choose)})" \
                if self.still_to_choose else ""
            return f"turn {self.turn}{whose}, step “{step}”: {choosers} at once{still}"
        if self.turn_of:
            return f"turn {self.turn} ({self.turn_of}’s turn), {who} to decide, step “{step}”"
        return f"turn {self.turn}, {who} to play, step “{step}”"


def _listed(names: list[str]) -> str:
    """"Blue and Green", "Red, Blue and Green"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


# LEGAL or ILLEGAL: what the rules say of the move. UNREADABLE: the text is
# not a move at all, so no rule has been asked; the breach says what moves
# look like.
Verdict = Literal["LEGAL", "ILLEGAL", "UNREADABLE"]


class MoveRuling(BaseModel):
    move: str
    verdict: Verdict
    action: str | None = None
    # The rule that declares the action tried: an illegal move is read as
    # "under 5.2 Moving a pawn, ILLEGAL because …".
    action_rule: RuleCitation | None = None
    decided_by: list[RuleCitation] = Field(default_factory=list)
    breaches: list[Breach] = Field(default_factory=list)
    consequences: list[Effect] = Field(default_factory=list)
    # The last outcomes after the move's `!` that were the table's, not the move's:
    # drawn once its turn was over (the deal at the start of the next round). A
    # record writes them as a decision of their own after the move (`! deck:…`).
    table_chance: list[str] = Field(default_factory=list)
    # In a view: the others' hidden values (`blue.offer`) that what followed the move
    # turned on. The view cannot know them, so the consequences stop where the first was
    # read, and say so (engine/views.py); omitted when empty.
    depends_on_unseen: list[str] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _omit_unseen(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out = handler(self)
        if not self.depends_on_unseen:
            out.pop("depends_on_unseen", None)
        return out


class Ruling(BaseModel):
    ruleset: str
    # The seat whose view judged the move (`--as SEAT`); omitted for the full table.
    view: str | None = None
    verdict: Verdict
    moves: list[MoveRuling]
    before: Situation
    after: Situation | None = None
    # The view's seat by name, for the header ("Judged from Red's view").
    view_name: str | None = None

    @model_serializer(mode="wrap")
    def _omit_view(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out = handler(self)
        out.pop("view_name", None)
        if self.view is None:
            out.pop("view", None)
        return out

    def render(self) -> str:
        """The ruling as a judge would read it aloud."""
        lines = []
        if self.view is not None:
            who = self.view_name or self.view
            lines.append(f"Judged from {who}’s view ({self.view}): the rules decide as at "
                         f"the table, but what {who} cannot see is unknown here.")
        lines.append(f"{self.verdict}")
        lines.append(f"  position: {self.before.said()}")
        for mv in self.moves:
            under = (f" (under {mv.action_rule.number} {mv.action_rule.title})"
                     if mv.action_rule and mv.verdict == "ILLEGAL" else "")
            lines.append(f"  move `{mv.move}`{under}: {mv.verdict}")
            for br in mv.breaches:
                where = f"{br.rule.number} {br.rule.title}" if br.rule else br.code
                lines.append(f"    ✗ {where}: {br.message}")
                if br.detail:
                    lines += [f"        {line}" for line in br.detail.splitlines()]
                if br.rule:
                    lines.append(f"        {br.rule.url}")
                for rule in br.also:
                    lines.append(f"        see {rule.number} {rule.title}  {rule.url}")
            if mv.verdict == "LEGAL":
                for rule in mv.decided_by:
                    lines.append(f"    ✓ {rule.number} {rule.title}  {rule.url}")
                for eff in mv.consequences:
                    numbers = [c.number for c in ([eff.rule] if eff.rule else []) + eff.also]
                    cite = f"  [{', '.join(numbers)}]" if numbers else ""
                    lines.append(f"    → {eff.text}{cite}")
        if self.after is None and self.verdict == "LEGAL" and \
                any(mv.depends_on_unseen for mv in self.moves):
            lines.append(f"  then: unknown in {self.view_name or self.view}’s view")
        if self.after is not None:
            a = self.after
            lines.append(f"  then: {'game over' if a.finished else a.said()}")
            lines.append("  scores: " + ", ".join(f"{k} {v}" for k, v in a.scores.items()))
        return "\n".join(lines)
