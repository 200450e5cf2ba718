"""The judge's JSON API (FastAPI): request and reply models, limits, errors as JSON.

All the judging is in service.py; here only HTTP: bodies of at most 1 MB, every error
`{"error": {code, message, problems}}` and never a traceback, rulesets only from rules/.
"""
from __future__ import annotations

import re
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from compiler import links
from compiler.engine.reading import json_path
from compiler.judge import service
from compiler.judge.models import (
    AdjudicateIn, AdjudicationReply, ErrorReply, ExampleIn, ExampleReply, FitsIn, FitsReply,
    MovesIn, MovesReply, NewIn, PositionIn, PositionReply, RecordIn, RecordReply, RulesetInfo,
    RulesetList,
)
from compiler.judge.service import JudgeError

MAX_BODY = 1_000_000
# JSON nested deeper than this is refused before it is parsed: Python's parser recurses, and
# a megabyte of `[[[[…` would otherwise fail deep inside it (a position nests 6 deep).
MAX_DEPTH = 64
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
STATIC = Path(__file__).parent / "static"


def too_deep(body: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether a JSON body nests arrays and objects more than `limit` deep (brackets inside
    strings do not count)."""
    depth = 0
    for b in _STRINGS.sub(b"", body).translate(None, _NOT_BRACKETS):
        depth += 1 if b in b"[{" else -1
        if depth > limit:
            return True
    return False


def _error(status: int, code: str, message: str,
           problems: list[tuple[str, str]] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "problems": [
        {"path": p, "message": m} for p, m in problems or []]}}, status_code=status)


class BodyLimit:
    """Refuse a body over MAX_BODY (413): by its Content-Length, and by counting what is
    streamed, since a client may send no length or a false one."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        too_big = _error(413, "too-large", f"the request is over {self.limit} bytes")
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    if int(value) > self.limit:
                        return await too_big(scope, receive, send)
                except ValueError:
                    return await _error(400, "bad-request", "Content-Length is not a number")(
                        scope, receive, send)
        # Read the body first, counting (a client may send no length or a false one), then
        # hand the application the body it was given.
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return await self.app(scope, receive, send)
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                return await too_big(scope, receive, send)
        if too_deep(body):
            return await _error(400, "too-deep", f"the request nests arrays or objects more "
                                f"than {MAX_DEPTH} deep; a position needs fewer than 10")(
                scope, receive, send)
        given = False

        async def replay() -> Any:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()
        await self.app(scope, replay, send)


def rebased(root: str) -> type[JSONResponse]:
    """A JSON reply whose rulebook URLs start at `root` (the rulebook this app serves, or a
    live one) rather than at links.site_url(), where the engine's rulings point. One place
    for every URL of every reply: rule links in rulings and their text, examples, rulebooks."""
    site = links.site_url().encode()
    to = root.encode()

    class Rebased(JSONResponse):
        def render(self, content: Any) -> bytes:
            body = super().render(content)
            return body if to == site else body.replace(site, to)
    return Rebased


def create_app(rulebook_dir: Path | None = None, rulebook_url: str | None = None,
               warm: bool = False) -> FastAPI:
    """The judge: the API under /api/, the page at /, the rulebook at /rulebook/ if given.

    Rule links point into the rulebook this app serves (/rulebook/…); else at `rulebook_url`
    (`rulebook serve`'s live rulebook); else at links.site_url(). With `warm`, every ruleset
    is compiled in a background thread as the app starts, so first questions wait less."""
    served = rulebook_dir is not None and Path(rulebook_dir).is_dir()
    root = "/rulebook/" if served else (rulebook_url.rstrip("/") + "/" if rulebook_url
                                         else links.site_url())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if warm:
            threading.Thread(target=service.warm, daemon=True, name="judge-warm").start()
        yield

    app = FastAPI(title="The judge's table", docs_url=None, redoc_url=None,
                  description="Set up a position of any ruleset in rules/ and get the ruling.",
                  default_response_class=rebased(root), lifespan=lifespan,
                  responses={400: {"model": ErrorReply}, 404: {"model": ErrorReply},
                             413: {"model": ErrorReply}, 422: {"model": ErrorReply}})

    @app.exception_handler(JudgeError)
    async def judge_error(_: Request, e: JudgeError) -> JSONResponse:
        return _error(e.status, e.code, e.message, e.problems)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        problems = []
        for p in e.errors():
            if p.get("type") == "json_invalid":
                problems.append(("(the whole request)", "not JSON: " +
                                 str((p.get("ctx") or {}).get("error", p["msg"]))))
                continue
            loc = tuple(p.get("loc", ()))[1:] if p.get("loc", ("",))[0] == "body" \
                else tuple(p.get("loc", ()))
            problems.append((json_path(loc) if loc else "(the whole request)", p["msg"]))
        return _error(422, "bad-request", "the request is not what this endpoint takes",
                      problems)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, e: StarletteHTTPException) -> JSONResponse:
        if e.status_code == 400 and "parsing the body" in str(e.detail):
            # json.loads failed other than by syntax (that is a 422 with its place)
            return _error(400, "bad-request", "the body cannot be read as JSON: it must be "
                          "UTF-8, with numbers of at most 4300 digits")
        return _error(e.status_code, "not-found" if e.status_code == 404 else "http",
                      str(e.detail))

    @app.exception_handler(Exception)
    async def unexpected(_: Request, e: Exception) -> JSONResponse:
        return _error(500, "internal", f"the judge could not answer this: "
                      f"{type(e).__name__}: {str(e)[:300]}")

    @app.get("/api/rulesets", response_model=RulesetList)
    def rulesets() -> dict[str, Any]:
        return {"rulesets": service.catalogue()}

    @app.get("/api/rulesets/{ruleset}", response_model=RulesetInfo)
    def ruleset(ruleset: str) -> dict[str, Any]:
        return service.describe(ruleset)

    @app.get("/api/schema", response_model=dict[str, Any])
    def schema() -> dict[str, Any]:
        from compiler.engine.formats import position_schema
        return position_schema()

    @app.post("/api/positions/new", response_model=PositionReply)
    def new(body: NewIn) -> PositionReply:
        return service.reply(service.new_position(body.ruleset, body.players, body.seed))

    @app.post("/api/positions/example", response_model=ExampleReply)
    def example(body: ExampleIn) -> ExampleReply:
        pos, ex = service.example_position(body.ruleset, body.example)
        return ExampleReply(**dict(service.reply(pos)), example=ex)

    @app.post("/api/positions/record", response_model=RecordReply)
    def record(body: RecordIn) -> RecordReply:
        pos, rec = service.record_position(body.ruleset, body.record, body.upto)
        return RecordReply(**dict(service.reply(pos)), record=rec)

    @app.post("/api/positions/check", response_model=PositionReply)
    def check(body: PositionIn) -> PositionReply:
        return service.reply(service.position_of(body.ruleset, body.position))

    @app.post("/api/moves", response_model=MovesReply)
    def moves(body: MovesIn) -> MovesReply:
        pos = service.seen_by(service.position_of(body.ruleset, body.position), body.seat)
        found = service.moves_at(pos, body.at)
        return MovesReply(situation=service.situation(pos), moves=found, count=len(found))

    @app.post("/api/fits", response_model=FitsReply)
    def fits(body: FitsIn) -> FitsReply:
        pos = service.position_of(body.ruleset, body.position)
        return FitsReply(placements=service.fits(pos, body.tile, body.face))

    @app.post("/api/adjudicate", response_model=AdjudicationReply)
    def adjudicate(body: AdjudicateIn) -> AdjudicationReply:
        pos = service.seen_by(service.position_of(body.ruleset, body.position), body.seat)
        return service.adjudicate(pos, body.move)

    @app.post("/api/draw", response_class=Response,
              responses={200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}},
                               "description": "The board, as the rulebook draws it."}})
    def draw(body: PositionIn) -> Response:
        pos = service.position_of(body.ruleset, body.position)
        return Response(service.svg_of(pos, interactive=False), media_type="image/svg+xml")

    if (STATIC / "index.html").is_file():
        from fastapi.staticfiles import StaticFiles

        @app.get("/", include_in_schema=False)
        def page() -> FileResponse:
            return FileResponse(STATIC / "index.html")
        app.mount("/judge-assets", StaticFiles(directory=STATIC), name="judge-assets")
    if served:
        from fastapi.staticfiles import StaticFiles

        @app.get(f"/rulebook/{links.JUDGE_FILE}", include_in_schema=False)
        def judge_here() -> dict[str, bool]:
            """The served rulebook's pages ask this to show their "Ask the judge" links."""
            return {"answers": True}
        app.mount("/rulebook", StaticFiles(directory=rulebook_dir, html=True), name="rulebook")

    # A card game's description draws every card (~0.5 MB of SVG): it compresses tenfold.
    app.add_middleware(GZipMiddleware, minimum_size=2000)
    app.add_middleware(BodyLimit)  # type: ignore[arg-type]
    return app
