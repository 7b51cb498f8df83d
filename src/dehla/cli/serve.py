"""``dehla serve``: the web tables (lobby, play with friends and bots, watch, history, scorekeeper)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from dehla.errors import DehlaError
from dehla.web.settings import DEFAULT_BOT_DELAY


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port {text!r} is not a whole number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port {value} must be 0..65535")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{value:g} must be 0..3600 seconds")
    return value


def _origin(text: str) -> str:
    from dehla.web.security import normalise_origin

    origin = normalise_origin(text)
    if origin is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not an origin such as https://cards.example.org")
    return origin


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help="run the web tables: play in a browser with friends and bots",
        description=(
            "Run the web server: a lobby to create or join tables, tables for every preset with bots in the "
            "empty seats, watching, history with replays and record downloads, and a scorekeeper. Tables are "
            "kept in a database (SQLite file by default) and resume after a restart."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; "
                                                             "0.0.0.0 for every interface)")
    parser.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="database: a SQLite file path (default dehla-web.sqlite3), sqlite:///PATH[?sync=normal] "
                             "or postgresql://USER:PASSWORD@HOST/DBNAME")
    parser.add_argument("--bot-delay", type=_seconds, default=DEFAULT_BOT_DELAY, metavar="SECONDS",
                        help=f"pause before each bot move, so people can follow (default {DEFAULT_BOT_DELAY:g})")
    parser.add_argument("--hand-pause", type=_seconds, default=20.0, metavar="SECONDS",
                        help="longest wait between hands for people to read the summary (default 20)")
    parser.add_argument("--allow-origin", type=_origin, action="append", default=[], metavar="URL",
                        help="a web origin besides this server's own whose pages may open table sockets, e.g. "
                             "https://cards.example.org (repeatable; the server's own origin is always allowed)")
    parser.set_defaults(run=run)


async def _check_storage(url: str | None) -> None:
    from dehla.web.storage import open_storage

    storage = open_storage(url)
    await storage.open()
    await storage.close()


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from dehla.web.app import WebSettings, create_app
        from dehla.web.storage import open_storage
    except ImportError as error:  # pragma: no cover - the web dependencies are part of the package
        raise DehlaError(f"the web server needs its dependencies ({error.name}): pip install 'dehla[web]'") from None
    asyncio.run(_check_storage(args.db))
    settings = WebSettings(bot_delay=args.bot_delay, hand_pause=args.hand_pause,
                           allowed_origins=tuple(args.allow_origin))
    app = create_app(open_storage(args.db), settings)
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    print(f"dehla serve: open http://{shown}:{args.port}/ in a browser (Ctrl-C stops)", flush=True)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536,
                            ws_per_message_deflate=False, ws="websockets-sansio" if _has_sansio() else "auto",
                            lifespan="on")
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 1


def _has_sansio() -> bool:
    try:
        from uvicorn.protocols.websockets import websockets_sansio_impl  # noqa: F401
    except ImportError:
        return False
    return True


__all__ = ["add_parser", "run"]
