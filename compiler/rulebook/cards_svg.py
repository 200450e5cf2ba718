"""SVG pictures of printed cards, laid out by the ruleset's `look card KIND { … }`.

Nothing here knows what a game's cards show. The ruleset says where each
property goes and with which icon, which badges are printed under the title,
which feature darkens the text box and which features are marked by a shape;
the colours come from the ordinary `look` declarations of features and
resources. Without a `look card` for its kind a card is still drawn: its
title, its text and its properties listed.

The picture is a 63 × 88 card (viewBox 0 0 126 176) with rounded corners: a
band coloured by the card's first feature that has a look, the title (wrapped,
shrunk to fit), the four corners, badges, the text in a light or dark box,
marks at the bottom. Output is deterministic: the same card draws the same
bytes, ids derived from its content (as `svg.py` does).
"""

from __future__ import annotations

import html
from compiler.engine.cards import CardInfo
from compiler.engine.evaluate import Env
from compiler.engine.game import Game
from compiler.engine.state import State
from compiler.ir import cards as c
from compiler.rulebook.svg import ICON_SHAPES, OUTLINE, _finish, _fmt, icon

WIDTH, HEIGHT = 126.0, 176.0
PAPER = "#f4efe3"
INK = "#1d1f24"
NEUTRAL_BAND = "#6b7280"
DARK_BOX = "#2b2f3a"
LIGHT_BOX = "#fffaf0"
CORNERS = {"top_left": (14.0, 14.0), "top_right": (112.0, 14.0),
           "bottom_left": (14.0, 162.0), "bottom_right": (112.0, 162.0)}


def _wrap(text: str, width: float, size: float) -> list[str]:
    """Words into lines no wider than `width`, at about 0.55 em a letter."""
    most = max(int(width / (size * 0.55)), 1)
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            if line and len(line) + 1 + len(word) > most:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        lines.append(line)
    return [x for x in lines if x] or [""]


def _text(x: float, y: float, text: str, size: float, fill: str, *, anchor: str = "middle",
          weight: str = "normal") -> str:
    return (f'<text x="{_fmt(x)}" y="{_fmt(y)}" font-size="{_fmt(size)}" '
            f'text-anchor="{anchor}" dominant-baseline="middle" fill="{fill}" '
            f'font-weight="{weight}" font-family="sans-serif">{html.escape(text)}</text>')


class CardDrawing:
    """One card's picture: what its kind's look asks for, from what the card prints."""

    def __init__(self, game: Game, info: CardInfo) -> None:
        self.game = game
        self.info = info
        looks = [d for d in game.decls if isinstance(d, c.CardLook) and d.kind in info.kinds]
        # Its own kind's look first, then the look of a kind it counts as.
        look = next((d for d in looks if d.kind == info.kind), looks[0] if looks else None)
        self.slots: list[c.CardSlot] = list(look.slots) if look is not None else []

    def colour(self, name: str, default: str) -> str:
        found = self.game.looks.get(name)
        return found[1] if found else default

    def _holds(self, slot: c.CardSlot) -> bool:
        if slot.when is None:
            return True
        env = Env(self.game, State(max(self.game.ruleset.players_min, 1)))
        env.vars = {"it": self.info.id}
        return bool(self.game.expr(slot.when)(env))

    def band(self) -> str:
        colour = NEUTRAL_BAND
        if any(s.slot == "band" for s in self.slots):
            looks = self.game.looks
            coloured = [f for f in self.info.printed_with if f in looks]
            plain = [f for f in coloured if looks[f][0] in ("color", "fill", "band")]
            colour = looks[(plain or coloured)[0]][1] if coloured else NEUTRAL_BAND
        return (f'<path d="M6,0H120A6,6 0 0 1 126,6V30H0V6A6,6 0 0 1 6,0Z" '
                f'fill="{colour}"/>')

    def title(self) -> list[str]:
        # Between the top corners: one line, shrunk to fit; else two lines, smaller.
        title = self.info.title
        size, lines = 13.0, [title]
        while size > 9 and len(title) * size * 0.55 > 66:
            size -= 0.5
        if len(title) * size * 0.55 > 66:
            size, lines = 9.0, _wrap(title, 66, 9.0)
            while size > 6 and (len(lines) > 2 or max(map(len, lines)) * size * 0.55 > 66):
                size -= 0.5
                lines = _wrap(title, 66, size)
        y0 = 15 - (len(lines) - 1) * size * 0.55
        return [_text(63, y0 + i * size * 1.1, line, size, "#fff", weight="bold")
                for i, line in enumerate(lines)]

    def corners(self) -> list[str]:
        out = []
        used: dict[str, int] = {}
        for slot in self.slots:
            if slot.slot != "corner" or slot.corner not in CORNERS or not self._holds(slot):
                continue
            value = self.info.props.get(slot.name)
            x, y = CORNERS[slot.corner]
            # A second number in the same corner goes under (or above) the first.
            nth = used[slot.corner] = used.get(slot.corner, -1) + 1
            y += nth * 32 * (1 if slot.corner.startswith("top") else -1)
            out.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="10" fill="{PAPER}" '
                       f'stroke="{OUTLINE}" stroke-width="1"/>')
            if slot.icon is not None:
                shape, colour = self.game.looks.get(slot.icon, ("circle", "#999999"))
                shape = shape if shape in ICON_SHAPES else "circle"
                dy = 15 if slot.corner.startswith("top") else -15
                out.append(icon(shape, (x, y + dy), 4.5, colour, OUTLINE, width=0.8))
            out.append(_text(x, y + 0.5, str(value), 11, INK, weight="bold"))
        return out

    def badges(self) -> list[str]:
        out = []
        y = 42.0
        for slot in self.slots:
            value = self.info.props.get(slot.name)
            if slot.slot != "badge" or not value:
                continue
            out.append(_text(63, y, slot.text.replace("{value}", str(value)), 8, INK,
                             weight="bold"))
            y += 10
        return out

    def text_box(self) -> list[str]:
        dark = any(s.slot == "dark" and s.name in self.info.features for s in self.slots)
        fill, ink = (DARK_BOX, "#f4f4f4") if dark else (LIGHT_BOX, INK)
        out = [f'<rect x="10" y="62" width="106" height="76" rx="4" fill="{fill}" '
               f'stroke="{OUTLINE}" stroke-width="0.6"/>']
        text = self.info_text()
        size = 8.0
        lines = _wrap(text, 98, size)
        while len(lines) > 7 and size > 5:
            size -= 0.5
            lines = _wrap(text, 98, size)
        for i, line in enumerate(lines[:9]):
            out.append(_text(14, 70 + i * size * 1.2, line, size, ink, anchor="start"))
        return out

    def info_text(self) -> str:
        """The card's own words; without them (or a look), what it prints, listed."""
        if self.info.text:
            return self.info.text
        shown = {s.name for s in self.slots if s.slot in ("corner", "badge")}
        return ", ".join(f"{k} {v}" for k, v in self.info.props.items()
                         if k not in shown and v not in (0, False, ""))

    def marks(self) -> list[str]:
        out = []
        x = 63.0
        for slot in self.slots:
            if slot.slot == "mark" and slot.name in self.info.features:
                colour = self.colour(slot.name, "#f2c14e")
                out.append(icon(slot.icon or "star", (x, 160), 6, colour, OUTLINE, width=0.8))
                x += 15
        return out

    def svg(self, width: float) -> str:
        body = [f'<rect x="0.5" y="0.5" width="125" height="175" rx="6" fill="{PAPER}" '
                f'stroke="{OUTLINE}" stroke-width="1"/>', self.band(), *self.title(),
                *self.badges(), *self.text_box(), *self.corners(), *self.marks()]
        return _finish(['<g class="card">', *body, "</g>"], (0, 0, WIDTH, HEIGHT), width,
                       f"Card {self.info.number} {self.info.title}", "card-svg")


def card_svg(game: Game, card_id: str, size: float = 126) -> str:
    """The printed card `card_id`, `size` wide, as its kind's `look card` lays it out."""
    return CardDrawing(game, game.cards.cards[card_id]).svg(size)



def card_back_svg(size: float = 126) -> str:
    """A card lying face down, `size` wide: its back, the same for every card (that is what
    face down means), dark with the outline of a card."""
    body = [f'<rect x="0.5" y="0.5" width="{_fmt(WIDTH - 1)}" height="{_fmt(HEIGHT - 1)}" rx="6" '
            f'fill="{DARK_BOX}" stroke="{OUTLINE}" stroke-width="1"/>',
            f'<rect x="10" y="10" width="{_fmt(WIDTH - 20)}" height="{_fmt(HEIGHT - 20)}" rx="4" '
            f'fill="none" stroke="{PAPER}" stroke-width="1" stroke-opacity="0.5"/>']
    return _finish(body, (0, 0, WIDTH, HEIGHT), size, "A card face down", "card-svg")
