"""A move's COMMIT whose answer never came.

Its own module, free of models, so that ``classroom.services`` (read while the logging
is set up, before the apps) can tell it apart too.
"""

from django.db import OperationalError


class CommitUnanswered(OperationalError):
    """A move's transaction was sent its COMMIT and the connection was lost before the
    answer: the move may be stored or not, until the match is read again."""
