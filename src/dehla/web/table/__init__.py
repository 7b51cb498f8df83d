"""One table: its state and its one step, and the collaborators of ``TableSession`` (who sits where, what each
listener is sent, chat, the copy among processes, the driver of bots and timers, saving a finished match)."""
