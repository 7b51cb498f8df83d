"""The shapes of the web server's JSON, and the readers that narrow JSON from outside into them.

What the server builds is typed where it is built, so ``mypy --strict`` checks
every message it sends and every row it stores: the messages of a table's
socket (``StateMessage`` and the others of ``ServerMessage``), the table's row
(``TableMeta``), a finished match's summary (``MatchSummary``), and the notes
the processes of a cluster publish to each other (``Note``).  The observation
inside a state is the engine's ``ObservationJSON``; a finished match's record is
``dehla.record.RecordJSON``; the table log's entries are in ``dehla.web.log``.

JSON that comes from outside the process (a table's row read back from the
database, a note from another process) is read with ``Fields``: each field is
checked and a wrong one raises a ``DehlaError`` naming it, so a bad row is
refused with a clear message rather than a ``KeyError`` somewhere later.  The
browser's own messages are checked by ``dehla.web.protocol``.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from dehla.engine.observe import ObservationJSON
from dehla.errors import DehlaError
from dehla.rules import RuleOptions, RulesJSON
from dehla.web.daily_deal import FixedDealJSON
from dehla.web.messages import Param

__all__ = [
    "Fields",
    "SeatState",
    "TableMeta",
    "MatchSummary",
    "read_seat_state",
    "read_meta",
    "SeatView",
    "TableInfo",
    "DealSeal",
    "NextSeal",
    "LastAction",
    "TrickCard",
    "Collected",
    "FinishedTrick",
    "FinishedTrickView",
    "StateMessage",
    "ErrorMessage",
    "NoticeMessage",
    "ChatMessage",
    "ChatLogMessage",
    "ReactionMessage",
    "InviteMessage",
    "WatchTokenMessage",
    "ServerMessage",
    "ReadyNote",
    "TookNote",
    "ChatNote",
    "ReactNote",
    "HereNote",
    "AskNote",
    "NewNote",
    "SessionNote",
    "ClaimNote",
    "AnswerNote",
    "SettledNote",
    "ClaimNotes",
    "Note",
    "Heard",
    "read_note",
]

# -- reading JSON from outside ---------------------------------------------------------------------


class Fields:
    """Checked reads of one JSON object (a stored row, another process's note); a wrong field raises ``DehlaError``."""

    def __init__(self, data: object, what: str) -> None:
        if not isinstance(data, dict):
            raise DehlaError(f"{what} must be a JSON object, not {type(data).__name__}")
        self.data: dict[str, object] = data
        self.what = what

    def wrong(self, key: str, wanted: str) -> DehlaError:
        """The error for a field that is not ``wanted``."""
        value = repr(self.data.get(key))
        return DehlaError(f"{self.what}: {key!r} must be {wanted}, not {value[:40]}")

    def present(self, key: str, wanted: str) -> object:
        """A field that must be there (any JSON value)."""
        if key not in self.data:
            raise DehlaError(f"{self.what}: {key!r} ({wanted}) is missing")
        return self.data[key]

    def integer(self, key: str) -> int:
        value = self.present(key, "a whole number")
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.wrong(key, "a whole number")
        return value

    def optional_integer(self, key: str) -> int | None:
        return None if self.data.get(key) is None else self.integer(key)

    def number(self, key: str) -> float:
        """A number as stored (a whole number stays one: it is written back the same)."""
        value = self.present(key, "a number")
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise self.wrong(key, "a number")
        return value

    def optional_number(self, key: str) -> float | None:
        return None if self.data.get(key) is None else self.number(key)

    def text(self, key: str) -> str:
        value = self.present(key, "text")
        if not isinstance(value, str):
            raise self.wrong(key, "text")
        return value

    def optional_text(self, key: str) -> str | None:
        return None if self.data.get(key) is None else self.text(key)

    def flag(self, key: str) -> bool:
        value = self.present(key, "true or false")
        if not isinstance(value, bool):
            raise self.wrong(key, "true or false")
        return value

    def texts(self, key: str) -> list[str]:
        value = self.present(key, "a list of texts")
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.wrong(key, "a list of texts")
        return list(value)

    def integers(self, key: str) -> list[int]:
        value = self.present(key, "a list of whole numbers")
        if not isinstance(value, list) or not all(
            isinstance(item, int) and not isinstance(item, bool) for item in value
        ):
            raise self.wrong(key, "a list of whole numbers")
        return list(value)

    def rules(self, key: str) -> RulesJSON:
        """The rules' JSON form, checked for its kind only (``parse_rules`` reads it)."""
        value = self.present(key, "rules")
        if isinstance(value, str):
            return value
        if not isinstance(value, dict):
            raise self.wrong(key, "a preset name or a rules object")
        return dict(value)


# -- what is stored ----------------------------------------------------------------------------------


class SeatState(TypedDict):
    """One seat as stored (``SeatInfo.to_meta``): who plays it, the bot standing in, the hash of its link's token."""

    kind: str
    bot: str
    name: str
    token_hash: str | None
    claimed: bool
    #: The player identity the seat belongs to once a player with one took it (``dehla.web.players``).
    player: NotRequired[str | None]


def read_seat_state(fields: Fields) -> SeatState:
    """A seat's state in a stored row or a ``seat`` entry; an empty ``bot`` means the default bot."""
    state: SeatState = {
        "kind": fields.text("kind"),
        "bot": fields.optional_text("bot") or "",
        "name": fields.text("name"),
        "token_hash": fields.optional_text("token_hash"),
        "claimed": bool(fields.data.get("claimed")),
    }
    player = fields.optional_text("player")
    if player is not None:
        state["player"] = player
    return state


class TableMeta(TypedDict, total=False):
    """A table's row (``TableSession.meta``): everything but its log.

    ``meta`` writes every key; a row written before a key was added lacks it, and the reader uses its default.
    """

    title: str
    rules: RulesJSON
    seats: list[SeatState]
    grace: float
    timer: float | None
    status: str
    match_no: int
    listed: bool
    watchers_allowed: bool
    trick_pause: float
    host: int | None
    watch_hash: str | None
    #: Whether the table was listed when it was made (a match's visibility is worked out from it and the log).
    first_listed: bool
    #: Matches at the table change the players' ratings.
    rated: bool
    #: The one deal the table plays (the daily duplicate's tables; ``daily_deal.FixedDeal``).
    fixed_deal: FixedDealJSON
    #: Hints and undo against bots are allowed (never at a rated table).
    assists: bool


def read_meta(raw: object, table_id: str) -> TableMeta:
    """A table's row read back from storage, each field checked (``rules`` and ``seats`` must be there)."""
    fields = Fields(raw, f"table {table_id}")
    seats = fields.present("seats", "a list of seats")
    if not isinstance(seats, list):
        raise fields.wrong("seats", "a list of seats")
    meta: TableMeta = {
        "rules": fields.rules("rules"),
        "seats": [
            read_seat_state(Fields(seat, f"table {table_id}: seat {number}")) for number, seat in enumerate(seats)
        ],
    }
    data = fields.data
    if "title" in data:
        meta["title"] = fields.text("title")
    if "grace" in data:
        meta["grace"] = fields.number("grace")
    if "timer" in data:
        meta["timer"] = fields.optional_number("timer")
    if "status" in data:
        meta["status"] = fields.text("status")
    if "match_no" in data:
        meta["match_no"] = fields.integer("match_no")
    if "listed" in data:
        meta["listed"] = fields.flag("listed")
    if "watchers_allowed" in data:
        meta["watchers_allowed"] = fields.flag("watchers_allowed")
    if "trick_pause" in data:
        meta["trick_pause"] = fields.number("trick_pause")
    if "host" in data:
        meta["host"] = fields.optional_integer("host")
    if "watch_hash" in data:
        meta["watch_hash"] = fields.optional_text("watch_hash")
    if "first_listed" in data:
        meta["first_listed"] = fields.flag("first_listed")
    if "rated" in data:
        meta["rated"] = fields.flag("rated")
    if "fixed_deal" in data:
        seed = Fields(data["fixed_deal"], f"table {table_id}: fixed_deal").text("seed")
        try:
            bytes.fromhex(seed)
        except ValueError:
            raise DehlaError(f"table {table_id}: fixed_deal: 'seed' must be hex digits") from None
        meta["fixed_deal"] = {"seed": seed}
    if "assists" in data:
        meta["assists"] = fields.flag("assists")
    return meta


class MatchSummary(TypedDict):
    """A finished match's line in the history (kept beside its record)."""

    title: str
    preset: str
    rules: RulesJSON
    players: list[str]
    score: list[int]
    winner: int | None
    hands: int


# -- what the browser is sent -------------------------------------------------------------------------


class SeatView(TypedDict):
    """A seat in the table's public info: who sits there, whether they are connected, whether a bot plays for them."""

    seat: int
    team: int
    kind: str
    name: str
    bot: str
    bot_label: str
    claimed: bool
    connected: bool
    auto: bool


class DealSeal(TypedDict):
    """The latest hand's commitment (SHA-256 of its secret seed, hex), and its seed once the hand is over."""

    hand: int
    commitment: str
    seed: str | None


class NextSeal(TypedDict):
    """The next hand's commitment (SHA-256 of its secret seed, hex), shown between hands before its deal."""

    hand: int
    commitment: str


class TableInfo(TypedDict):
    """What anyone may know about a table (``TableSession.public_info``): no cards, no tokens."""

    id: str
    title: str
    rules: RulesJSON
    options: RuleOptions
    preset: str
    players: int
    status: str
    match_no: int
    grace: float
    timer: float | None
    seats: list[SeatView]
    ready: list[int]
    watchers: int
    private: bool
    listed: bool
    watchers_allowed: bool
    host: int | None
    trick_pause: float
    rated: bool
    #: The commitment to the latest hand's deal, and its seed once that hand is over (``None`` before a deal).
    deal: DealSeal | None
    #: The next hand's commitment once its seed is drawn (when the hand before ended), until its deal.
    next_deal: NextSeal | None
    #: The table plays one deal and ends (the daily duplicate's): no next hand, no rematch.
    one_deal: bool
    #: Hints and undo against bots are allowed here.
    assists: bool
    #: A claim waiting for its answers: who claims what, and the seats still to answer.
    claim: ClaimView | None


class ClaimView(TypedDict):
    """A claim of the rest of the hand waiting for answers (no card: only who claims what, and who is asked)."""

    seat: int
    what: str
    waiting: list[int]


class LastAction(TypedDict):
    """The last action of the hand in play: its seat, its text and who made it (``person``, ``bot`` or ``timer``)."""

    seat: int
    action: str
    by: str


class TrickCard(TypedDict):
    seat: int
    card: str


class Collected(TypedDict):
    """Who collected the centre with a trick: the seat, its team, how many cards and which tens."""

    seat: int
    team: int
    cards: int
    tens: list[str]


class FinishedTrick(TypedDict):
    """The trick just finished (``session.finished_trick_of``), all its cards played face up."""

    number: int
    hand: int
    leader: int
    cards: list[TrickCard]
    winner: int
    winning_card: str
    collected: Collected | None
    last_of_hand: bool


class FinishedTrickView(FinishedTrick):
    """The finished trick as sent, with the seconds it is still shown for."""

    pause: float


class You(TypedDict):
    host: bool


class StateMessage(TypedDict):
    """The full state for one listener: its seat's observation (or the watcher view) and the table.

    ``observation`` omits ``match.hands`` when the listener already has every scored hand.
    """

    type: Literal["state"]
    version: int
    seat: int | None
    table: TableInfo
    observation: ObservationJSON | None
    last: LastAction | None
    deadline: float | None
    finished_trick: FinishedTrickView | None
    you: NotRequired[You]


class ErrorMessage(TypedDict):
    """A refusal: the browser words it from ``code`` and ``params``; ``message`` is the English text."""

    type: Literal["error"]
    code: str
    params: dict[str, Param]
    message: str


class NoticeMessage(TypedDict):
    """Something the browser words like a refusal but that is no error (a seat opened in another window)."""

    type: Literal["notice"]
    code: str
    params: dict[str, Param]
    message: str


class HintWordJSON(TypedDict):
    """One sentence of a hint: worded by the browser from ``code`` and ``params``; ``message`` is the English."""

    code: str
    params: dict[str, Param]
    message: str


class HintMessage(TypedDict):
    """To the asking window only: what the strongest bot would do at log version ``version``, and why."""

    type: Literal["hint"]
    version: int
    action: str
    words: list[HintWordJSON]


class ChatMessage(TypedDict):
    type: Literal["chat"]
    id: int
    seat: int
    name: str
    text: str
    at: float


class ChatLogMessage(TypedDict):
    type: Literal["chat_log"]
    messages: list[ChatMessage]


class ReactionMessage(TypedDict):
    type: Literal["reaction"]
    seat: int
    name: str
    reaction: str


class InviteMessage(TypedDict):
    """To the host: the link's token of a seat just opened for an invite."""

    type: Literal["invite"]
    seat: int
    token: str


class WatchTokenMessage(TypedDict):
    """To the host: the new watch link's token of a table just made private."""

    type: Literal["watch_token"]
    token: str


ServerMessage = (
    StateMessage
    | ErrorMessage
    | NoticeMessage
    | HintMessage
    | ChatMessage
    | ChatLogMessage
    | ReactionMessage
    | InviteMessage
    | WatchTokenMessage
)


# -- what the processes of a cluster tell each other (besides the log) ------------------------------------
# Each note carries ``t`` (the table) and ``n`` (the node that sent it); a session publishes the rest.


class ReadyNote(TypedDict):
    """A seat is ready for the next hand, at log version ``v``."""

    k: Literal["ready"]
    seat: int
    v: int


class TookNote(TypedDict):
    """A window took a seat (one seat, one window across the processes)."""

    k: Literal["took"]
    seat: int


class ChatNote(TypedDict):
    k: Literal["chat"]
    m: ChatMessage


class ReactNote(TypedDict):
    k: Literal["react"]
    m: ReactionMessage


class HereNote(TypedDict):
    """The seats this process holds windows on, and its number of watchers."""

    k: Literal["here"]
    seats: list[int]
    w: int


class AskNote(TypedDict):
    """Every process with windows on the table says so (a ``here`` note)."""

    k: Literal["ask"]


class ClaimNote(TypedDict):
    """A claim of the rest of the hand made at log version ``v`` on the sending process, which proves and settles
    it; ``waiting`` are the people of the other team asked (no card, as ``ClaimView``)."""

    k: Literal["claim"]
    seat: int
    what: str
    v: int
    waiting: list[int]


class AnswerNote(TypedDict):
    """A person answered the claim of version ``v`` on the sending process."""

    k: Literal["answer"]
    seat: int
    accept: bool
    v: int


class SettledNote(TypedDict):
    """The process that proved the claim of version ``v`` settled it: ``refused`` or ``accepted``."""

    k: Literal["settled"]
    seat: int
    outcome: Literal["refused", "accepted"]
    v: int


class NewNote(TypedDict):
    """A table was made: the others load it."""

    k: Literal["new"]


#: The notes a table's session publishes.
SessionNote = ReadyNote | TookNote | ChatNote | ReactNote | HereNote | AskNote | ClaimNote | AnswerNote | SettledNote

#: The notes about a claim (``web.table.assist`` hears them).
ClaimNotes = ClaimNote | AnswerNote | SettledNote


#: The notes a process publishes about a table, with the table (``t``) and the sender (``n``) added on the wire.
Note = SessionNote | NewNote


class Heard(TypedDict):
    """A note as heard (``read_note``): about which table, from which process, and the note."""

    t: str
    n: str
    note: Note


def _chat_message(value: object) -> ChatMessage:
    fields = Fields(value, "chat note")
    if fields.data.get("type") != "chat":
        raise fields.wrong("type", "'chat'")
    return {
        "type": "chat",
        "id": fields.integer("id"),
        "seat": fields.integer("seat"),
        "name": fields.text("name"),
        "text": fields.text("text"),
        "at": fields.number("at"),
    }


def _reaction_message(value: object) -> ReactionMessage:
    fields = Fields(value, "reaction note")
    if fields.data.get("type") != "reaction":
        raise fields.wrong("type", "'reaction'")
    return {
        "type": "reaction",
        "seat": fields.integer("seat"),
        "name": fields.text("name"),
        "reaction": fields.text("reaction"),
    }


def read_note(payload: object) -> Heard:
    """A note another process published (or this one, heard back), checked; ``DehlaError`` names a wrong field."""
    fields = Fields(payload, "note")
    table, node, kind = fields.text("t"), str(fields.data.get("n")), fields.text("k")
    note: Note
    if kind == "ready":
        note = {"k": "ready", "seat": fields.integer("seat"), "v": fields.integer("v")}
    elif kind == "took":
        note = {"k": "took", "seat": fields.integer("seat")}
    elif kind == "chat":
        note = {"k": "chat", "m": _chat_message(fields.data.get("m"))}
    elif kind == "react":
        note = {"k": "react", "m": _reaction_message(fields.data.get("m"))}
    elif kind == "here":
        note = {
            "k": "here",
            "seats": fields.integers("seats") if "seats" in fields.data else [],
            "w": fields.integer("w") if "w" in fields.data else 0,
        }
    elif kind == "ask":
        note = {"k": "ask"}
    elif kind == "new":
        note = {"k": "new"}
    elif kind == "claim":
        note = {
            "k": "claim",
            "seat": fields.integer("seat"),
            "what": fields.text("what"),
            "v": fields.integer("v"),
            "waiting": fields.integers("waiting"),
        }
    elif kind == "answer":
        seat, accept = fields.integer("seat"), fields.flag("accept")
        note = {"k": "answer", "seat": seat, "accept": accept, "v": fields.integer("v")}
    elif kind == "settled":
        seat, version = fields.integer("seat"), fields.integer("v")
        if fields.text("outcome") == "refused":
            note = {"k": "settled", "seat": seat, "outcome": "refused", "v": version}
        elif fields.text("outcome") == "accepted":
            note = {"k": "settled", "seat": seat, "outcome": "accepted", "v": version}
        else:
            raise fields.wrong("outcome", "'refused' or 'accepted'")
    else:
        raise fields.wrong("k", "a kind of note")
    return {"t": table, "n": node, "note": note}
