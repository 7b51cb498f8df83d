"""Every table both backends store alike, in one class each backend is made of (with its own ``statements``)."""

from __future__ import annotations

from dehla.web.storage.daily import DailyTables
from dehla.web.storage.matches import MatchTables
from dehla.web.storage.players import PlayerTables
from dehla.web.storage.queue import QueueTables
from dehla.web.storage.social import SocialTables

__all__ = ["SharedTables"]


class SharedTables(DailyTables, MatchTables, PlayerTables, QueueTables, SocialTables):
    """The tables written once over ``read``, ``write`` and ``write_all``: a backend adds those and what differs."""
