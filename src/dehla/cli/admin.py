"""``dehla admin``: what a server's admins do from a shell, on the same database as ``dehla serve``.

    dehla admin reports [--db URL]          the chat lines people reported, newest first
    dehla admin ban PLAYER [--reason TEXT]  the player may not play at any table (they may still watch open ones)
    dehla admin unban PLAYER
    dehla admin bans                        who is banned

A player is named by the id the reports show.  Every process of a cluster reads the same database, so a ban
holds everywhere from the player's next seat.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from dehla.errors import DehlaError

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "admin",
        help="reports of chat lines, and banning players, on a server's database",
        description="Read the chat lines people reported, and ban or unban players (a banned player may not play "
        "at any table; they may still watch open ones). Works on the database dehla serve uses.",
    )
    parser.add_argument("--db", default=None, help="the server's database (as dehla serve --db; default its default)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("reports", help="the reported chat lines, newest first")
    ban = actions.add_parser("ban", help="ban a player from playing at tables")
    ban.add_argument("player", help="the player's id, as the reports show it (after -- if it starts with -)")
    ban.add_argument("--reason", default="", help="why (kept with the ban)")
    unban = actions.add_parser("unban", help="lift a ban")
    unban.add_argument("player", help="the player's id, as dehla admin bans shows it (after -- if it starts with -)")
    actions.add_parser("bans", help="who is banned")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


async def _run(args: argparse.Namespace) -> int:
    from dehla.web.storage import open_storage

    storage = open_storage(args.db)
    await storage.open()
    try:
        if args.action == "reports":
            reports = await storage.reports()
            if not reports:
                print("No chat line has been reported.")
            for _, at, table_id, reporter, player, name, text in reports:
                print(
                    f"{_when(at)}  table {table_id}  {name} (player {player or 'none'}): {text!r}  "
                    f"reported by {reporter}"
                )
        elif args.action == "ban":
            if not args.player.strip():
                raise DehlaError("name the player to ban")
            await storage.ban(args.player.strip(), args.reason)
            print(f"Player {args.player.strip()} is banned from playing at tables.")
        elif args.action == "unban":
            if not await storage.unban(args.player):
                raise DehlaError(f"player {args.player} is not banned")
            print(f"Player {args.player} may play again.")
        else:
            bans = await storage.bans()
            if not bans:
                print("Nobody is banned.")
            for player, at, reason in bans:
                print(f"{player}  since {_when(at)}" + (f"  ({reason})" if reason else ""))
    finally:
        await storage.close()
    return 0
