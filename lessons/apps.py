from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

from games.signals import action_stored


def refresh_content(sender, using, apps=None, **kwargs):
    """Reload the shipped lessons after migrate or flush, when the lesson tables exist."""
    from django.apps import apps as global_apps

    from lessons import content

    apps = apps or global_apps  # flush sends no migration state
    try:
        apps.get_model("lessons", "LessonLink")
    except LookupError:  # migrated back before the lessons app's tables
        return
    content.load(apps.get_model, using=using)


class LessonsConfig(AppConfig):
    name = "lessons"
    verbose_name = _("GDPR lessons")

    def ready(self):
        post_migrate.connect(refresh_content, sender=self, dispatch_uid="lessons.refresh_content")
        # Django's idiom: a module that imports models is imported once the apps are ready.
        from lessons.moments import on_action_stored

        action_stored.connect(on_action_stored, dispatch_uid="lessons.on_action_stored")
