"""Who sits where: taking a seat with its link (or one's own identity), watching, joining a bot's seat, the host's
seat and settings commands, and inviting a friend to a seat.

A seat belongs to the first player who opens its link; the same player may move between windows and devices
(one seat, one window); someone else with the link is refused and the host is told.  Every change of a seat or of
the settings is a log entry (``TableSession.step``), so every process applies it in order with the play.
"""

from __future__ import annotations

from typing import Protocol

from dehla.web.log import LogEntry, settings_entry
from dehla.web.messages import WebError, english
from dehla.web.protocol import HelloRequest, SeatRequest, SettingsRequest
from dehla.web.settings import check_bot, check_trick_pause, clean_name
from dehla.web.storage import Storage
from dehla.web.table.replica import Replica
from dehla.web.table.seats import SeatInfo
from dehla.web.table.views import Listener, dumps
from dehla.web.visibility import hash_token, new_token

__all__ = ["Seating", "SeatedTable"]


class SeatedTable(Protocol):
    """What seating reads and calls of its table (``TableSession``'s public interface)."""

    seats: list[SeatInfo]
    clients: set[Listener]
    moved: set[Listener]
    blocking: dict[Listener, frozenset[str]]
    disconnected_at: dict[int, float]
    host: int | None
    status: str
    listed: bool
    watchers_allowed: bool
    trick_pause: float
    watch_hash: str | None
    rated: bool
    assists: bool
    replica: Replica

    @property
    def storage(self) -> Storage: ...

    @property
    def private(self) -> bool: ...

    def between_hands(self) -> bool: ...

    def may_watch(self, watch: str | None) -> bool: ...

    def seat_for_token(self, token: str) -> int | None: ...

    def seat_of_player(self, player: str | None) -> int | None: ...

    def require_host(self, client: Listener) -> int: ...

    def send_chat_log(self, client: Listener) -> None: ...

    def broadcast(self) -> None: ...

    def make_bot(self, seat: int) -> None: ...

    async def step(self, entry: LogEntry, lease: bool = False) -> object: ...

    async def seat_event(self, seat: int, info: SeatInfo) -> None: ...

    async def save_meta(self) -> None: ...

    async def start_when_seated(self) -> None: ...


class Seating:
    """The seats of one table and who may take them."""

    def __init__(self, table: SeatedTable) -> None:
        self.table = table

    async def hello(self, client: Listener, fields: HelloRequest) -> None:
        """Take the seat of a token (moving it from another window), or watch (with a watch link if needed)."""
        if client.player is not None and client not in self.table.blocking:
            self.table.blocking[client] = frozenset(await self.table.storage.blocked_by(client.player))
        token = fields.get("token")
        seat = (
            self.table.seat_for_token(token)
            if token
            else self.table.seat_of_player(client.player)
            if fields.get("mine")
            else None
        )
        if seat is None:
            was_seated = client.seat is not None and client in self.table.clients
            if self.table.may_watch(fields.get("watch")) or was_seated:
                self._watch(client)
            if token:
                raise WebError("bad_token", "forbidden")
            if client not in self.table.clients:
                raise WebError("watchers_not_allowed", "forbidden")
            return
        info = self.table.seats[seat]
        if client.player is not None and await self.table.storage.banned(client.player):
            # a banned player may still watch the tables anyone may watch
            if self.table.may_watch(fields.get("watch")):
                self._watch(client)
            raise WebError("banned", "forbidden")
        if not info.admits(client.player):
            # Someone else holds the link: they are not seated (and watch only if they may), and the host is told.
            self.tell_host("invite_reused", seat)
            if self.table.may_watch(fields.get("watch")):
                self._watch(client)
            raise WebError("seat_owned", "forbidden", seat=seat)
        self.move_windows_off(seat, client)
        self.table.replica.took(seat)
        client.seat = seat
        self.table.clients.add(client)
        self.table.moved.discard(client)
        name = clean_name(fields["name"], info.name) if "name" in fields else info.name
        player = info.player or client.player
        if not info.claimed or name != info.name or player != info.player:
            await self.table.seat_event(
                seat, SeatInfo(info.kind, info.bot, name, info.token_hash, claimed=True, player=player)
            )
        self.table.disconnected_at.pop(seat, None)
        self.table.send_chat_log(client)
        self.table.replica.publish_presence()
        await self.table.start_when_seated()
        self.table.broadcast()

    def _watch(self, client: Listener) -> None:
        """``client`` watches the table (no seat, no cards), here and as told to the other processes."""
        client.seat = None
        self.table.clients.add(client)
        self.table.send_chat_log(client)
        self.table.broadcast()
        self.table.replica.publish_presence()

    def move_windows_off(self, seat: int, keep: Listener | None) -> None:
        """One seat, one window: older windows on ``seat`` are told, and watch without cards from now on."""
        for other in list(self.table.clients):
            if other is not keep and other.seat == seat:
                other.seat = None
                self.table.moved.add(other)
                other.push(
                    dumps(
                        {
                            "type": "notice",
                            "code": "moved_elsewhere",
                            "params": {},
                            "message": english("moved_elsewhere", {}),
                        }
                    )
                )

    def tell_host(self, code: str, seat: int) -> None:
        """A notice for the host's windows (here; another process's windows hear nothing of it)."""
        text = dumps(
            {"type": "notice", "code": code, "params": {"seat": seat}, "message": english(code, {"seat": seat})}
        )
        for other in list(self.table.clients):
            if other.seat is not None and other.seat == self.table.host:
                other.push(text)

    async def invite_player(self, host: str | None, seat_value: object, player: str, name: str) -> None:
        if host is None or self.table.host is None or self.table.seats[self.table.host].player != host:
            raise WebError("not_host", "forbidden")
        seat = self.check_seat(seat_value)
        if seat == self.table.host:
            raise WebError("own_seat", "conflict")
        info = self.table.seats[seat]
        if not info.invited and not self.table.between_hands():
            raise WebError("not_between_hands", "conflict")
        await self.table.seat_event(
            seat, SeatInfo("person", info.bot, name, hash_token(new_token()), claimed=False, player=player)
        )
        self.table.broadcast()

    async def join(self, seat_value: object, name: object, player: str | None) -> tuple[int, str]:
        seat = self.check_seat(seat_value)
        info = self.table.seats[seat]
        if info.kind == "person" and info.claimed:
            raise WebError("seat_taken", "conflict", seat=seat)
        if info.invited:
            raise WebError("seat_reserved", "conflict", seat=seat)
        if self.table.private:
            raise WebError("table_private", "forbidden")
        if not self.table.between_hands():
            raise WebError("seat_bot_until_hand_end", "conflict", seat=seat)
        token = new_token()
        await self.table.seat_event(
            seat,
            SeatInfo(
                "person",
                info.bot,
                clean_name(name, f"Player {seat + 1}"),
                hash_token(token),
                claimed=True,
                player=player,
            ),
        )
        await self.table.start_when_seated()
        self.table.broadcast()
        return seat, token

    async def seat_command(self, client: Listener, fields: SeatRequest) -> None:
        """The host replaces a seat with a bot or a fresh invite, before the match or between hands."""
        host = self.table.require_host(client)
        seat = self.check_seat(fields["seat"])
        if seat == host:
            raise WebError("own_seat", "conflict")
        if not self.table.between_hands():
            raise WebError("not_between_hands", "conflict")
        old = self.table.seats[seat]
        kind = fields["kind"]
        token: str | None = None
        if kind == "bot":
            bot = check_bot(fields.get("bot") or old.bot, seat)
            info = SeatInfo("bot", bot, f"Bot {seat + 1}")
        elif kind == "invite":
            bot = check_bot(fields.get("bot") or old.bot, seat)
            token = new_token()
            info = SeatInfo("person", bot, f"Player {seat + 1}", hash_token(token))
        else:
            raise WebError("seat_kind", seat=seat)
        await self.table.seat_event(seat, info)
        self.table.make_bot(seat)  # a fresh bot even when the same kind replaces it
        self.table.disconnected_at.pop(seat, None)
        if token is not None:
            client.push(dumps({"type": "invite", "seat": seat, "token": token}))
        await self.table.start_when_seated()
        self.table.broadcast()

    async def settings_command(self, client: Listener, fields: SettingsRequest) -> None:
        """The host chooses whether the table is in the lobby, whether watchers may come, and the trick pause."""
        self.table.require_host(client)
        pause = check_trick_pause(fields["trick_pause"]) if "trick_pause" in fields else self.table.trick_pause
        listed = bool(fields.get("listed", self.table.listed))
        watchers = bool(fields.get("watchers_allowed", self.table.watchers_allowed))
        new_link = not listed and watchers and (self.table.listed or not self.table.watchers_allowed)
        watch: str | None = None
        watch_hash = self.table.watch_hash
        if new_link:
            # Watchers of a private table need a link; only its hash is kept, so the host gets a fresh one.
            watch = new_token()
            watch_hash = hash_token(watch)
        assists = bool(fields.get("assists", self.table.assists)) and not self.table.rated
        await self.table.step(settings_entry(listed, watchers, pause, watch_hash, assists))
        if watch is not None:
            client.push(dumps({"type": "watch_token", "token": watch}))
        await self.table.save_meta()
        self.table.broadcast()

    def check_seat(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.table.seats):
            raise WebError("bad_seat", max=len(self.table.seats) - 1)
        return seat
