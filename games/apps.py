"""Django's view of the games package: match persistence (models, admin, migrations), commands.

The rules engines under games/engine and games/<game>/ never import Django.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
