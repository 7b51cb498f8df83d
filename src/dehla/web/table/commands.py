"""What a listener's message does at its table: play, move on to the next hand, start, chat, react, report,
and hand the seat and settings commands to seating.

Each refusal raises ``WebError`` and changes nothing.  The session runs these under its lock against the newest
log (``TableSession.handle``).
"""

from __future__ import annotations

from typing import Protocol

from dehla.engine.actions import parse_action
from dehla.errors import DehlaError
from dehla.web.daily_deal import FixedDeal
from dehla.web.messages import WebError, english
from dehla.web.protocol import ActRequest, ClientMessage
from dehla.web.storage import Storage
from dehla.web.table import assist
from dehla.web.table.chat import TableChat
from dehla.web.table.seating import Seating
from dehla.web.table.views import Listener, dumps, illegal_reason

__all__ = ["CommandedTable", "dispatch", "require_seat"]


class CommandedTable(assist.AssistedTable, Protocol):
    """What a listener's message reads and calls of its table (``TableSession``'s public interface)."""

    table_id: str
    clients: set[Listener]
    ready: set[int]
    chat: TableChat
    seating: Seating
    #: The one deal the table plays (no rematch after it).
    fixed: FixedDeal | None

    @property
    def storage(self) -> Storage: ...

    async def start_match(self) -> None: ...


def require_seat(client: Listener) -> int:
    if client.seat is None:
        raise WebError("watcher", "forbidden")
    return client.seat


async def dispatch(table: CommandedTable, client: Listener, request: ClientMessage) -> None:
    """Act on one validated message of ``client``."""
    if request["type"] == "hello":
        await table.seating.hello(client, request)
    elif client not in table.clients:
        raise WebError("watcher")
    elif request["type"] == "act":
        await person_act(table, client, request)
    elif request["type"] == "next":
        seat = require_seat(client)
        if table.match is None or not table.match.is_chance or not table.match.results:
            raise WebError("no_hand_to_move_on", "conflict")
        table.ready.add(seat)
        table.replica.publish({"k": "ready", "seat": seat, "v": table.seq})
        table.broadcast()
    elif request["type"] in ("start", "rematch"):
        # a first match starts from a waiting table, a rematch from a finished one
        starting = request["type"] == "start"
        needed, refusal = ("waiting", "match_started") if starting else ("over", "rematch_not_yet")
        require_seat(client)
        if not starting and table.fixed is not None:
            raise WebError("not_now", "conflict")  # a table of one fixed deal ends with it
        if table.status != needed:
            raise WebError(refusal, "conflict")
        await table.start_match()
        table.broadcast()
    elif request["type"] == "chat":
        chat(table, client, request["text"])
    elif request["type"] == "react":
        react(table, client, request["reaction"])
    elif request["type"] == "report":
        await report(table, client, request["chat"])
    elif request["type"] == "seat":
        await table.seating.seat_command(client, request)
    elif request["type"] == "settings":
        await table.seating.settings_command(client, request)
    elif request["type"] == "hint":
        await assist.hint(table, client, request)
    elif request["type"] == "undo":
        await assist.undo(table, client)
    elif request["type"] == "claim":
        await assist.claim(table, client, request)
    elif request["type"] == "claim_answer":
        await assist.claim_answer(table, client, request)
    else:  # pragma: no cover - "ping" is answered by the transport
        raise WebError("bad_message")


async def person_act(table: CommandedTable, client: Listener, fields: ActRequest) -> None:
    """A person's action for their seat, chosen at log version ``fields["version"]``."""
    seat = require_seat(client)
    match = table.match
    if match is None or table.status != "playing":
        raise WebError("match_not_started" if table.status == "waiting" else "match_over", "conflict")
    if not table.game_seq <= fields["version"] <= table.seq:
        raise WebError("stale", "conflict")
    if match.to_act != seat:
        if match.to_act is None:
            raise WebError("waiting_for_deal", "conflict")
        raise WebError("not_your_turn", "conflict", seat=match.to_act)
    try:
        action = parse_action(fields["action"])
    except DehlaError:
        raise WebError("bad_action", text=str(fields["action"])[:16]) from None
    if not match.is_legal(action):
        raise illegal_reason(match.observe(seat), action)
    await table.commit(seat, action, "person")


def chat(table: CommandedTable, client: Listener, text: str) -> None:
    """A short line of plain text to everyone at the table (``chat.TableChat``), here and on other processes."""
    seat = require_seat(client)
    message = table.chat.line(seat, table.seats[seat].name, text)
    table.send_all(message)
    table.replica.publish({"k": "chat", "m": message})


def react(table: CommandedTable, client: Listener, reaction: str) -> None:
    seat = require_seat(client)
    message = table.chat.reaction(seat, table.seats[seat].name, reaction)
    table.send_all(message)
    table.replica.publish({"k": "react", "m": message})


async def report(table: CommandedTable, client: Listener, chat_id: int) -> None:
    """Someone reports a chat line to the admins (``dehla admin reports``); they are told it was sent."""
    if client.player is None:
        raise WebError("no_player", "forbidden")
    line = next((line for line in table.chat.log() if line["id"] == chat_id), None)
    if line is None:
        raise WebError("no_chat_line", "not_found")
    await table.storage.report(
        table.table_id, client.player, table.seats[line["seat"]].player, line["name"], line["text"]
    )
    client.push(dumps({"type": "notice", "code": "reported", "params": {}, "message": english("reported", {})}))
