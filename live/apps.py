"""Live play: the write path, the table protocol's messages, the scheduling of bots and
timers, the sweeper, the sockets (table, projector, lobby, dashboard) and their pages.

It sits above the games (the engine and match persistence) and the classroom
(sessions, tables, seats), and below the lessons and the debrief, which follow it
through games.signals.action_stored and the hooks it offers.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from classroom.signals import tables_changed


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = _("Live play")

    def ready(self) -> None:
        # Django's idiom: a module that imports models is imported once the apps are ready.
        from live.scheduling import on_tables_changed

        tables_changed.connect(on_tables_changed, dispatch_uid="live.on_tables_changed")
