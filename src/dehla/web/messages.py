"""Refusals and notices as codes with parameters: the server never sends a sentence to be shown as it is.

Every refusal the web layer makes is a ``WebError``: a ``code`` the browser words
from its catalogs, the ``params`` it fills in, and a ``kind`` that decides the
HTTP status.  The English template of each code lives in ``TEMPLATES`` (the
catalogs translate it as an ordinary message); ``str(error)`` is the English
sentence, for logs and for programs that read the API.

Parameter conventions (the browser formats them for the reader): ``card`` is a
card text such as ``10H``, ``cards`` a list of them, ``suit`` a suit letter,
``seat`` a seat's index from 0 (shown as "You", the seat's name or "Seat N" counted from 1), ``n``/``min``/``max``
numbers, ``text`` plain text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict

from dehla.errors import DehlaError

__all__ = ["WebError", "TEMPLATES", "STATUS", "ErrorKind", "Param", "ErrorBody", "register", "english"]

#: A parameter of a refusal or notice: a card, a suit, a seat, a count, some text, a list of cards.
Param = int | float | str | list[str]

#: What kind of refusal an error is; it alone picks the HTTP status.
ErrorKind = Literal["invalid", "forbidden", "not_found", "conflict", "busy", "unavailable"]

STATUS: dict[str, int] = {
    "invalid": 400,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "busy": 429,
    "unavailable": 503,
}

#: Code -> English template with ``{placeholders}`` named after the params.
TEMPLATES: dict[str, str] = {}


def register(templates: dict[str, str]) -> None:
    """Add the templates of one module's codes (each code is registered once)."""
    for code, template in templates.items():
        if code in TEMPLATES and TEMPLATES[code] != template:
            raise ValueError(f"message code {code!r} is registered twice with different texts")
        TEMPLATES[code] = template


class ErrorBody(TypedDict):
    """A refusal as the JSON body of an HTTP answer (``WebError.to_json``)."""

    error: str
    code: str
    params: dict[str, Param]
    detail: NotRequired[str]


def _plain(value: Param) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(item) for item in value)
    return str(value)


def english(code: str, params: Mapping[str, Param]) -> str:
    """The English sentence for ``code`` with ``params`` filled in plainly (cards as their text; a seat as
    "Seat N", numbered from 1 as every text numbers seats, while the param keeps the seat's index)."""
    template = TEMPLATES.get(code, code)
    text = template
    for key, value in params.items():
        shown = f"Seat {value + 1}" if key == "seat" and isinstance(value, int) else _plain(value)
        text = text.replace("{" + key + "}", shown)
    return text


class WebError(DehlaError):
    """A refusal by the web layer: ``code`` and ``params`` for the browser, ``kind`` for the HTTP status."""

    def __init__(self, code: str, kind: ErrorKind = "invalid", *, detail: str | None = None, **params: Param) -> None:
        self.code = code
        self.kind: ErrorKind = kind
        self.params = params
        #: The library's own English explanation, for programs and logs; never shown on the page.
        self.detail = detail
        text = english(code, params)
        super().__init__(text if detail is None else f"{text} {detail}")

    @property
    def status(self) -> int:
        return STATUS[self.kind]

    def to_json(self) -> ErrorBody:
        data: ErrorBody = {"error": str(self), "code": self.code, "params": self.params}
        if self.detail is not None:
            data["detail"] = self.detail
        return data
