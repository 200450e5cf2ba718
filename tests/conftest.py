"""Shared fixtures: the Deluxe ruleset, compiled once per test process (`tests/compiled.py`;
the session ends by checking that no test changed what it shares); the built rulebook
and the Markdown it was built from (built once per session: ~30 s, so every test that
reads it joins one xdist group, "rulebook"); that site served as plain files, as any web host would; the judge served over
HTTP and a Chromium to look at them. And how the session keeps its garbage collector from
walking what it holds for good (`pytest_configure`, `pytest_runtest_teardown`)."""

from __future__ import annotations

import gc
import os
import re
import shutil
import socket
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.engine.collector import YOUNG
from compiler.engine.position import Rules
from compiler.ir import model as m
from compiler.load import RULES_DIR, load_files
from tests import compiled

DELUXE = RULES_DIR / "trian_deluxe"

# Tests between two settlings of what the session holds (see `pytest_runtest_teardown`).
SETTLE_EVERY = 50
_tests_run = 0
# Set (to anything), the shared rulesets are checked after every test, not only at the end:
# slower (~0.1 s a test), but the first test failing is the one that changed a ruleset.
CHECK_SHARED_EACH = "RULEBOOK_CHECK_SHARED"


def pytest_configure(config: pytest.Config) -> None:
    """The youngest objects are collected every `YOUNG` allocations, as while games are
    played (engine/collector.py), not Python's 700: a test plays or builds, making
    thousands of objects that die within it, and a collection every 700 mostly walked
    those still alive. Measured on 2 workers: the suite 144 -> 135 s, the 1,000 random
    games 30 -> 26 s. No test plays or judges differently."""
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])


@pytest.hookimpl(wrapper=True)  # before xdist's own hook, which reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    """Every test that reads the built rulebook, however it reaches it (`site`,
    `static_site`, …), runs on the worker that built it: built once, not once a worker."""
    for item in items:
        if "site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("rulebook"))
    return (yield)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: object, ids: list[str]) -> None:
    """Under `--dist loadgroup`, a worker's tests come back with their group written into
    their ids; when none does, xdist has stopped grouping (a pytest it does not follow), and
    the session stops here rather than build the rulebook on every worker unnoticed."""
    if getattr(node, "config").getoption("dist") == "loadgroup" and not any(
            "@" in i for i in ids):
        raise pytest.UsageError(
            "pytest-xdist grouped no test: this pytest and pytest-xdist do not work "
            "together (see the pins of the test extra in pyproject.toml)")


@pytest.hookimpl(trylast=True)  # after the test's fixtures are torn down
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """Every `SETTLE_EVERY` tests, what is still alive is collected once and then left out of
    later collections (`gc.freeze`). With RULEBOOK_CHECK_SHARED set, the shared rulesets
    are checked after each test.

    A worker holds dozens of compiled rulesets and built pages for the rest of the session
    (caches, session fixtures): hundreds of thousands of objects, which every full collection
    walked again, about a third of a worker's time. Frozen objects are still freed when no
    longer referenced; only a cycle among them stays until the worker ends.
    """
    global _tests_run
    _tests_run += 1
    if _tests_run % SETTLE_EVERY == 0:
        gc.collect()
        gc.freeze()
    if os.environ.get(CHECK_SHARED_EACH):
        _fail_if_shared_changed()


@pytest.fixture(scope="session", autouse=True)
def shared_rulesets_unchanged() -> Iterator[None]:
    """When the session ends (on every xdist worker), each ruleset `tests/compiled.py`
    handed out is still what it compiled: a test that changed one fails the session here,
    rather than every later test reading the change unnoticed."""
    yield
    _fail_if_shared_changed()


def _fail_if_shared_changed() -> None:
    if changed := compiled.changed():
        pytest.fail(f"a test changed the shared ruleset(s) {', '.join(changed)} of "
                    f"tests/compiled.py, which tests must only read: that test must compile "
                    f"its own (load_ruleset) or change a copy (model_copy(deep=True)). Seen "
                    f"when the session ended; {CHECK_SHARED_EACH}=1 checks after every test, "
                    f"so the first to fail is the one", pytrace=False)


@pytest.fixture(scope="session")
def deluxe() -> m.Ruleset:
    """The Deluxe ruleset, shared (see `tests/compiled.py`): read it, never change it."""
    return compiled.ruleset(DELUXE.name)


@pytest.fixture(scope="session")
def rules() -> Rules:
    """The Deluxe ruleset's `Rules`, shared (see `tests/compiled.py`)."""
    return compiled.rules(DELUXE.name)


def compile_errors(tmp_path: Path, **files: str) -> list:
    """Write the given files as a ruleset folder, load it, return its diagnostics."""
    for name, text in files.items():
        (tmp_path / f"{name}.rules").write_text(textwrap.dedent(text), encoding="utf-8")
    try:
        load_files(sorted(tmp_path.glob("*.rules")))
    except CompileError as e:
        return e.diagnostics
    return []


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rulebook built once for the session (strict: a warning fails the build), and
    beside it (`markdown`) the Markdown it was built from."""
    from mkdocs.config import load_config

    from compiler.load import REPO_ROOT
    from compiler.rulebook.build import build_site

    root = tmp_path_factory.mktemp("rulebook")
    built = build_site(strict=True, site_dir=root / "site")
    # Kept as this build wrote it: a later build of one book (`--only`) writes the same folder.
    docs = load_config(config_file=str(REPO_ROOT / "mkdocs.yml")).docs_dir
    shutil.copytree(docs, root / "markdown", ignore=_not_markdown)
    return built


def _not_markdown(folder: str, names: list[str]) -> list[str]:
    return [name for name in names if not name.endswith(".md") and
            not os.path.isdir(os.path.join(folder, name))]


@pytest.fixture(scope="session")
def markdown(site: Path) -> Path:
    """The folder of Markdown the session's rulebook was built from: every page as generated
    from the rules, and the guides written beside them."""
    return site.parent / "markdown"


# In a built page: a script or style element (its text is not markup), else a start tag
# (quoted values may hold `>`); in a tag, a quoted value, else a value the minifier left bare.
_ELEMENT = re.compile(r"""<(script|style)\b[^>]*>.*?</\1>|<[a-zA-Z](?:"[^"]*"|'[^']*'|[^<>"'])*>""",
                      re.S)
_BARE = re.compile(r"""(?<=\s)([^\s"'<>/=]+)=([^\s"'<>=`]+)|"[^"]*"|'[^']*'""")


def built_page(path: Path) -> str:
    """A page of the built site with every attribute value in quotes, as its templates write
    it. The minifier leaves out the quotes a browser does not need (`<a href=#x>`); a test
    looks for `href="#x"` and must find it either way, not pass because it finds nothing."""
    html = path.read_text(encoding="utf-8")

    def quoted(attribute: re.Match[str]) -> str:
        return attribute[0] if attribute[1] is None else f'{attribute[1]}="{attribute[2]}"'

    def requoted(element: re.Match[str]) -> str:
        text = element[0]
        end = text.index(">") + 1 if element[1] else len(text)
        return _BARE.sub(quoted, text[:end]) + text[end:]

    return _ELEMENT.sub(requoted, html)


@contextmanager
def files_served(root: Path) -> Iterator[str]:
    """The folder `root` served as plain files on a free local port, as any web host would
    serve it; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        thread.join(5)
        server.server_close()


@pytest.fixture(scope="module")
def static_site(site: Path) -> Iterator[str]:
    """The built site served as plain files, as any web host would serve it."""
    with files_served(site) as url:
        yield url


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def chromium() -> str | None:
    """The browser the judge's tests drive: RULEBOOK_CHROMIUM, else the system's Chromium."""
    for candidate in (os.environ.get("RULEBOOK_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One Chromium per module. Without one the test is skipped, except on CI (env CI or
    RULEBOOK_REQUIRE_BROWSER set: .ci/run installs Chromium), where that is a failure."""
    playwright_api = pytest.importorskip("playwright.sync_api", reason=(
        "Playwright is not installed: `.venv/bin/pip install -e '.[test]'`"))
    executable = chromium()
    if executable is None:
        why = ("no Chromium found: install Debian's `chromium` package (apt-get install "
               "chromium), or set RULEBOOK_CHROMIUM to a Chromium executable")
        if os.environ.get("CI") or os.environ.get("RULEBOOK_REQUIRE_BROWSER"):
            pytest.fail(why)
        pytest.skip(why)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield b
        b.close()


@contextmanager
def served(app: object) -> Iterator[str]:
    """`app` served by uvicorn on a free local port in a background thread, as `rulebook
    judge` would serve it; yields its base URL."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the judge's server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
