"""A ruleset's whole rulebook on one page, and the same pages as a PDF.

A group that wants paper, or a judge at a table with no signal, reads the
rules as the chapter pages give them, in order, without the engine's boxes,
the worked examples or the file formats: the chapters, then the rulings, then
the glossary. Both readings are written from one Markdown text (`body`), so
the page and the PDF cannot say different things.

The PDF is made in pure Python (fpdf2, from the page's HTML), with the
DejaVu fonts that matplotlib already ships, so `rulebook build` needs nothing
but the Python packages it installs.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from functools import cache
from pathlib import Path

import markdown

from compiler import links as urls
from compiler.ir import model as m
from compiler.load import REPO_ROOT
from compiler.ir.prose import GENERATED_PAGES
from compiler.rulebook.formal import capital
from compiler.rulebook.links import Index, example_anchor

PAGE = "print.md"


class OnePageIndex(Index):
    """Links that stay on the one page: every chapter, rule, ruling and term is on it, and
    the rulings and the glossary are its last two sections (`#rulings`, `#glossary`).

    Worked examples and card pages are not, so links to them lead to the chapter and
    card pages as usual."""

    def page_of(self, name: str) -> str:
        held = {"rulings": self.ruleset.rulings, "glossary": self.ruleset.terms}
        return "" if held.get(name) else super().page_of(name)

    def page_of_rule(self, rule_id: str) -> str:
        return super().page_of_rule(rule_id) if rule_id in self.card_pages else ""

    # Rules, rulings and terms share the one page, and a term may have a rule's id.
    def ruling_anchor(self, ruling_id: str) -> str:
        return "ruling-" + urls.anchor(ruling_id)

    def term_anchor(self, term_id: str) -> str:
        return "term-" + urls.anchor(term_id)

    def example_target(self, ex_id: str) -> str:
        home = self.example_home.get(ex_id)
        page = Index.page_of_rule(self, home) if home else self.page_of("examples")
        return f"{page}#{example_anchor(ex_id)}"

    def chapter_link(self, chapter_id: str, label: str | None = None) -> str:
        ch = self.chapters[chapter_id]
        return f"[{label or ch.number + '. ' + ch.title}](#{_chapter_anchor(chapter_id)})"

    def link(self, kind: str, target: str, label: str | None) -> str:
        if kind == "page" and not self.page_of(target):  # a section of the one page
            return f"[{label or GENERATED_PAGES[target]}](#{target})"
        return super().link(kind, target, label)


def _chapter_anchor(chapter_id: str) -> str:
    return "chapter-" + urls.anchor(chapter_id)


def pdf_name(ruleset_id: str) -> str:
    """The PDF's file name beside the print page: it says which book it is when downloaded."""
    return f"{urls.slug(ruleset_id)}.pdf"


def body(rs: m.Ruleset, heading: int = 2) -> list[str]:
    """The rules, rulings and glossary of `rs` in Markdown, its chapters at level `heading`."""
    ix = OnePageIndex.of(rs)
    lines: list[str] = []

    def rule(r: m.Rule, depth: int) -> None:
        hashes = "#" * min(depth, 6)
        lines.extend([f"{hashes} {r.number} {r.title} {{ #{urls.anchor(r.id)} }}", ""])
        if r.text:
            lines.extend([ix.prose(r.text), ""])
        for child in r.rules:
            rule(child, depth + 1)

    for ch in rs.chapters:
        lines += [f"{'#' * heading} {ch.number}. {ch.title} {{ #{_chapter_anchor(ch.id)} }}", ""]
        if ch.text:
            lines += [ix.prose(ch.text), ""]
        for r in ch.rules:
            rule(r, heading + 1)
    if rs.rulings:
        lines += [f"{'#' * heading} Rulings {{ #rulings }}", ""]
        for ruling in rs.rulings:
            lines += [f"{'#' * (heading + 1)} {ruling.number} {ruling.title} "
                      f"{{ #{ix.ruling_anchor(ruling.id)} }}", ""]
            lines += ix.ruling_lines(ruling)
    if rs.terms:
        lines += [f"{'#' * heading} Glossary {{ #glossary }}", ""]
        for t in sorted(rs.terms, key=lambda t: t.title.lower()):
            lines += [f"{'#' * (heading + 1)} {capital(t.title)} "
                      f"{{ #{ix.term_anchor(t.id)} }}", ""]
            if t.text:
                lines += [ix.prose(t.text), ""]
    return lines


def page_lines(rs: m.Ruleset) -> list[str]:
    """The print page: a title, a short note on what it holds, the PDF, then `body`."""
    book = rs.subtitle or rs.title
    lines = [f"# {rs.title}: {book}, on one page", "",
             f'<div class="print-note" markdown>For {rs.player_counts} players; rules version '
             f"{rs.version}. Every chapter, ruling and glossary entry of this book, in order, "
             f"to print or to read without a connection. The engine's readings, the worked "
             f"examples and the file formats are on the chapter pages. "
             f"[Download the PDF]({pdf_name(rs.id)}){{ download }}</div>", ""]
    return lines + body(rs)


# ------------------------------------------------------------------ the PDF

# The Markdown extensions the body uses; the same ones the site's mkdocs.yml turns on.
_EXTENSIONS = ["attr_list", "md_in_html", "tables"]
_FONT = "DejaVu"
_EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)  # the PDF's date: same rules, same file


@cache
def _font_dir() -> Path:
    import matplotlib
    return Path(matplotlib.get_data_path()) / "fonts" / "ttf"


def pdf(rs: m.Ruleset) -> bytes:
    """The ruleset's PDF, made again only when its text, the site's address or fpdf2 changed.

    Laying out a book takes fpdf2 about a second; a live preview rebuilding on every
    save, or a second build, would pay it for every ruleset. Kept in build/.cache."""
    import hashlib

    import fpdf
    url = urls.site_url()
    text = "\n".join(body(rs, heading=1))
    said = "\n".join([fpdf.__version__, url, rs.title, rs.subtitle or "", rs.version,
                      rs.player_counts, rs.source or "", text,
                      Path(__file__).read_text(encoding="utf-8")])
    key = hashlib.sha256(said.encode("utf-8")).hexdigest()[:32]
    cached = REPO_ROOT / "build" / ".cache" / "pdf" / f"{key}.pdf"
    if cached.is_file():
        return cached.read_bytes()
    data = _laid_out(rs, url, text)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    return data


def pdf_bytes(rs: m.Ruleset, site_url: str) -> bytes:
    """The print page as a PDF: the same text, with a title page, bookmarks and page numbers.

    Links between rules stay inside the PDF; links to pages the PDF does not hold
    (worked examples, cards) lead to the site at `site_url`."""
    return _laid_out(rs, site_url, "\n".join(body(rs, heading=1)))


def _laid_out(rs: m.Ruleset, site_url: str, text: str) -> bytes:
    """`text`, the book's `body` at heading level 1, laid out as the PDF."""
    from fpdf import FPDF
    from fpdf.fonts import FontFace

    book = rs.subtitle or rs.title
    html = markdown.markdown(text, extensions=_EXTENSIONS)
    html = _for_pdf(html, site_url + urls.slug(rs.id) + "/")

    class Book(FPDF):
        HTML2FPDF_CLASS = _anchored()

        def footer(self) -> None:
            self.set_y(-12)
            self.set_font(_FONT, size=8)
            self.set_text_color(110)
            self.cell(0, 6, f"{rs.title}: {book} · rules version {rs.version} · "
                            f"page {self.page_no()}", align="C")

    pdf = Book(format="A4")
    pdf.set_title(f"{rs.title}: {book}")
    pdf.set_creator("rulebook")
    pdf.set_creation_date(_EPOCH)
    fonts = _font_dir()
    pdf.add_font(_FONT, "", fonts / "DejaVuSans.ttf")
    pdf.add_font(_FONT, "B", fonts / "DejaVuSans-Bold.ttf")
    pdf.add_font(_FONT, "I", fonts / "DejaVuSans-Oblique.ttf")
    pdf.add_font(_FONT, "BI", fonts / "DejaVuSans-BoldOblique.ttf")
    pdf.add_font("DejaVuMono", "", fonts / "DejaVuSansMono.ttf")
    pdf.set_margins(18, 16, 18)
    pdf.set_auto_page_break(True, margin=18)
    pdf.add_page()
    pdf.set_font(_FONT, "B", 24)
    pdf.multi_cell(0, 12, rs.title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(_FONT, "", 15)
    pdf.multi_cell(0, 9, book, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font(_FONT, "", 10)
    said = f"For {rs.player_counts} players. Rules version {rs.version}."
    if rs.source:
        said += (f" Source: {rs.source}. The facts and numbers are the source's; every sentence "
                 f"here is written afresh.")
    pdf.multi_cell(0, 5.5, said, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.multi_cell(0, 5.5, f"Online, with the engine's reading of every rule and every worked "
                           f"example: {site_url}{urls.slug(rs.id)}/", align="L",
                   new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font(_FONT, "", 10.5)
    pdf.write_html(html, font_family=_FONT, tag_styles={
        "h1": FontFace(emphasis="BOLD", size_pt=17, color=(49, 27, 146)),
        "h2": FontFace(emphasis="BOLD", size_pt=13, color=(40, 40, 40)),
        "h3": FontFace(emphasis="BOLD", size_pt=11.5, color=(40, 40, 40)),
        "h4": FontFace(emphasis="BOLD", size_pt=10.5, color=(40, 40, 40)),
        "h5": FontFace(emphasis="BOLD", size_pt=10.5, color=(40, 40, 40)),
        "h6": FontFace(emphasis="BOLD", size_pt=10.5, color=(40, 40, 40)),
        "code": FontFace(family="DejaVuMono"),
        "a": FontFace(color=(49, 27, 146)),
    })
    return bytes(pdf.output())


@cache
def _anchored() -> type:
    """fpdf2's HTML reader, which also makes every `id` a place a link can lead to."""
    from fpdf.html import HTML2FPDF

    class Anchored(HTML2FPDF):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            ident = dict(attrs).get("id")
            if ident:
                self.pdf.add_link(y=self.pdf.y, name=ident)
            super().handle_starttag(tag, attrs)
    return Anchored


def _for_pdf(html: str, book_url: str) -> str:
    """The page's HTML as fpdf2 reads it: page links made absolute, tooltips dropped,
    table cells aligned left."""
    def href(match: re.Match[str]) -> str:
        target = match.group(1)
        if target.startswith(("#", "http://", "https://")):
            return f'href="{target}"'
        page, _, anchor = target.partition("#")
        page = page.removesuffix(".md").removesuffix("index")
        return f'href="{book_url}{page}/' + (f"#{anchor}" if anchor else "") + '"'
    html = re.sub(r'href="([^"]*)"', href, html)
    html = re.sub(r' title="[^"]*"', "", html)
    # fpdf2 justifies table cells unless told otherwise; narrow cells then gape.
    return re.sub(r"<(td|th)>", r'<\1 align="left">', html)
