"""Debrief reports of a session: gathered from the replayed matches, lesson moments and
quiz answers (``data``), phrased as discussion prompts (``prompts``), written as HTML,
PDF, CSV and JSON (``render``) by the Celery task ``lessons.tasks.export_debrief``, and
replayed move by move for the teacher (``replay``)."""
