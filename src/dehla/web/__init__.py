"""Web tables: ``dehla serve`` — play online with friends and bots, watch, replay, keep score.

The package is a thin adapter over the engine: ``tables`` runs the tables
(authoritative: clients send intents, the engine decides), ``storage`` keeps
every table's log (SQLite or PostgreSQL), ``protocol`` validates messages and
builds the watcher view, ``app`` is the ASGI application, ``static`` the page.
"""
