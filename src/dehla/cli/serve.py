"""``dehla serve``: the web tables (lobby, play with friends and bots, watch, history, scorekeeper).

``--workers N`` starts N serving processes on one host that share the port:
the parent binds the socket once and supervises the children (uvicorn's way),
each a whole server on the same PostgreSQL database (``dehla.web.cluster``).
A SQLite file is served by one process only, so ``--workers`` above 1 needs a
``postgresql://`` database.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from dehla.cli.common import seconds, whole_number_in
from dehla.errors import DehlaError
from dehla.web.serving import ServeOptions, bot_workers_for, browser_host, check_storage, make_server, supervise
from dehla.web.settings import DEFAULT_BOT_DELAY

#: Why several processes cannot share a SQLite file (said when ``--workers`` is above 1 without PostgreSQL).
SQLITE_ONE_PROCESS = (
    "--workers {n} needs --db postgresql://...: each serving process keeps its tables in memory and only "
    "PostgreSQL tells the others of every move (LISTEN/NOTIFY) and holds the tables' leases; a SQLite file is "
    "served by one process"
)


def _seconds(text: str) -> float:
    value = seconds(text)
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{value:g} must be 0..3600 seconds")
    return value


def _preset(text: str) -> str:
    """A preset's name (the daily duplicate's rules)."""
    from dehla.rules import PRESETS

    if text not in PRESETS:
        raise argparse.ArgumentTypeError(f"no preset {text!r}; presets are: {', '.join(PRESETS)}")
    return text


def _lease(text: str) -> float:
    value = _seconds(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value:g} must be at least 1 second")
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
            "kept in a database (SQLite file by default) and resume after a restart. With a PostgreSQL "
            "database any number of processes, here (--workers) or on other machines, serve the same tables."
        ),
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)"
    )
    parser.add_argument("--port", type=whole_number_in(0, 65535), default=8000, help="port (default 8000)")
    parser.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="database: a SQLite file path (default dehla-web.sqlite3), sqlite:///PATH[?sync=normal] "
        "or postgresql://USER:PASSWORD@HOST/DBNAME",
    )
    parser.add_argument(
        "--workers",
        type=whole_number_in(1, 256),
        default=1,
        metavar="N",
        help="serving processes sharing the port on this host (default 1; more need postgresql://)",
    )
    parser.add_argument(
        "--bot-workers",
        type=whole_number_in(0, 256),
        default=None,
        metavar="N",
        help="worker processes the search bots (hard, expert) think in, per serving process "
        "(default: one less than the CPU count, divided by --workers; 0 thinks in threads "
        "of the server)",
    )
    parser.add_argument(
        "--lease-seconds",
        type=_lease,
        default=None,
        metavar="SECONDS",
        help="with PostgreSQL: how long a silent process keeps its tables before another takes them over (default 5)",
    )
    parser.add_argument(
        "--bot-delay",
        type=_seconds,
        default=DEFAULT_BOT_DELAY,
        metavar="SECONDS",
        help=f"pause before each bot move, so people can follow (default {DEFAULT_BOT_DELAY:g})",
    )
    parser.add_argument(
        "--hand-pause",
        type=_seconds,
        default=20.0,
        metavar="SECONDS",
        help="longest wait between hands for people to read the summary (default 20)",
    )
    _add_daily_options(parser)
    parser.add_argument(
        "--allow-origin",
        type=_origin,
        action="append",
        default=[],
        metavar="URL",
        help="a web origin besides this server's own whose pages may open table sockets, e.g. "
        "https://cards.example.org (repeatable; the server's own origin is always allowed)",
    )
    parser.set_defaults(run=run)


def _add_daily_options(parser: argparse.ArgumentParser) -> None:
    """The daily duplicate's options (``dehla.web.daily``)."""
    parser.add_argument(
        "--daily-deals",
        type=whole_number_in(1, 12),
        default=4,
        metavar="N",
        help="deals a day in the daily duplicate, the same for everyone (default 4)",
    )
    parser.add_argument(
        "--daily-preset",
        type=_preset,
        default="pagat",
        metavar="PRESET",
        help="the rules of the daily duplicate's deals (default pagat)",
    )


def serve_options(args: argparse.Namespace) -> ServeOptions:
    """The serving processes' options from the command line."""
    from dehla.web.cluster import DEFAULT_LEASE_SECONDS

    bot_workers = bot_workers_for(args.workers) if args.bot_workers is None else args.bot_workers
    return ServeOptions(
        db=args.db,
        bot_delay=args.bot_delay,
        hand_pause=args.hand_pause,
        allowed_origins=tuple(args.allow_origin),
        bot_workers=bot_workers,
        lease_seconds=args.lease_seconds or DEFAULT_LEASE_SECONDS,
        daily_deals=args.daily_deals,
        daily_preset=args.daily_preset,
    )


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401
    except ImportError as error:  # pragma: no cover - the web dependencies are part of the package
        raise DehlaError(f"the web server needs its dependencies ({error.name}): pip install 'dehla[web]'") from None
    from dehla.web.storage import PostgresStorage, open_storage

    if args.workers > 1 and not isinstance(open_storage(args.db), PostgresStorage):
        raise DehlaError(SQLITE_ONE_PROCESS.format(n=args.workers))
    asyncio.run(check_storage(args.db))
    options = serve_options(args)
    if args.workers > 1:
        return supervise(options, args.host, args.port, args.workers, _say)
    _say(f"open http://{browser_host(args.host)}:{args.port}/ in a browser (Ctrl-C stops)")
    server = make_server(options, host=args.host, port=args.port)
    server.run()
    return 0 if server.started else 1


def _say(text: str) -> None:
    print(f"dehla serve: {text}", flush=True)


__all__ = ["add_parser", "run", "serve_options", "SQLITE_ONE_PROCESS"]
