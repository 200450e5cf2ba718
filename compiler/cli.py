"""`rulebook`: the command line.

    rulebook check FILE...                  parse and check rules files
    rulebook new-variant NAME --extends R   scaffold a variant of a ruleset
    rulebook diff RULESET_A RULESET_B       what B adds, removes and changes
    rulebook compile RULESET --json         the compiled IR
    rulebook build                          compile, verify every example, write and build the site
    rulebook serve                          the same, then a live preview
    rulebook lsp                            the language server, for an editor (stdio)
    rulebook moves RULESET POSITION         the legal moves, in notation
    rulebook adjudicate RULESET POSITION MOVE
    rulebook replay RULESET POSITION        the position reached, with scores
    rulebook audit RULESET POSITION         every breach on the table, each with its rule
    rulebook play RULESET --players N --seed S
    rulebook bench RULESET [--compare FILE | --record FILE]  speed; against a baseline
    rulebook bench --all [--json]           every ruleset's speed in one table
    rulebook simulate RULESET [--against BASE] --games N   balance: wins, scores, length
    rulebook schema [simulation]            the JSON Schema of position files (or of a
                                            simulation's summary.json)

POSITION is a position file (JSON) or a game record: the position after the
record. Which one is told by the content (a position starts with `{`), not
the file name. `-` reads standard input.

Exit codes (the same for every command; see `EXIT_CODES`):
    0  done; for `adjudicate`, the move is LEGAL; for `audit`, nothing is wrong
    2  the input is refused: the move is ILLEGAL or UNREADABLE, a position or
       record cannot be read or cannot be on a table, an argument or option is
       wrong (no such ruleset or file, a count out of range)
    1  anything else: for `audit`, a breach found; rules that do not compile or whose examples disagree
       with the engine, a site that does not build, a file that cannot be written
"""

from __future__ import annotations

import errno
import inspect
import json
import os
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer
from rich.console import Console
from rich.table import Table

from compiler.diagnostics import CompileError, Repeats

REFUSED = 2   # the input is refused (see the module docstring)
FAILED = 1    # anything else went wrong
EXIT_CODES = {0: "done (for adjudicate: LEGAL; for audit: nothing wrong)",
              REFUSED: "the input is refused: an ILLEGAL or UNREADABLE move, a position or "
                       "record that cannot be read or be on a table, a wrong argument or option",
              FAILED: "anything else: for audit, a breach found; rules that do not compile or whose examples disagree, a "
                      "site that does not build, a file that cannot be written"}

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode="rich",
                  help="Rules language, adjudicating engine and rulebook generator.",
                  epilog="Exit codes: " + "; ".join(f"{k} {v}" for k, v in EXIT_CODES.items())
                  + ".")
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = FAILED) -> NoReturn:
    err.print(message, markup=False)
    raise typer.Exit(code)


def _refuse(message: str) -> NoReturn:
    _fail(message, REFUSED)


def _os_problem(path: Any, e: OSError) -> str:
    """An operating-system error about `path`, in words (never a traceback)."""
    shown = str(path)
    if len(shown) > 80:
        shown = shown[:60] + "…" + shown[-15:]
    if e.errno == errno.ENAMETOOLONG:
        longest = max((len(part.encode("utf-8", "replace")) for part in Path(str(path)).parts),
                      default=0)
        return f"{shown}: the file name is too long ({longest} bytes in one name; the system " \
               f"allows 255)"
    if isinstance(e, FileNotFoundError):
        return f"{shown}: no such file or folder"
    if isinstance(e, PermissionError):
        return f"{shown}: permission denied"
    if isinstance(e, IsADirectoryError):
        return f"{shown}: this is a folder, not a file"
    if isinstance(e, NotADirectoryError):
        return f"{shown}: a part of this path is a file, not a folder"
    if isinstance(e, FileExistsError):
        return f"{shown}: there is a file there already"
    return f"{shown}: {e.strerror or e}"


def _rules(name: str) -> Any:
    from compiler.engine.position import Rules
    from compiler.load import load_ruleset
    try:
        return Rules(load_ruleset(name))
    except CompileError as e:
        missing = any(d.code == "not-found" for d in e.diagnostics)
        _fail(str(e), REFUSED if missing else FAILED)
    except OSError as e:
        _refuse(_os_problem(name, e))


def decode(data: bytes, name: str) -> str:
    """UTF-8 text, or an error naming the file, the byte and where it stands."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        _refuse(f"{name}:{line}:{column}: this file is not UTF-8 text: byte "
                f"0x{data[e.start]:02x} (at offset {e.start}) cannot be read; save it as UTF-8")


def _read(path: str) -> tuple[str, str]:
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is not None:
            return decode(stream.read(), "<stdin>"), "<stdin>"
        return sys.stdin.read(), "<stdin>"
    p = Path(path)
    try:
        if p.is_dir():
            _refuse(f"{path}: this is a folder; give a position file or a game record")
        data = p.read_bytes()
    except OSError as e:
        _refuse(_os_problem(path, e))
    return decode(data, path), path


def _where(position: str | None, example: str | None) -> str:
    """The position a command starts from: a file, or `--example ID` (never both)."""
    if example is not None:
        if position:
            _refuse(f"give a position or --example, not both ({position!r} and {example!r})")
        return EXAMPLE_PREFIX + example
    if not position:
        _refuse("give a position file, a game record, or --example ID")
    return position


# A position may also be a worked example's, before its moves: `example:TD-E36` (its id, its
# number, or the number without the ruleset's code when only one example has it).
EXAMPLE_PREFIX = "example:"


def _position(rules: Any, path: str) -> Any:
    """A position from a JSON position file or a game record (told apart by their content),
    or a worked example's (`example:ID`)."""
    if path.startswith(EXAMPLE_PREFIX):
        from compiler.judge.service import JudgeError, example_of
        try:
            return example_of(rules, path.removeprefix(EXAMPLE_PREFIX).strip())[0]
        except JudgeError as e:
            _refuse(e.message)
    text, name = _read(path)
    if text.removeprefix("\ufeff").lstrip().startswith("{"):
        return _position_file(rules, text, name)
    from compiler.engine.records import RecordError, parse_record, replay
    try:
        return replay(rules, parse_record(text, name))
    except RecordError as e:
        _refuse(str(e))


# `--as SEAT`: the table as one player sees it (compiler/engine/views.py).
AS_HELP = ("Show the table as this seat sees it (a seat id): every card they cannot see is "
           "unknown, and moves are listed and judged from what they know.")


def _seen_by(pos: Any, seat: str | None) -> Any:
    """The position as `seat` sees it (unchanged without --as); a wrong seat is refused."""
    if seat is None:
        return pos
    try:
        return pos.view(seat)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--as") from None


def _view_line(pos: Any) -> None:
    """The header of what is printed of a view: whose it is."""
    st = pos.state
    if st.view is not None:
        g = pos.game
        out.print(f"As {g.seat_name(st.view)} ({g.seat_id(st.view)}) sees the table: what "
                  f"they cannot see is unknown.")


def _position_file(rules: Any, text: str, name: str) -> Any:
    from compiler.engine.reading import PositionFileError, read_position
    try:
        return read_position(rules, text, name)
    except PositionFileError as e:
        _refuse(str(e))


# ------------------------------------------------------------------- authoring


VARIANT_TEMPLATE = '''# {name}: a variant of {base}.
#
# A variant starts as a copy of {base} and changes it by id. Everything
# written plainly (a chapter, tile set, term, ruling, example) is added;
# `replace` and `remove` change what {base} has. Check it with
#     rulebook check rules/{name}
# and see what it changes with
#     rulebook diff {base} {name}

ruleset {name} extends {base} {{
    subtitle "{title}"
}}

chapter {name} "What the {title} changes" {{
    text """
    Say here, in a few sentences, what your variant is about. Each rule you
    add, replace or remove appears on the generated "What changes" page.
    """
}}

# Replace a rule of {base} (its sub-rules stay unless you replace them too):
#
# replace rule {rule} "{rule_title}" {{
#     text """The rule in your variant's words."""
# }}
#
# Remove rules, tiles or examples (every id must exist in {base}):
#
# remove example {example}
#
# Add a rule to an existing chapter:
#
# add to chapter {chapter} {{
#     rule {chapter}.my_rule "My rule" {{
#         text """..."""
#     }}
# }}
'''


@app.command("new-variant")
def new_variant(name: Annotated[str, typer.Argument(help="The new ruleset's id (a folder name).")],
                extends: Annotated[str, typer.Option("--extends", help="The ruleset to build on.")],
                folder: Annotated[Optional[Path], typer.Option(
                    help="Where to create it (default: rules/NAME).")] = None) -> None:
    """Scaffold a variant: a rules file that extends RULESET and checks cleanly at once."""
    import re

    from compiler.load import RULES_DIR, load_files
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,63}", name):
        _refuse(f"`{name[:70]}` cannot be a ruleset id: use lower-case letters, digits and _ "
                f"(at most 64), starting with a letter")
    base = _rules(extends).ruleset
    target = folder or RULES_DIR / name
    try:
        if target.exists() and not target.is_dir():
            _refuse(f"{target}: this is a file; --folder names the folder to create the "
                    f"variant in")
        if target.exists() and any(target.iterdir()):
            _refuse(f"{target} already exists and is not empty")
    except OSError as e:
        _refuse(_os_problem(target, e))
    rule = next((r for r in base.all_rules() if r.decls), base.all_rules()[0])
    chapter = base.chapters[-1].id
    text = VARIANT_TEMPLATE.format(
        name=name, base=base.id, title=name.replace("_", " ") + " variant", rule=rule.id,
        rule_title=rule.title, chapter=chapter,
        example=base.examples[0].id if base.examples else "some_example")
    path = target / "ruleset.rules"
    try:
        target.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        _fail(_os_problem(e.filename or target, e))
    try:
        load_files([path])
    except CompileError as e:  # the scaffold must always check; say so loudly if not
        _fail(f"the new variant does not check, which is a bug:\n{e}")
    from compiler.load import display_path
    out.print(f"created {display_path(path)}: a variant of {base.id}. Next: rulebook check "
              f"{display_path(target)}")


@app.command("diff")
def diff_command(a: Annotated[str, typer.Argument(help="The ruleset to compare from.")],
                 b: Annotated[str, typer.Argument(help="The ruleset to compare to.")],
                 text: Annotated[bool, typer.Option(help="Show how each rule's text changed.")]
                 = True) -> None:
    """What ruleset B adds, removes and changes relative to ruleset A, by id."""
    from rich.markup import escape

    from compiler.diffing import diff
    ra, rb = _rules(a).ruleset, _rules(b).ruleset
    found = diff(ra, rb)
    if not found:
        out.print(f"{rb.id} is the same as {ra.id}")
        return
    marks = {"added": "[green]+[/green]", "removed": "[red]-[/red]", "changed": "[yellow]~[/yellow]"}
    counts = {op: sum(1 for d in found if d.op == op) for op in marks}
    out.print(f"[bold]{rb.id}[/bold] against [bold]{ra.id}[/bold]: "
              + ", ".join(f"{n} {op}" for op, n in counts.items() if n))
    for kind in ("chapter", "rule", "tile", "card", "term", "ruling", "example"):
        group = [d for d in found if d.kind == kind]
        if not group:
            continue
        out.print(f"\n[bold]{kind}s[/bold]")
        for d in group:
            extra = " (declarations changed)" if d.declarations_changed else ""
            out.print(f"  {marks[d.op]} {d.id}  {escape(d.title)}{extra}")
            if text and d.text_diff:
                for line in d.text_diff[2:]:
                    colour = "green" if line.startswith("+") else "red" \
                        if line.startswith("-") else "dim"
                    out.print(f"      [{colour}]{escape(line)}[/{colour}]", markup=True)
            if d.reading_diff:
                out.print("      [dim]as the engine reads it:[/dim]")
                for line in d.reading_diff[2:]:
                    if line.startswith("@@"):
                        continue
                    colour = "green" if line.startswith("+") else "red" \
                        if line.startswith("-") else "dim"
                    out.print(f"      [{colour}]{escape(line)}[/{colour}]", markup=True)


@app.command()
def check(files: Annotated[list[Path], typer.Argument(help="Rules files, ruleset folders or ruleset names.")],
          examples: Annotated[bool, typer.Option(help="Also run every worked example.")] = True
          ) -> None:
    """Parse and check rules files; report every error with its place and a hint."""
    from compiler.load import id_taken, load_files, resolve_ruleset_path
    groups: dict[Path, list[Path]] = {}
    for f in files:
        try:
            if f.is_dir():
                found = sorted(f.glob("*.rules"))
                if not found:
                    _refuse(f"{f}: this folder has no .rules files")
                groups.setdefault(f, []).extend(found)
            elif f.is_file():
                # A file is checked with the rest of its ruleset, so names resolve.
                folder = f.parent
                groups.setdefault(folder, []).extend(sorted(folder.glob("*.rules")))
            else:  # a ruleset name, as every other command takes it
                try:
                    folder = resolve_ruleset_path(str(f))
                except CompileError as e:
                    _refuse(str(e))
                groups.setdefault(folder, []).extend(sorted(folder.glob("*.rules")))
        except OSError as e:
            _refuse(_os_problem(f, e))
    failed = False
    # A base's mistakes are its variants' too: each message is printed once,
    # and an example failing in several rulesets names them all.
    printed: set[str] = set()
    repeats = Repeats()

    def say(text: str) -> None:
        if text not in printed:
            printed.add(text)
            err.print(text, markup=False)

    for folder, group in groups.items():
        group = sorted(set(group))
        try:
            ruleset, _, warnings = load_files(group)
        except CompileError as e:
            for d in e.diagnostics:
                say(d.render())
            failed = True
            continue
        for w in warnings:
            say(w.render())
        taken = id_taken(ruleset.id, folder)
        if taken is not None:
            say(taken.render())
            failed = True
            continue
        # Two actions written alike make records unreadable: checked with or without examples.
        from compiler.engine.position import Rules
        rules = Rules(ruleset)
        bad = _notation_clashes(rules, say)
        if examples:
            bad += _run_examples(rules, repeats, say)
        failed = failed or bad > 0
        if not bad:
            out.print(f"{folder}: ruleset [bold]{ruleset.id}[/] is correct "
                      f"({len(ruleset.all_rules())} rules, {len(ruleset.examples)} examples"
                      f"{', all verified' if examples else ''})")
    for lines in repeats.found:
        where, ident, *failures = lines
        err.print(f"{where}: error: example `{ident}` disagrees with the engine"
                  f"{repeats.where(lines)} [example]", markup=False)
        for f in failures:
            err.print(f"    {f}", markup=False)
        hint = repeats.hint(lines)
        if hint is not None:
            err.print(f"    {hint}", markup=False)
    if failed:
        raise typer.Exit(1)


def _notation_clashes(rules: Any, say: Any) -> int:
    from compiler.engine.notation import notation_clashes
    problems = notation_clashes(rules.game)
    for problem in problems:
        say(problem.render())
    return len(problems)


def _run_examples(rules: Any, repeats: Repeats, say: Any) -> int:
    """Run every example; note each failure in `repeats`, to be printed once for all rulesets."""
    from compiler.engine.scenario import run_example
    ruleset = rules.ruleset
    bad = 0
    from compiler.variants import inherited_example_hint
    for ex in ruleset.examples:
        result = run_example(rules, ex)
        if not result.ok:
            bad += 1
            loc = ex.loc
            where = f"{loc.file}:{loc.line}:{loc.column}" if loc else ruleset.id
            repeats.add(ruleset.id, where, ex.id, *result.failures,
                        hint=inherited_example_hint(ruleset, ex.id))
    return bad


@app.command("compile")
def compile_(ruleset: str,
             as_json: Annotated[bool, typer.Option("--json", help="Print the IR as JSON.")] = False
             ) -> None:
    """Compile a ruleset; with --json, print the complete IR."""
    rs = _rules(ruleset).ruleset
    if as_json:
        print(rs.model_dump_json(indent=2, exclude_none=True))
    else:
        # A game of printed cards counts its cards; a game of tiles its tiles (both if both).
        pieces = [f"{k} {word}" for k, word in ((len(rs.tiles()), "tiles"),
                                                (sum(c.copies for c in rs.cards()), "cards"))
                  if k]
        out.print(f"{rs.id}: {len(rs.all_rules())} rules, {len(rs.all_decls())} declarations, "
                  f"{', '.join(pieces or ['0 tiles'])}, {len(rs.examples)} examples, "
                  f"{len(rs.rulings)} rulings")


class SchemaName(str, Enum):
    """The file formats with a published JSON Schema."""

    position = "position"
    simulation = "simulation"


@app.command()
def schema(of: Annotated[SchemaName, typer.Argument(
        help="position (a position file) or simulation (`rulebook simulate --out`'s "
             "summary.json).")] = SchemaName.position) -> None:
    """Print the JSON Schema of position files (or of a simulation's summary.json)."""
    if of is SchemaName.simulation:
        from compiler.engine.simulate import summary_schema
        print(json.dumps(summary_schema(), indent=2))
        return
    from compiler.engine.formats import position_schema
    print(json.dumps(position_schema(), indent=2))


# ---------------------------------------------------------------------- the site


@app.command()
def build(strict: Annotated[bool, typer.Option(help="Fail on any mkdocs warning.")] = True,
          site_url: Annotated[Optional[str], typer.Option(
              help="Where the site will be published, e.g. https://rules.example.org/ "
                   "(default: $RULEBOOK_SITE_URL, else http://127.0.0.1:8000/). Canonical "
                   "links, the sitemap and the PDFs' links use it; the site works on any "
                   "host either way.")] = None,
          only: Annotated[Optional[list[str]], typer.Option(
              "--only", metavar="RULESET",
              help="Build only this ruleset and those it builds on (repeat for more): "
                   "a quick look at the one you are writing.")] = None,
          ) -> None:
    """Compile every ruleset, verify every example, write the pages, run `mkdocs build`."""
    from compiler import links
    from compiler.rulebook.build import ONLY_VARIABLE, BuildError, build_site
    if site_url is not None:
        problem = links.site_url_problem(site_url)
        if problem is not None:
            _refuse(f"--site-url: {problem}")
        os.environ[links.SITE_URL_VARIABLE] = site_url
    os.environ[ONLY_VARIABLE] = ",".join(only or [])
    try:
        build_site(strict=strict, console=out)
    except BuildError as e:
        _fail(str(e))
    finally:  # the next build in this process builds every ruleset again
        os.environ.pop(ONLY_VARIABLE, None)


@app.command()
def serve(port: Annotated[int, typer.Option(
        min=1, max=65534, help="The rulebook's port; the judge answers on the next one.")] = 8000
          ) -> None:
    """Build the rulebook, then serve it with live preview, and the judge beside it (port + 1)."""
    import tempfile
    import threading

    from compiler import links
    from compiler.rulebook.build import BuildError, build_site, serve_site
    # The pages' "Ask the judge" open the judge started here; its rulings cite the live book.
    os.environ["RULEBOOK_JUDGE_URL"] = f"http://127.0.0.1:{port + 1}/"
    os.environ.setdefault(links.SITE_URL_VARIABLE, f"http://127.0.0.1:{port}/")
    # Built strictly first (every example checked, warnings fail), into a folder of its own:
    # these pages link to this judge's port, build/site is `rulebook build`'s.
    with tempfile.TemporaryDirectory(prefix="rulebook-serve-") as checked:
        try:
            build_site(strict=True, console=out, site_dir=Path(checked))
        except BuildError as e:
            _fail(str(e))
    server = _judge_server("127.0.0.1", port + 1, None, f"http://127.0.0.1:{port}/")
    threading.Thread(target=server.run, daemon=True, name="judge").start()
    out.print(f"The judge: http://127.0.0.1:{port + 1}/  (the rulebook: http://127.0.0.1:{port}/)")
    serve_site(port)


@app.command()
def lsp() -> None:
    """Start the language server on standard input and output, for an editor: diagnostics
    as you type, hover, go to definition, completion (the guide "Editing rules in an editor")."""
    from compiler.lsp.server import serve as serve_lsp
    serve_lsp()


def _judge_server(host: str, port: int, rulebook: Path | None,
                  rulebook_url: str | None = None) -> Any:
    """A uvicorn server for the judge; rulings link to the rulebook it serves (/rulebook/),
    else to `rulebook_url`, else to the rulebook's site_url."""
    import uvicorn

    from compiler.judge.api import create_app
    app_ = create_app(rulebook if rulebook is not None and rulebook.is_dir() else None,
                      rulebook_url=rulebook_url, warm=True)
    config = uvicorn.Config(app_, host=host, port=port, log_level="warning")
    return uvicorn.Server(config)


@app.command()
def judge(host: Annotated[str, typer.Option(help="The address to listen on; 127.0.0.1 keeps "
                                                 "it to this machine.")] = "127.0.0.1",
          port: Annotated[int, typer.Option(min=1, max=65535)] = 8001,
          rulebook: Annotated[Optional[Path], typer.Option(
              help="A built rulebook (rulebook build) to serve at /rulebook/ and link rulings "
                   "to; build/site if it exists.")] = None) -> None:
    """Serve the judge's table: the page at /, its JSON API under /api/ (/openapi.json)."""
    if rulebook is not None and not rulebook.is_dir():
        _refuse(f"{rulebook}: no built rulebook there (make one with `rulebook build`)")
    if rulebook is None and Path("build/site").is_dir():
        rulebook = Path("build/site")
    out.print(f"The judge: http://{host}:{port}/" +
              (f"  (the rulebook: http://{host}:{port}/rulebook/)" if rulebook else ""))
    _judge_server(host, port, rulebook).run()


# -------------------------------------------------------------------- the game


EXAMPLE_HELP = ("Start from this worked example's position, before its moves (its id or "
                "number, e.g. TD-E36), instead of a position file.")


@app.command()
def moves(ruleset: str,
          position: Annotated[Optional[str], typer.Argument(
              help="A position file, a game record, or example:ID.")] = None,
          as_json: Annotated[bool, typer.Option("--json")] = False,
          seat: Annotated[Optional[str], typer.Option("--as", metavar="SEAT", help=AS_HELP)] = None,
          example: Annotated[Optional[str], typer.Option(metavar="ID", help=EXAMPLE_HELP)] = None
          ) -> None:
    """List the legal moves in a position, in notation.

    With --as SEAT, the moves as that player can list them: where a choice needs a card
    they cannot see, every card that could be there."""
    from compiler.ir.english import counted
    rules = _rules(ruleset)
    pos = _seen_by(_position(rules, _where(position, example)), seat)
    found = [pos.notation(m) for m in pos.legal_moves()]
    if as_json:
        shown: dict[str, Any] = {"situation": pos.situation().model_dump(), "moves": found}
        if pos.state.view is not None:
            shown = {"view": pos.game.seat_id(pos.state.view), **shown}
        print(json.dumps(shown, indent=2))
        return
    _view_line(pos)
    s = pos.situation()
    if pos.finished:
        out.print("The game is over: " + ", ".join(f"{k} {v}" for k, v in s.scores.items()))
        return
    if s.at_once:  # any of them may choose first; the moves listed are the first one's
        out.print(f"{s.said()}; {s.player_name}’s choices: {counted(len(found), 'legal move')}")
    else:  # said as a ruling says it: "turn 5, Xemh to play, step “Take one action”"
        out.print(f"{s.said()}: {counted(len(found), 'legal move')}")
    for text in found:
        print(text)


@app.command()
def adjudicate(ruleset: str,
               position: Annotated[Optional[str], typer.Argument(
                   help="A position file, a game record, or example:ID.")] = None,
               move: Annotated[Optional[str], typer.Argument(
                   help="A move, or several separated by `;`.")] = None,
               as_json: Annotated[bool, typer.Option("--json")] = False,
               seat: Annotated[Optional[str], typer.Option("--as", metavar="SEAT",
                                                           help=AS_HELP)] = None,
               example: Annotated[Optional[str], typer.Option(metavar="ID",
                                                              help=EXAMPLE_HELP)] = None) -> None:
    """Judge a move: LEGAL, ILLEGAL or UNREADABLE, the rules that decide it, and what follows.

    With --as SEAT, judged on the table as that player sees it (the ruling says whose view,
    `view` in JSON): the same rules decide, but a card they cannot see is named in what
    follows as a hidden card, and what turns on another's secret is not stated.

    Exit code 0 for LEGAL, 2 for ILLEGAL or UNREADABLE."""
    if example is not None and move is None:  # `adjudicate RULESET --example ID MOVE`
        position, move = None, position
    if move is None:
        _refuse("give the move to judge: rulebook adjudicate RULESET POSITION MOVE, or "
                "rulebook adjudicate RULESET --example ID MOVE")
    rules = _rules(ruleset)
    pos = _seen_by(_position(rules, _where(position, example)), seat)
    ruling = pos.adjudicate(move)
    if as_json:
        print(ruling.model_dump_json(indent=2))
    else:
        print(ruling.render())  # a view's ruling says whose view judged it
    raise typer.Exit(0 if ruling.verdict == "LEGAL" else REFUSED)


@app.command()
def draw(ruleset: str, position: Annotated[str, typer.Argument(
             help="A position file or a game record.")],
         output: Annotated[Path, typer.Option("-o", "--output",
                                              help="board.svg, or board.png if a converter "
                                                   "(cairosvg) is installed.")] = Path("board.svg")
         ) -> None:
    """Draw a position as the rulebook draws it: its board picture, as SVG (or PNG)."""
    from compiler.rulebook.svg import board_svg
    rules = _rules(ruleset)
    pos = _position(rules, position)
    svg = board_svg(pos.game, pos.state, max_width=2000)
    data = svg.encode("utf-8")
    if output.suffix.lower() == ".png":
        try:
            import cairosvg  # type: ignore[import-not-found]
        except ImportError:
            _refuse(f"{output}: no PNG converter here (pip install cairosvg); "
                    f"write {output.with_suffix('.svg')} instead")
        data = cairosvg.svg2png(bytestring=data)
    elif output.suffix.lower() != ".svg":
        _refuse(f"{output}: give a .svg or .png file name")
    try:
        output.write_bytes(data)
    except OSError as e:
        _fail(_os_problem(output, e))
    pieces = len(pos.state.pieces)
    out.print(f"{output}: {_laid_summary(pos.game, pos.state)}, "
              f"{pieces} piece{'s' if pieces != 1 else ''}")


@app.command("position")
def position_command(
        ruleset: str,
        from_example: Annotated[Optional[str], typer.Option(
            "--from-example", metavar="ID", help="The position a worked example starts from: its "
            "id, or its number as the rulebook shows it (TD-E36; E36 if only one has it).")
        ] = None,
        from_record: Annotated[Optional[str], typer.Option(
            "--from-record", metavar="FILE", help="The position a game record reaches.")] = None,
        upto: Annotated[Optional[int], typer.Option(
            help="With --from-record: the position after this many turn lines.", min=0)] = None,
        output: Annotated[Optional[Path], typer.Option("-o", "--output")] = None) -> None:
    """Write a position file (JSON) to start from: a worked example's or a record's."""
    from compiler.engine.formats import from_state
    if (from_example is None) == (from_record is None):
        raise typer.BadParameter("give one of --from-example ID or --from-record FILE")
    if upto is not None and from_record is None:
        raise typer.BadParameter("--upto goes with --from-record", param_hint="--upto")
    rules = _rules(ruleset)
    if from_example is not None:
        from compiler.judge.service import JudgeError, example_of
        try:
            pos, _ = example_of(rules, from_example)
        except JudgeError as e:
            _refuse(e.message)
    else:
        from compiler.engine.records import RecordError, parse_record, replay
        text, name = _read(str(from_record))
        try:
            pos = replay(rules, parse_record(text, name), upto)
        except RecordError as e:
            _refuse(str(e))
    text = from_state(pos.rules, pos.state).model_dump_json(indent=2, exclude_none=True) + "\n"
    if output is None:
        print(text, end="")
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as e:
        _fail(_os_problem(output, e))


@app.command()
def audit(ruleset: str, position: str,
          as_json: Annotated[bool, typer.Option("--json")] = False,
          seat: Annotated[Optional[str], typer.Option("--as", metavar="SEAT", help=AS_HELP)] = None
          ) -> None:
    """List every breach on the table that the ruleset's audits find, each with its rule.

    With --as SEAT, what that player can find on the table as they see it.

    Exit code 0 when nothing is wrong, 1 when anything is found."""
    rules = _rules(ruleset)
    pos = _seen_by(_position(rules, position), seat)
    found = pos.audit()
    if as_json:
        shown: dict[str, Any] = {"situation": pos.situation().model_dump(),
                                 "breaches": [f.model_dump() for f in found]}
        if pos.state.view is not None:
            shown = {"view": pos.game.seat_id(pos.state.view), **shown}
        print(json.dumps(shown, indent=2))
    else:
        _view_line(pos)
        audits = rules.game.audits
        if not audits:
            out.print(f"{rules.ruleset.title or rules.ruleset.id} declares no audit: "
                      "nothing to check")
        elif not found:
            out.print("Nothing wrong: " + ", ".join(a.decl.title for a in audits.values())
                      + " — no breach found.")
        else:
            n = len(found)
            out.print(f"{n} breach{'es' if n > 1 else ''} found:")
            for f in found:
                print(f.render())
    raise typer.Exit(FAILED if found else 0)


def _laid_summary(g: Any, st: Any) -> str:
    """What lies on the table, as a player counts it: "13 tiles on the board", or, with a
    board per player, "Red's station 5 cards, Blue's station 4 cards" (printed cards are
    cards, not tiles)."""
    noun = "card" if st.board and all(g.card_title(c) is not None for c, _, _ in
                                      st.board.values()) else "tile"
    if not g.per_player:
        n = len(st.board)
        return f"{n} {noun}{'s' if n != 1 else ''} on the board"
    from compiler.kernel.boards import board_of
    counts = [sum(1 for cell in st.board if board_of(cell) == p) for p in range(st.players)]
    title = g.board_decl.title
    return ", ".join(f"{g.seat_name(p)}\u2019s {title} {k} {noun}{'s' if k != 1 else ''}"
                     for p, k in enumerate(counts))


@app.command()
def replay(ruleset: str,
           record: Annotated[str, typer.Argument(
               help="A game record, or a position file (shown as it stands).", metavar="POSITION")],
           upto: Annotated[Optional[int], typer.Option(
               min=0, help="Stop after N turn lines of the record.")] = None,
           as_json: Annotated[bool, typer.Option("--json", help="The position as JSON.")] = False,
           seat: Annotated[Optional[str], typer.Option("--as", metavar="SEAT", help=AS_HELP)] = None
           ) -> None:
    """Replay a game record (or read a position file); print the position reached, with scores.

    With --as SEAT, the position reached as that player sees it (with --json, a view
    position: `"view": SEAT` and every card they cannot see null)."""
    from compiler.engine.formats import from_state
    from compiler.engine.records import RecordError, parse_record
    from compiler.engine.records import replay as do_replay
    rules = _rules(ruleset)
    text, name = _read(record)
    if text.removeprefix("\ufeff").lstrip().startswith("{"):
        if upto is not None:
            _refuse(f"{name} is a position (JSON), not a record: it has no turn lines for "
                    f"--upto to count")
        pos = _position_file(rules, text, name)
    else:
        try:
            pos = do_replay(rules, parse_record(text, name), upto)
        except RecordError as e:
            _refuse(str(e))
    pos = _seen_by(pos, seat)
    g = pos.game  # the table's own seating (a record may seat other races than the first ones)
    if as_json:
        print(from_state(pos.rules, pos.state).model_dump_json(indent=2, exclude_none=True))
        return
    _view_line(pos)
    s = pos.situation()
    state = "game over" if s.finished else s.said()
    out.print(f"{_laid_summary(g, pos.state)}; {state}")
    # One column per seat, one row per figure: a game with many kinds of piece
    # still fits a narrow terminal, where one column per kind would not.
    seats = [g.seat_id(i) for i in range(pos.state.players)]  # the table's seats
    winners = pos.winners()
    table = Table("", *[seat + (" (winner)" if seat in winners else "") for seat in seats],
                  title="Scores")
    table.add_row("score", *[str(s.scores[seat]) for seat in seats])
    for k in g.piece_kinds:
        table.add_row(f"{k.id} in supply",
                      *[str(pos.state.supply[i].get(k.id, 0)) for i in range(len(seats))])
    out.print(table)
    _zones(pos)


def _zones(pos: Any) -> None:
    """What each declared zone holds, top first (`?`: a card unknown here), one line each."""
    from compiler.engine import zone_play, zones
    g, st = pos.game, pos.state
    for z in zone_play.table(g).values():
        for key in z.keys(st.players):
            cards = zones.cards_top_first(st, key, z.ordered)
            shown = ", ".join(cards) if cards else "empty"
            out.print(f"{zone_play.zone_title(g, key)}: {shown}")


def _players(rules: Any, players: int | None) -> int:
    """The player count asked for, or the default: 4 if the ruleset allows it, else the nearest."""
    rs = rules.ruleset
    if players is None:
        return max(rs.players_min, min(4, rs.players_max))
    if not rs.players_min <= players <= rs.players_max:
        raise typer.BadParameter(f"{rs.title or rs.id} is for {rs.player_counts} players, "
                                 f"not {players}",
                                 param_hint="--players")
    return players


@app.command()
def play(ruleset: str,
         players: Annotated[Optional[int], typer.Option(
             help="Number of players (default: 4, or the nearest count the ruleset allows).")] = None,
         seed: Annotated[int, typer.Option(help="Seed for the shuffle and the moves.")] = 1,
         games: Annotated[int, typer.Option(min=1, help="How many games.")] = 1,
         save: Annotated[Optional[Path], typer.Option(help="Folder to write records into.")] = None,
         seats: Annotated[Optional[str], typer.Option(
             help="The seats at the table, in playing order, e.g. xemh,sslyx "
                  "(default: the first ones declared).")] = None,
         seat: Annotated[Optional[str], typer.Option(
             "--as", metavar="SEAT",
             help="Write each record as this seat saw the game (a view record, [View "
                  "\"SEAT\"]): the others' choices of cards they never saw, and chance they "
                  "could not see, are `?`. A view record does not replay.")] = None
         ) -> None:
    """Play random legal games: one prints its record; several print a summary.

    Random players never peek: where the game hides cards, each chooses from what they
    can see."""
    from compiler.engine.random_play import RandomPlayStopped, random_game
    from compiler.engine.records import SEED_DIGITS, write_record
    rules = _rules(ruleset)
    rs = rules.ruleset
    if players is None:
        players = max(rs.players_min, min(2, rs.players_max))
    players = _players(rules, players)
    if len(str(abs(seed + games))) > SEED_DIGITS:
        raise typer.BadParameter(f"a seed of at most {SEED_DIGITS} digits, please (a record "
                                 f"keeps it)", param_hint="--seed")
    if seats:
        chosen = [x.strip() for x in seats.split(",") if x.strip()]
        if len(chosen) != players:
            raise typer.BadParameter(f"{len(chosen)} seats for {players} players", param_hint="--seats")
        try:
            rules = rules.seated(chosen)
        except ValueError as e:
            raise typer.BadParameter(str(e), param_hint="--seats") from None
    if save is not None:
        try:
            if save.exists() and not save.is_dir():
                raise typer.BadParameter(f"{save} is a file; give a folder to write records into",
                                         param_hint="--save")
            save.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            _fail(_os_problem(save, e))
    viewer = None
    if seat is not None:
        from compiler.engine.views import seat_of, view_record
        try:
            viewer = seat_of(rules.table(players).game, players, seat)
        except ValueError as e:
            raise typer.BadParameter(str(e), param_hint="--as") from None
    table = Table("game", "seed", "turns", "decisions", "scores", "winner", "seconds")
    from compiler.engine.collector import set_apart
    with set_apart():  # the ruleset, alive all along, is walked by no collection meanwhile
        for g in range(games):
            t0 = time.perf_counter()
            try:
                final, history = random_game(rules, players, seed + g)
            except RandomPlayStopped as e:
                _fail(str(e))
            record = write_record(history, final) if viewer is None else \
                view_record(history, final, viewer)
            if save is not None:
                target = save / f"game-{seed + g}.record"
                try:
                    target.write_text(record, encoding="utf-8")
                except OSError as e:
                    _fail(_os_problem(target, e))
            if games == 1:
                print(record, end="")
            else:
                table.add_row(str(g + 1), str(seed + g), str(final.state.turn.number),
                              str(len(history.moves)),
                              " ".join(f"{k}:{v}" for k, v in final.scores().items()),
                              " ".join(final.winners()), f"{time.perf_counter() - t0:.2f}")
    if games > 1:
        out.print(table)


def _measure(ruleset: str, games: int, players: int | None) -> Any:
    """`bench.measure`, with a game the rules leave stuck said in words, not as a fault."""
    from compiler.engine.bench import measure
    from compiler.engine.random_play import RandomPlayStopped
    try:
        return measure(ruleset, games, players)
    except RandomPlayStopped as e:
        _fail(f"the benchmark's random games cannot go on: {e}")


def bench_table(summaries: list[Any], games: int) -> Table:
    """`rulebook bench --all`: one row per ruleset, the figures the README's performance
    section shows. Times are CPU milliseconds."""
    table = Table(title=f"Benchmark: every ruleset, {games} random game{'s' * (games != 1)} "
                        f"each, CPU time")
    table.add_column("ruleset", no_wrap=True, min_width=30)
    for header in ("players", "games/s", "decisions/s", "late decision ms\nmedian / p95",
                   "late ÷ early", "many ÷ few\npieces", "adjudication\np95 ms",
                   "compile ms"):
        table.add_column(header, justify="right", no_wrap=True)

    def num(x: float | None, fmt: str) -> str:
        return "n/a" if x is None else format(x, fmt)

    for s in summaries:
        table.add_row(s.ruleset, str(s.players), num(s.games_per_second, ".1f"),
                      num(s.decisions_per_second, ".0f"),
                      f"{num(s.late.median_ms, '.2f')} / {num(s.late.p95_ms, '.2f')}",
                      num(s.late_over_early, ".2f"), _pieces_cell(s.pieces),
                      num(s.adjudication.p95_ms, ".2f"),
                      num(s.compile_ms, ".0f"))
    return table


def _pieces_cell(p: Any) -> str:
    """The many-pieces ratio in one cell: "1.42 (12/1)" (at least 12 pieces against 1), or "—"
    where no player's pieces multiply."""
    return "—" if p is None else f"{p.many_over_few:.2f} ({p.many_pieces}/{p.few_pieces})"


def _bench_all(games: int | None, players: int | None, as_json: bool) -> None:
    """Every ruleset under rules/, each measured the same way, as one table (or JSON)."""
    from compiler.engine.bench import ALL_GAMES, Benchmarks
    from compiler.load import ruleset_dirs
    count = games or ALL_GAMES
    summaries = []
    names = list(ruleset_dirs())
    # The first compile in a process also builds the parser and imports the engine: done once
    # here, untimed, so every row's compile time is that ruleset's own (as in `bench RULESET`,
    # which compiles once to check the name before measuring).
    _rules(names[0])
    for i, name in enumerate(names):
        if not as_json:
            err.print(f"[{i + 1}/{len(names)}] {name}", markup=False)
        summaries.append(_measure(name, count, players).summary())
    if as_json:
        print(Benchmarks(machine=_machine("measuring"), games_each=count, rulesets=summaries)
              .model_dump_json(indent=2))
    else:
        # One row per ruleset, never wrapped or cut: wider than a narrow terminal if need be.
        wide = out if out.width >= 150 else Console(highlight=False, width=150)
        wide.print(bench_table(summaries, count))
        out.print(f"Measured on {_machine('measuring')}.", markup=False)


@app.command(help=(
    "Measure: games per second, time per move early and late (median and p95), adjudication "
    "on several full boards, compile time; every time is CPU time. With --all, every ruleset "
    "in one table (8 games each unless --games says otherwise); with --json, the figures for "
    "machines."
    "\n\nWith --compare FILE the same seeded games are played again and judged against the "
    "baseline's decisions per second (allowed: 7 % slower; exit 1 if slower); with --record FILE "
    "the figures become that baseline. Timings depend on the machine and on what else runs on "
    "it: compare only with a baseline recorded on the same machine."))
def bench(ruleset: Annotated[Optional[str], typer.Argument(
              help="The ruleset to measure (leave out with --all).")] = None,
          every: Annotated[bool, typer.Option(
              "--all", help="Measure every ruleset under rules/ and print one table.")] = False,
          as_json: Annotated[bool, typer.Option(
              "--json", help="Print the figures as JSON (not with --compare or --record).")]
          = False,
          games: Annotated[Optional[int], typer.Option(
              min=1, help="Random games to play (default 30, or 8 per ruleset with --all; with "
                          "--compare, the baseline's).")]
          = None,
          players: Annotated[Optional[int], typer.Option(
              help="Players per game (default: 4, or the nearest count the ruleset allows; with "
                   "--all, the nearest count each ruleset allows).")]
          = None,
          compare: Annotated[Optional[Path], typer.Option(
              help="A baseline file (.ci/bench_baseline.json): measure again, best of --runs, "
                   "and exit 1 if decisions per second fell more than 7 % below the baseline's. "
                   "Timings depend on the machine: compare only with a baseline recorded on it.")]
          = None,
          record: Annotated[Optional[Path], typer.Option(
              help="Measure --runs times and write the best run's figures for this ruleset into "
                   "this baseline file (other rulesets' figures in it are kept).")] = None,
          runs: Annotated[int, typer.Option(
              min=1, max=9, help="Runs for --compare and --record; --compare stops at the "
                                 "first run that keeps up with the baseline.")] = 3) -> None:
    """`rulebook bench`: a table of figures, or a baseline recorded or compared with."""
    from compiler.engine.bench import MARGIN, Baseline, best, compare as judge
    if compare is not None and record is not None:
        _refuse("give --compare or --record, not both")
    if as_json and (compare is not None or record is not None):
        _refuse("--json prints a measurement; it does not go with --compare or --record")
    if every:
        if ruleset is not None:
            _refuse(f"give a ruleset or --all, not both (got `{ruleset}` and --all)")
        if compare is not None or record is not None:
            _refuse("--compare and --record take one ruleset, not --all")
        if players is not None and players < 1:
            raise typer.BadParameter("give at least 1", param_hint="--players")
        _bench_all(games, players, as_json)
        return
    if ruleset is None:
        _refuse("give a ruleset to measure, or --all for every ruleset")
    rules = _rules(ruleset)
    name = rules.ruleset.id
    if compare is None and record is None:
        measured = _measure(ruleset, games or 30, _players(rules, players))
        if as_json:
            print(measured.summary().model_dump_json(indent=2))
            return
        table = Table("measure", "value", title=f"Benchmark: {name} (CPU time)")
        for k, v in measured.report().items():
            table.add_row(k, v)
        out.print(table)
        return
    path = compare if compare is not None else record
    assert path is not None
    baseline = Baseline()
    if compare is not None or path.exists():
        text, _ = _read(str(path))
        from pydantic import ValidationError
        try:
            baseline = Baseline.model_validate_json(text)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(x) for x in first["loc"])
            _refuse(f"{path}: not a bench baseline: {where + ': ' if where else ''}{first['msg']}")
    if record is not None:
        count = _players(rules, players)
        figures = [_measure(ruleset, games or 30, count).figures() for _ in range(runs)]
        baseline.rulesets[name] = best(figures)
        baseline.machine = _machine()
        baseline.recorded = time.strftime("%Y-%m-%d")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(baseline.model_dump_json(by_alias=True, indent=2) + "\n",
                            encoding="utf-8")
        except OSError as e:
            _fail(_os_problem(path, e))
        out.print(f"{name}: {baseline.rulesets[name].decisions_per_second:g} decisions per "
                  f"second (best of {runs} runs: "
                  f"{', '.join(f'{r:g}' for r in baseline.rulesets[name].every_run)}), "
                  f"written to {path}. Timings depend on the machine: {baseline.machine}.")
        return
    was = baseline.rulesets.get(name)
    if was is None:
        _refuse(f"{path} has no figures for {name}; it has: "
                f"{', '.join(sorted(baseline.rulesets)) or 'none'}. Record them with "
                f"`rulebook bench {name} --record {path}`.")
    for given, kept, option in ((games, was.games, "--games"), (players, was.players, "--players")):
        if given is not None and given != kept:
            _refuse(f"the baseline was measured with {option} {kept}; leave {option} out to "
                    f"compare like for like")
    out.print(f"Comparing {name} with {path} (recorded {baseline.recorded or 'on an unnamed day'} "
              f"on {baseline.machine or 'an unnamed machine'}). Timings depend on the machine "
              f"and on what else runs on it: only a baseline from this machine compares.")
    tried = []
    for i in range(runs):
        tried.append(_measure(ruleset, was.games, was.players).figures())
        now = best(tried)
        verdict = judge(was, now, MARGIN)
        out.print(f"run {i + 1} of at most {runs}: {tried[-1].decisions_per_second:g} decisions "
                  f"per second")
        if not verdict.slower:
            break
    out.print(f"best of {len(tried)} run(s):")
    for line in verdict.lines:
        out.print("  " + line, markup=False)
    if verdict.slower:
        _fail(f"{name} is more than {MARGIN:.0%} slower than the baseline: "
              f"{verdict.lines[0]}", FAILED)


def _pct(x: float) -> str:
    return f"{x * 100:.1f} %"


def _rate(i: Any) -> str:
    return f"{_pct(i.estimate)} ({i.low * 100:.1f}–{i.high * 100:.1f})"


def _spread_text(s: Any) -> str:
    """Mean ± sd, then min, quartiles and max."""
    five = " ".join(f"{x:.1f}".removesuffix(".0") for x in (s.min, s.q1, s.median, s.q3, s.max))
    return f"{s.mean:.1f} ± {s.sd:.1f} [{five}]"


def _diff(d: Any, points: bool = False) -> str:
    """A difference with its interval; points: a difference of rates, in percentage points."""
    k, unit = (100, " pts") if points else (1, "")

    def signed(x: float) -> str:
        return f"{x * k:+.1f}".replace("-0.0", "+0.0")  # a rounded zero has no sign
    return (f"{signed(d.estimate)}{unit} ({signed(d.low)} to {signed(d.high)})"
            + (" *" if d.significant else ""))


def simulate_table(summary: Any, top_rules: int = 10) -> Table:
    """`rulebook simulate`: one row per figure, a column per ruleset, and with a base the
    difference (variant − base) with its 95 % interval, starred when it excludes 0; of the
    rules, the `top_rules` that applied most often (in either ruleset)."""
    v, b, d = summary.variant, summary.base, summary.differences
    last = summary.seed + summary.games - 1
    title = (f"Simulation: {v.ruleset}" + (f" against {b.ruleset}" if b else "")
             + f", {summary.games} {summary.policy} {summary.players}-player game"
             + "s" * (summary.games != 1) + (" each" if b else "")
             + f" (seeds {summary.seed}–{last})")
    table = Table(title=title, min_width=min(len(title), 150))  # the title on one line
    table.add_column("figure", no_wrap=True)
    table.add_column(v.ruleset, no_wrap=True)
    if b is not None:
        table.add_column(b.ruleset, no_wrap=True)
        table.add_column("difference (95 % interval)", no_wrap=True)

    def row(label: str, mine: str, theirs: str = "", change: str = "",
            end: bool = False) -> None:
        cells = [label, mine] + ([theirs, change] if b is not None else [])
        table.add_row(*cells, end_section=end)

    for i, seat in enumerate(v.seats):
        row(f"seat {seat.seat} ({seat.id}) wins", _rate(seat.win_rate),
            _rate(b.seats[i].win_rate) if b else "",
            _diff(d.seats[i].win_rate, points=True) if d else "", end=i == len(v.seats) - 1)
    for i, seat in enumerate(v.seats):
        row(f"seat {seat.seat} ({seat.id}) score", _spread_text(seat.score),
            _spread_text(b.seats[i].score) if b else "", _diff(d.seats[i].score) if d else "")
    row("winner's margin", _spread_text(v.margin), _spread_text(b.margin) if b else "",
        _diff(d.margin) if d else "", end=True)
    row("decisions per game", _spread_text(v.decisions), _spread_text(b.decisions) if b else "",
        _diff(d.decisions) if d else "")
    row("turns per game", _spread_text(v.turns), _spread_text(b.turns) if b else "",
        _diff(d.turns) if d else "", end=True)
    mine = {a.action: a for a in v.actions}
    theirs = {a.action: a for a in b.actions} if b else {}
    for name in sorted(set(mine) | set(theirs)):
        def per_game(a: Any) -> str:
            return f"{a.per_game.mean:.1f}" if a is not None else "0"
        row(f"`{name}` per game", per_game(mine.get(name)),
            per_game(theirs.get(name)) if b else "",
            _diff(d.actions[name]) if d else "", end=name == max(set(mine) | set(theirs)))
    ours = {r.rule: r for r in v.rules}
    others = {r.rule: r for r in b.rules} if b else {}
    for rid in _top_rules(ours, others, top_rules, d.rules if d else {}):
        shown = ours.get(rid) or others[rid]
        label = " ".join(filter(None, (shown.number, shown.title))) or rid
        row(f"rule {label}", per_game(ours.get(rid)), per_game(others.get(rid)) if b else "",
            _diff(d.rules[rid]) if d else "")
    return table


def _top_rules(ours: dict[str, Any], others: dict[str, Any], n: int,
               changed: dict[str, Any]) -> list[str]:
    """The n rules applied most often per game in either ruleset, and with a base up to n
    more whose difference excludes 0 (the largest first): a rule the variant changes may
    apply once a game. In the rulebook's order (by number, then id)."""
    def most(rid: str) -> float:
        return max(x.per_game.mean for x in (ours.get(rid), others.get(rid)) if x is not None)
    top = sorted(set(ours) | set(others), key=lambda rid: (-most(rid), rid))[:n]
    top += sorted((rid for rid, x in changed.items() if x.significant and rid not in top),
                  key=lambda rid: (-abs(changed[rid].estimate), rid))[:n]

    def order(rid: str) -> tuple[Any, ...]:
        from compiler.numbering import sort_key
        number = (ours.get(rid) or others[rid]).number or ""
        return (sort_key(number) if number else ((10 ** 9, ""),), rid)
    return sorted(top, key=order)


def _simulate_notes(summary: Any, top_rules: int = 10) -> list[str]:
    """What the table's figures mean, said once under it."""
    notes = ["Wins: a tie is a shared win (each of k winners counts 1/k); 95 % Wilson "
             "intervals in brackets. Scores, margin and length: mean ± sd "
             "[min q1 median q3 max]."]
    shown = min(top_rules, len({r.rule for s in filter(None, (summary.variant, summary.base))
                                for r in s.rules}))
    notes.append(f"Actions: moves per game (mean). Rules: moves per game in which the rule "
                 f"applied (a consequence cites it, or it decided something without one), "
                 f"for the {shown} applied most often"
                 + (" and those whose difference excludes 0" if summary.base else "")
                 + "; every rule in summary.json.")
    d = summary.differences
    if d is not None and d.paired:
        notes.append("Difference: ruleset − base, paired by seed: the mean of the per-seed "
                     "differences with a normal 95 % interval from their sd (win rates in "
                     "percentage points, from each game's win share); * = it excludes 0.")
    elif d is not None:
        notes.append("Difference: ruleset − base; win rates in percentage points (Newcombe "
                     "interval), means with a normal (Welch) interval; * = the interval "
                     "excludes 0.")
    for side in filter(None, (summary.variant, summary.base)):
        if side.shared_wins or side.no_winner:
            notes.append(f"{side.ruleset}: {side.shared_wins} game(s) won by several seats, "
                         f"{side.no_winner} won by nobody.")
    return notes


@app.command(help=(
    "Play many seeded games of a ruleset (game i plays seed S+i) and report who wins, by "
    "how much, how long a game lasts and what players do; with --against, the same seeds "
    "of a base ruleset and the differences, each with its 95 % interval. Results are the "
    "same whatever plays the games: one core, all of them, or a Ray cluster."))
def simulate(ruleset: Annotated[str, typer.Argument(help="The ruleset (a variant) to play.")],
             against: Annotated[Optional[str], typer.Option(
                 metavar="BASE", help="A ruleset to compare with, on the same seeds.")] = None,
             games: Annotated[int, typer.Option(min=1, help="Games per ruleset.")] = 100,
             players: Annotated[Optional[int], typer.Option(
                 help="Players per game (default: 4, or the nearest count the ruleset "
                      "allows).")] = None,
             seed: Annotated[int, typer.Option(help="The first game's seed.")] = 1,
             policy: Annotated[str, typer.Option(
                 help="How every seat chooses: random (uniform over the legal moves it can "
                      "see); greedy (the move leaving it furthest ahead of the best "
                      "opponent right after it, ties broken by the seed: it never takes a "
                      "move that pays later, so where some move pays points at once it takes "
                      "that one every time, and its games say little about the rest of the "
                      "rules); greedy-random (a uniform move a quarter of the time, else "
                      "greedy's: less single-minded, still no plan).")] = "random",
             workers: Annotated[Optional[int], typer.Option(
                 min=1, help="Processes playing games (default: every core); with --ray "
                             "local, the local cluster's CPUs.")] = None,
             out_dir: Annotated[Optional[Path], typer.Option(
                 "--out", metavar="DIR",
                 help="Write summary.json (schema: summary.schema.json, or `rulebook schema "
                      "simulation`) and PNG plots here.")] = None,
             ray_address: Annotated[Optional[str], typer.Option(
                 "--ray", metavar="ADDRESS",
                 help="Play on a Ray cluster: `auto`, an address, or `local` (one started "
                      "here). Needs Ray: `pip install ray`, or `pip install -e "
                      "'.\\[simulate]'` in this checkout.")] = None,
             top_rules: Annotated[int, typer.Option(
                 "--rules", min=0, metavar="N",
                 help="Rows for the N rules that applied most often (all of them are in "
                      "--json and summary.json).")] = 10,
             as_json: Annotated[bool, typer.Option(
                 "--json", help="Print the summary as JSON.")] = False) -> None:
    """`rulebook simulate`: a table of figures (or JSON), optionally files and plots."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
        TimeElapsedColumn, TimeRemainingColumn

    from compiler.engine import simulate as sim
    if policy not in sim.POLICIES:
        raise typer.BadParameter(f"no policy `{policy}`; the policies are "
                                 f"{', '.join(sorted(sim.POLICIES))}", param_hint="--policy")
    rules = _rules(ruleset)
    base = _rules(against) if against is not None else None
    players = _players(rules, players)
    if base is not None:
        brs = base.ruleset
        if not brs.players_min <= players <= brs.players_max:
            raise typer.BadParameter(f"{rules.ruleset.id} is played by {players}, but "
                                     f"{brs.title or brs.id} is for {brs.player_counts} players",
                                     param_hint="--players")
    for name, r in ((ruleset, rules), (against, base)):
        if r is not None:
            problem = r.table(players).game.seating_problem(players)
            if problem:
                raise typer.BadParameter(f"{name}: {problem}", param_hint="--players")
            sim.keep(name, r)  # compiled once here; forked workers inherit it
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise typer.BadParameter(f"{out_dir} is a file; give a folder for the summary and "
                                 f"plots", param_hint="--out")
    cores = workers or os.cpu_count() or 1
    total = games * (2 if base is not None else 1)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TimeRemainingColumn(), console=err,
                        transient=True)
    where = f"on Ray ({ray_address})" if ray_address else \
        f"on {cores} core{'s' * (cores != 1)}"
    bar = progress.add_task(f"{total} games {where}", total=total)

    def run(todo: list[Any]) -> list[Any]:
        with progress:
            def done() -> None:
                progress.advance(bar)
            if ray_address is not None:
                return sim.run_ray(todo, ray_address, done, num_cpus=workers)
            return sim.run_local(todo, cores, done)

    try:
        summary = sim.simulate(ruleset, against, players, games, seed, policy, run,
                               keep_games=out_dir is not None)
    except sim.RayUnavailable as e:
        _fail(str(e))
    except sim.Stuck as e:
        _fail(f"a simulated game got stuck: {e}")
    if out_dir is not None:
        try:
            written = sim.write(summary, out_dir)
        except OSError as e:
            _fail(_os_problem(out_dir, e))
    if as_json:
        print(summary.model_dump_json(indent=2, exclude={"variant": {"games_played"},
                                                         "base": {"games_played"}}))
    else:
        # Never wrapped or cut: wider than a narrow terminal if need be.
        wide = out if out.width >= 150 else Console(highlight=False, width=150)
        wide.print(simulate_table(summary, top_rules))
        for note in _simulate_notes(summary, top_rules):
            out.print(note, markup=False)
    if out_dir is not None:
        (err if as_json else out).print(f"Wrote {', '.join(str(p) for p in written)}.",
                                        markup=False)


def _machine(doing: str = "recording") -> str:
    """Where a baseline was measured, in words: timings only compare on the same machine."""
    import platform
    cpu = platform.processor()
    try:
        cpu = next((line.split(":", 1)[1].strip() for line in
                    Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines()
                    if line.startswith("model name")), cpu)
    except OSError:
        pass
    load = f", load average {os.getloadavg()[0]:.1f} while {doing}" \
        if hasattr(os, "getloadavg") else ""
    return f"{platform.system()} {platform.machine()}, {cpu or 'an unnamed processor'}, " \
           f"{os.cpu_count()} cores, Python {platform.python_version()}{load}"


def _flowed(doc: str) -> str:
    """A docstring as help: each paragraph one line. Typer keeps the single line breaks of
    every paragraph but the first, so a terminal wider or narrower than the source breaks
    lines in mid-sentence ("…what they" / "can see.")."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


for _command in app.registered_commands:
    _doc = _command.help or (_command.callback.__doc__ if _command.callback else None)
    if _doc:
        _command.help = _flowed(_doc)


def main() -> None:
    """The `rulebook` command: a failure of the program itself is said in one
    paragraph, never as a traceback; RULEBOOK_DEBUG=1 shows the traceback."""
    try:
        app()
    except Exception as e:  # noqa: BLE001 - the last line of defence
        if os.environ.get("RULEBOOK_DEBUG"):
            raise
        where = ""
        tb = e.__traceback__
        while tb is not None:
            where = f" ({tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno})"
            tb = tb.tb_next
        err.print(f"rulebook failed: {type(e).__name__}: {e}{where}.\n"
                  "This is a fault in rulebook, not in your input. Please report it with "
                  "the command you ran; RULEBOOK_DEBUG=1 shows the full traceback.",
                  markup=False)
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
