from django.apps import AppConfig
from django.core import checks
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = _("Classroom")

    def ready(self) -> None:
        # Django's idiom: a module that imports models is imported once the apps are ready.
        from classroom.checks import backup_recipients
        from classroom.erasures import connect_erasure_receivers

        connect_erasure_receivers()
        checks.register(backup_recipients)
