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
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any

from dehla.errors import DehlaError
from dehla.web.settings import DEFAULT_BOT_DELAY

if TYPE_CHECKING:
    import uvicorn

#: Why several processes cannot share a SQLite file (said when ``--workers`` is above 1 without PostgreSQL).
SQLITE_ONE_PROCESS = (
    "--workers {n} needs --db postgresql://...: each serving process keeps its tables in memory and only "
    "PostgreSQL tells the others of every move (LISTEN/NOTIFY) and holds the tables' leases; a SQLite file is "
    "served by one process"
)


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


def _count(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} must be {low}..{high}")
        return value

    return parse


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
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; "
                                                             "0.0.0.0 for every interface)")
    parser.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="database: a SQLite file path (default dehla-web.sqlite3), sqlite:///PATH[?sync=normal] "
                             "or postgresql://USER:PASSWORD@HOST/DBNAME")
    parser.add_argument("--workers", type=_count(1, 256), default=1, metavar="N",
                        help="serving processes sharing the port on this host (default 1; more need postgresql://)")
    parser.add_argument("--bot-workers", type=_count(0, 256), default=None, metavar="N",
                        help="worker processes the search bots (hard, expert) think in, per serving process "
                             "(default: one less than the CPU count, divided by --workers; 0 thinks in threads "
                             "of the server)")
    parser.add_argument("--lease-seconds", type=_lease, default=None, metavar="SECONDS",
                        help="with PostgreSQL: how long a silent process keeps its tables before another "
                             "takes them over (default 5)")
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


@dataclass(frozen=True)
class ServeOptions:
    """What each serving process needs, as plain data (a child process is given it)."""

    db: str | None
    bot_delay: float
    hand_pause: float
    allowed_origins: tuple[str, ...]
    bot_workers: int
    lease_seconds: float


def _options(args: argparse.Namespace) -> ServeOptions:
    """The serving processes' options from the command line."""
    from dehla.web.cluster import DEFAULT_LEASE_SECONDS

    bot_workers = args.bot_workers
    if bot_workers is None:
        # a core is left for serving: a pool as large as the machine would starve the tables' messages
        bot_workers = max(1, ((os.cpu_count() or 1) - 1) // args.workers)
    return ServeOptions(db=args.db, bot_delay=args.bot_delay, hand_pause=args.hand_pause,
                        allowed_origins=tuple(args.allow_origin), bot_workers=bot_workers,
                        lease_seconds=args.lease_seconds or DEFAULT_LEASE_SECONDS)


def _server(options: ServeOptions, host: str = "127.0.0.1", port: int = 8000) -> uvicorn.Server:
    """A server of the web app; ``host`` and ``port`` are uvicorn's defaults (a child serves the socket it is given)."""
    import uvicorn

    from dehla.web.app import WebSettings, create_app
    from dehla.web.storage import open_storage

    settings = WebSettings(bot_delay=options.bot_delay, hand_pause=options.hand_pause,
                           allowed_origins=options.allowed_origins, bot_workers=options.bot_workers,
                           lease_seconds=options.lease_seconds, prepare_solver=True,
                           address=f"{socket.gethostname()}:{port} pid {os.getpid()}")
    app = create_app(open_storage(options.db), settings)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=65536,
                            ws_per_message_deflate=False, ws="websockets-sansio" if _has_sansio() else "auto",
                            lifespan="on")
    return uvicorn.Server(config)


def _child(options: ServeOptions, sock: socket.socket) -> None:
    """One of ``--workers`` serving processes: a whole server on the socket the supervisor bound."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor says when to stop (SIGTERM)
    _server(options).run(sockets=[sock])


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401
    except ImportError as error:  # pragma: no cover - the web dependencies are part of the package
        raise DehlaError(f"the web server needs its dependencies ({error.name}): pip install 'dehla[web]'") from None
    from dehla.web.storage import PostgresStorage, open_storage

    if args.workers > 1 and not isinstance(open_storage(args.db), PostgresStorage):
        raise DehlaError(SQLITE_ONE_PROCESS.format(n=args.workers))
    asyncio.run(_check_storage(args.db))
    options = _options(args)
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    if args.workers > 1:
        return _supervise(args, options, shown)
    print(f"dehla serve: open http://{shown}:{args.port}/ in a browser (Ctrl-C stops)", flush=True)
    server = _server(options, host=args.host, port=args.port)
    server.run()
    return 0 if server.started else 1


def _supervise(args: argparse.Namespace, options: ServeOptions, shown: str) -> int:
    """Bind the port once, start ``--workers`` children on it, restart one that dies, stop them all on a signal."""
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as error:
        raise DehlaError(f"cannot listen on {args.host}:{args.port}: {error.strerror}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    context = multiprocessing.get_context("spawn")
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start() -> BaseProcess:
        child = context.Process(target=_child, args=(options, sock), name="dehla-serve", daemon=False)
        child.start()
        return child

    children = [start() for _ in range(args.workers)]
    print(f"dehla serve: {args.workers} processes on http://{shown}:{args.port}/ (Ctrl-C stops)", flush=True)
    while not stopping:
        time.sleep(0.5)
        for index, child in enumerate(children):
            if not child.is_alive() and not stopping:
                print(f"dehla serve: process {child.pid} ended (code {child.exitcode}); starting another", flush=True)
                children[index] = start()
    for child in children:
        if child.is_alive():
            child.terminate()  # SIGTERM: uvicorn closes its sockets, the service releases its tables' leases
    for child in children:
        child.join(15)
        if child.is_alive():
            child.kill()
    sock.close()
    return 0


def _has_sansio() -> bool:
    try:
        from uvicorn.protocols.websockets import websockets_sansio_impl  # noqa: F401
    except ImportError:
        return False
    return True


__all__ = ["add_parser", "run", "SQLITE_ONE_PROCESS"]
