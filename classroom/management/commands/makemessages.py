"""makemessages that also extracts the plural sentences games mark with ngettext_noop.

A game's package imports no Django, so it marks a plural sentence with
``games.engine.i18n.ngettext_noop(singular, plural)``; xgettext learns that keyword here.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=ngettext_noop:1,2"]
