"""Signals of the classroom, for the apps above it (live play, lessons) that act on a
session's changes without the classroom importing them.

``session_created``: sent inside the launch's transaction, with ``session`` and
``choices`` (the values of the fields other apps added to the session form with
``classroom.forms.register_session_field``).

``tables_changed``: sent after the commit that dealt a session's tables, let a table's
match run again or handed a seat to a bot or back, with ``tables`` and ``again`` (True
when a pause pushed the timers' due times back). Live play schedules the bots and
timers of their matches.
"""

from django.dispatch import Signal

session_created = Signal()
tables_changed = Signal()
