"""``dehla play``'s full-screen table in a terminal (Textual).

``app.TableApp`` is the screen (``screens`` its panels, ``table.tcss`` its stylesheet), ``game.TableGame``
the match behind it (one person, bots in the other seats), ``pacing.TablePacing`` the table's side of the
shared pacing loop, ``story`` what each step tells and holds on show, ``felt`` draws the table from the
person's observation, ``words`` holds the words both terminal modes share.  Importing this package loads
no Textual: the line-by-line mode uses ``words`` alone.
"""
