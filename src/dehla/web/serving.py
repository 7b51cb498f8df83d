"""Running the web app: one server process, or several on one host sharing the port under a supervisor.

``dehla serve`` is the door; this is what it runs.  With several processes the
supervisor binds the socket once and starts the children on it (uvicorn's way),
each a whole server on the same PostgreSQL database (``dehla.web.cluster``); a
child that dies is replaced, and a signal stops them all.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING

from dehla.errors import DehlaError

if TYPE_CHECKING:
    import uvicorn

__all__ = ["ServeOptions", "bot_workers_for", "browser_host", "check_storage", "make_server", "supervise"]


@dataclass(frozen=True)
class ServeOptions:
    """What each serving process needs, as plain data (a child process is given it)."""

    db: str | None
    bot_delay: float
    hand_pause: float
    allowed_origins: tuple[str, ...]
    bot_workers: int
    lease_seconds: float
    #: The daily duplicate: deals a day and their preset.
    daily_deals: int = 4
    daily_preset: str = "pagat"


def bot_workers_for(processes: int) -> int:
    """The search bots' worker processes for each of ``processes`` serving processes on this machine."""
    # a core is left for serving: a pool as large as the machine would starve the tables' messages
    return max(1, ((os.cpu_count() or 1) - 1) // processes)


async def check_storage(url: str | None) -> None:
    """Open and close the database at ``url``: a wrong address or a database too new fails here, before serving."""
    from dehla.web.storage import open_storage

    storage = open_storage(url)
    await storage.open()
    await storage.close()


def make_server(options: ServeOptions, host: str = "127.0.0.1", port: int = 8000) -> uvicorn.Server:
    """A server of the web app; ``host`` and ``port`` are uvicorn's defaults (a child serves the socket it is given)."""
    import uvicorn

    from dehla.web.app import WebSettings, create_app
    from dehla.web.daily import DailySettings
    from dehla.web.storage import open_storage

    settings = WebSettings(
        bot_delay=options.bot_delay,
        hand_pause=options.hand_pause,
        allowed_origins=options.allowed_origins,
        bot_workers=options.bot_workers,
        lease_seconds=options.lease_seconds,
        prepare_solver=True,
        daily=DailySettings(deals=options.daily_deals, preset=options.daily_preset),
        address=f"{socket.gethostname()}:{port} pid {os.getpid()}",
    )
    app = create_app(open_storage(options.db), settings)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        ws_per_message_deflate=False,
        ws="websockets-sansio" if _has_sansio() else "auto",
        lifespan="on",
    )
    return uvicorn.Server(config)


def _child(options: ServeOptions, sock: socket.socket) -> None:
    """One of the serving processes: a whole server on the socket the supervisor bound."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor says when to stop (SIGTERM)
    make_server(options).run(sockets=[sock])


def supervise(options: ServeOptions, host: str, port: int, processes: int, say: Callable[[str], None]) -> int:
    """Bind the port once, start ``processes`` children on it, restart one that dies, stop them all on a signal.

    ``say`` is told when the children have started (the address to open) and when one is replaced.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        raise DehlaError(f"cannot listen on {host}:{port}: {error.strerror}") from None
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

    children = [start() for _ in range(processes)]
    say(f"{processes} processes on http://{browser_host(host)}:{port}/ (Ctrl-C stops)")
    while not stopping:
        time.sleep(0.5)
        for index, child in enumerate(children):
            if not child.is_alive() and not stopping:
                say(f"process {child.pid} ended (code {child.exitcode}); starting another")
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


def browser_host(host: str) -> str:
    """The host to open in a browser: ``localhost`` for the loopback and every-interface addresses."""
    return "localhost" if host in ("127.0.0.1", "0.0.0.0") else host


def _has_sansio() -> bool:
    try:
        from uvicorn.protocols.websockets import websockets_sansio_impl  # noqa: F401
    except ImportError:
        return False
    return True
