"""Where the arena's work runs: this process, a pool of local processes, or a Ray cluster.

Every executor runs the same ``play_task`` on the same tasks; only the place
and the order of completion differ, and the report sorts the legs, so the
results are identical whatever the executor.
"""

from __future__ import annotations

import multiprocessing
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from dehla.arena.games import ArenaConfig, LegResult, Task, play_task
from dehla.errors import DehlaError

__all__ = ["run_local", "run_ray", "check_ray_address", "ProgressCallback"]

#: Called with the number of legs just finished.
ProgressCallback = Callable[[int], None]

#: Seconds to wait for a TCP connection to a Ray address before calling it unreachable.
RAY_CONNECT_TIMEOUT = 5.0


def run_local(
    config: ArenaConfig, tasks: Sequence[Task], workers: int, on_progress: ProgressCallback | None = None
) -> list[LegResult]:
    """Run the tasks here (``workers`` = 1) or over ``workers`` local processes."""
    legs: list[LegResult] = []
    if workers <= 1:
        for task in tasks:
            done = play_task(config, task)
            legs.extend(done)
            if on_progress is not None:
                on_progress(len(done))
        return legs
    # "spawn": workers start clean (no copied threads or locks from the progress display).
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    try:
        pending: set[Future[list[LegResult]]] = {pool.submit(play_task, config, task) for task in tasks}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                done = future.result()
                legs.extend(done)
                if on_progress is not None:
                    on_progress(len(done))
    except BrokenProcessPool:
        raise DehlaError("an arena worker process died unexpectedly (out of memory?); nothing was written") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return legs


def _host_port(address: str) -> tuple[str, int] | None:
    """The TCP endpoint a Ray address names (``HOST:PORT`` or ``ray://HOST:PORT``), or ``None`` for ``auto``."""
    text = address.strip()
    default_port = 6379
    if text.startswith("ray://"):
        text = text[len("ray://") :]
        default_port = 10001
    if text in ("auto", "local", ""):
        return None
    host, _, port_text = text.rpartition(":")
    if not host:
        return text, default_port
    host = host.strip("[]")
    try:
        port = int(port_text)
    except ValueError:
        raise DehlaError(f"--address {address!r} is not HOST:PORT (for example 127.0.0.1:6379)") from None
    if not 0 < port < 65536:
        raise DehlaError(f"--address {address!r}: the port must be 1..65535")
    return host, port


def check_ray_address(address: str, timeout: float = RAY_CONNECT_TIMEOUT) -> None:
    """Fail fast, with a clear message, when nothing listens at the Ray address."""
    endpoint = _host_port(address)
    if endpoint is None:
        return
    host, port = endpoint
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise DehlaError(
            f"cannot reach a Ray cluster at {address}: {reason}. Start one with 'ray start --head' "
            "or leave out --address to run Ray on this machine"
        ) from None


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise DehlaError("the ray backend needs Ray: pip install 'dehla[ray]' (or pip install ray)") from None
    return ray


def run_ray(
    config: ArenaConfig,
    tasks: Sequence[Task],
    address: str | None,
    workers: int | None = None,
    on_progress: ProgressCallback | None = None,
) -> list[LegResult]:
    """Run the tasks on Ray: the cluster at ``address``, the one this process is already connected to, or a new
    local one (with ``workers`` CPUs if given).  A Ray instance started here is shut down afterwards.
    """
    ray = _ray()
    started_here = False
    if not ray.is_initialized():
        if address:
            check_ray_address(address)
        options: dict[str, str | int | bool] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": "ERROR",
        }
        if address:
            options["address"] = address
        elif workers:
            options["num_cpus"] = workers
        try:
            ray.init(**options)
        except Exception as error:  # Ray raises many kinds; all mean the same to the user
            where = f"at {address}" if address else "on this machine"
            raise DehlaError(f"cannot start or join a Ray cluster {where}: {error}") from None
        started_here = True
    try:
        remote = ray.remote(num_cpus=1)(play_task)
        shared = ray.put(config)
        pending = [remote.remote(shared, task) for task in tasks]
        legs: list[LegResult] = []
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for reference in finished:
                try:
                    done = ray.get(reference)
                except Exception as error:
                    raise DehlaError(f"an arena task failed on the Ray cluster: {error}") from None
                legs.extend(done)
                if on_progress is not None:
                    on_progress(len(done))
        return legs
    finally:
        if started_here:
            ray.shutdown()
