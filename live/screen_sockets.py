"""The join screen's socket: the session's lobby and its live tables, for the projector.

It is the teacher's dashboard socket (the same check of the teacher, the same coalesced
renders) listening to the lobby's group as well, so that a joining student's nickname
and the game's start both reach the screen; it sends the screen's own fragment, which
carries no control and no presence, because the whole class sees it.
"""

from classroom.broadcast import dashboard_group, session_group
from live.screen import render_screen
from live.session_sockets import DashboardConsumer
from live.sockets import in_drawing_thread


class JoinScreenConsumer(DashboardConsumer):
    """Push the join screen (nicknames, then the tables) to the session's teacher."""

    def listened_groups(self) -> list[str]:
        """The tables' news, and the lobby's: joins, locks, the start."""
        return [session_group(self.session_id), dashboard_group(self.session_id)]

    async def lobby_changed(self, event: dict) -> None:
        """A student joined or left, the lobby was locked, the game started: redraw."""
        await self.dashboard_changed(event)

    async def push(self) -> None:
        html = await in_drawing_thread(self.session_id, render_screen)(self.session_id)
        await self.send_or_end(html)

    async def push_tables(self, tables: set[int]) -> None:
        """The screen's fragment is drawn whole (its tables have no part of their own)."""
        await self.push()
