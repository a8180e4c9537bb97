"""The teacher's debrief of a session: its report gathered from the replayed matches,
lesson moments and quiz answers (``data``), phrased as discussion prompts (``prompts``)
with a glossary of the articles cited (``glossary``) and charts (``charts``), written as
HTML, PDF, CSV and JSON (``render``) by the Celery task ``debrief.tasks.export_debrief``
(``export``); the omniscient replay of a table's match (``replay``); the pages
(``views``, ``urls``), among them the privacy page; and what goes with a session's
student data when the retention purges it (``cleanup``)."""
