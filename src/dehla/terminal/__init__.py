"""``dehla play``'s full-screen table in a terminal (Textual).

``app.TableApp`` is the screen, ``game.TableGame`` the match behind it (one person, bots in the other
seats), ``felt`` draws the table from the person's observation, ``words`` holds the words both terminal
modes share.  Importing this package loads no Textual: the line-by-line mode uses ``words`` alone.
"""
