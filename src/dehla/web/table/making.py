"""A table made: from validated settings (a new table), or from its row and its log (after a restart)."""

from __future__ import annotations

import random
import time

from dehla.rules import parse_rules
from dehla.web.daily_deal import FixedDeal
from dehla.web.log import upgrade_entry
from dehla.web.schema import read_meta
from dehla.web.settings import TableSettings
from dehla.web.storage import TableRow
from dehla.web.table.seats import SeatInfo
from dehla.web.table.session import SessionContext, TableSession, new_table_id
from dehla.web.visibility import hash_token, new_token

__all__ = ["new_table", "restore_table"]


def new_table(
    context: SessionContext, settings: TableSettings, player: str | None = None, table_id: str | None = None
) -> tuple[TableSession, dict[int, str], str]:
    """A new table from validated settings, made by ``player``; returns it, every person seat's token and the
    watch token.  The creator's seat belongs to the creator from the start."""
    seats: list[SeatInfo] = []
    tokens: dict[int, str] = {}
    for number, spec in enumerate(settings.seats):
        if spec.kind == "bot":
            seats.append(SeatInfo("bot", spec.bot, spec.name))
            continue
        token = new_token()
        tokens[number] = token
        mine = spec.kind == "me"
        seats.append(
            SeatInfo(
                "person", spec.bot, spec.name, hash_token(token), claimed=mine, player=player if mine else spec.player
            )
        )
    watch = new_token()
    session = TableSession(
        context=context,
        table_id=table_id or new_table_id(),
        title=settings.title,
        rules=settings.rules,
        seats=seats,
        grace=settings.grace,
        timer=settings.timer,
        created=time.time(),
        listed=settings.listed,
        first_listed=settings.listed,
        rated=settings.rated,
        assists=settings.assists and not settings.rated,
        watchers_allowed=settings.watchers_allowed,
        trick_pause=settings.trick_pause,
        host=settings.me if settings.fixed is None else None,  # a daily game has no host: nothing to change
        watch_hash=hash_token(watch),
        rng=random.Random(context.deal_rng.getrandbits(64)),
        fixed=settings.fixed,
    )
    session.make_bots()
    return session, tokens, watch


async def restore_table(context: SessionContext, row: TableRow, default_pause: float) -> TableSession:
    """Rebuild a table from its metadata row and its log, folding the log's entries with ``apply_logged``: the same
    step as live play and as catching up with another process.

    A row or entry that is not what the server writes raises ``DehlaError`` naming the field.
    """
    meta = read_meta(row.meta, row.table_id)
    rules = parse_rules(meta["rules"])
    session = TableSession(
        context=context,
        table_id=row.table_id,
        title=meta.get("title", ""),
        rules=rules,
        seats=[SeatInfo.from_meta(seat) for seat in meta["seats"]],
        grace=float(meta.get("grace", 60)),
        timer=meta.get("timer"),
        created=row.created,
        listed=meta.get("listed", True),
        watchers_allowed=meta.get("watchers_allowed", True),
        trick_pause=float(meta.get("trick_pause", default_pause)),
        host=meta.get("host"),
        watch_hash=meta.get("watch_hash"),
        rated=meta.get("rated", False),
        assists=meta.get("assists", True) and not meta.get("rated", False),
        rng=random.Random(context.deal_rng.getrandbits(64)),
        fixed=FixedDeal.from_hex(meta["fixed_deal"]["seed"]) if "fixed_deal" in meta else None,
    )
    entries = [upgrade_entry(raw) for raw in await context.storage.load_log(row.table_id)]
    # a table made before the first setting was kept: as listed as now, unless the host ever changed it
    changed = any(entry["type"] == "settings" for entry in entries)
    session.first_listed = meta.get("first_listed", session.listed if not changed else False)
    for entry in entries:
        session.seq += 1
        session.apply_logged(entry)
    session.status = meta.get("status", "waiting")
    session.match_no = max(meta.get("match_no", 0), session.match_no)
    if session.match is not None and session.status == "waiting":
        session.status = "playing"  # the server stopped between starting the match and saving the status
    if session.match is not None and session.match.is_over and context.bus is not None:
        session.status = "over"  # the log says so, whatever the row (another process may not have saved it yet)
    now = time.monotonic()
    session.turn_started = now
    session.hand_ended = now
    session.trick_ended = now - session.trick_pause  # shown again, but nobody waits for it twice
    for seat in session.people_seated():
        session.disconnected_at[seat] = now  # nobody is connected after a restart: grace starts now
    session.make_bots()
    return session
