"""Run the web app on uvicorn with test timings (instant bots, a loose rate limit): ``python serve_for_tests.py``."""

from __future__ import annotations

import argparse

import uvicorn

from dehla.web.app import WebSettings, create_app
from dehla.web.daily import DailySettings
from dehla.web.storage import open_storage


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--bot-delay", type=float, default=0.0)
    parser.add_argument("--hand-pause", type=float, default=0.0)
    parser.add_argument("--rate", type=float, default=10_000.0)
    parser.add_argument("--burst", type=float, default=10_000.0)
    parser.add_argument("--analysis-nodes", type=int, default=200_000)
    parser.add_argument("--trick-pause", type=float, default=0.0)
    parser.add_argument("--lease-seconds", type=float, default=5.0)
    parser.add_argument("--bot-workers", type=int, default=0)
    parser.add_argument("--node", default=None)
    parser.add_argument("--daily-deals", type=int, default=1)
    parser.add_argument("--daily-bot", default="heuristic")
    args = parser.parse_args()
    settings = WebSettings(
        bot_delay=args.bot_delay,
        hand_pause=args.hand_pause,
        rate=args.rate,
        burst=args.burst,
        analysis_nodes=args.analysis_nodes,
        trick_pause=args.trick_pause,
        lease_seconds=args.lease_seconds,
        bot_workers=args.bot_workers,
        node=args.node,
        daily=DailySettings(deals=args.daily_deals, bot=args.daily_bot),
    )
    app = create_app(open_storage(args.db), settings)
    uvicorn.run(
        app, host="127.0.0.1", port=args.port, log_level="warning", ws_max_size=65536, ws_per_message_deflate=False
    )


if __name__ == "__main__":
    main()
