from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _

from classroom.signals import session_created
from games.signals import action_stored


class LessonsConfig(AppConfig):
    name = "lessons"
    verbose_name = _("GDPR lessons")

    def ready(self) -> None:
        # Django's idiom: modules that import models are imported once the apps are ready.
        from classroom.forms import register_session_field
        from classroom.views.common import register_ended_offer
        from lessons.actions import on_session_created
        from lessons.content import refresh_content
        from lessons.forms import lesson_mode_field
        from lessons.links import forget_kept_links
        from lessons.moments import forget_kept_cards, forget_kept_modes, on_action_stored
        from lessons.results import dashboard_section
        from lessons.views import ended_offer
        from live.dashboard import register_section

        post_migrate.connect(refresh_content, sender=self, dispatch_uid="lessons.refresh_content")
        action_stored.connect(on_action_stored, dispatch_uid="lessons.on_action_stored")
        # What each process keeps forgets itself when the rows it was read from change.
        kept = {
            forget_kept_links: ("Lesson", "LessonText", "LessonLink"),
            forget_kept_cards: ("Lesson", "LessonText", "LessonOverride"),
            forget_kept_modes: ("SessionLessonMode",),
        }
        for forget, names in kept.items():
            for name in names:
                for signal in (post_save, post_delete):
                    signal.connect(
                        forget,
                        sender=self.get_model(name),
                        dispatch_uid=f"lessons.{forget.__name__}.{name}",
                    )
        # The lessons' parts of the classroom's launch form and of the live dashboard.
        register_session_field("lesson_mode", lesson_mode_field)
        session_created.connect(on_session_created, dispatch_uid="lessons.on_session_created")
        register_section(dashboard_section)
        # The quiz and the library on a student's "session ended" page.
        register_ended_offer(ended_offer)
