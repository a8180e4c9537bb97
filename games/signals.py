"""Signals of live play, for the apps that follow the games without being called by them.

``action_stored``: sent once an accepted action is committed, with ``match`` (the
Match, at its new version) and ``events`` (the engine's events of the action); live
play adds ``table`` and ``seats`` (the match's table, with its session, class and
teacher, and its seats with their participants, read once after the commit; None
when the match has no table), so that a receiver need not read them again. A
receiver returns a list of messages for the table's channel group (or None); live
play sends them once the table has heard of the move, so that a lesson card arrives
after the state it belongs to. A receiver that fails does not undo the move: its
failure is logged as an error, or as a warning when it lost a backing service (Redis,
the database), which live play handles as an outage.
"""

from django.dispatch import Signal

action_stored = Signal()
