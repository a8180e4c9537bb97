"""The form in which a teacher rewords a lesson for their own classes, and the lesson
mode field of the session form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from lessons.models import SessionLessonMode


def lesson_mode_field() -> forms.Field:
    """Return the session form's field for how lesson cards show during play
    (registered with classroom.forms.register_session_field)."""
    return forms.ChoiceField(
        label=_("GDPR lesson cards during play"),
        required=False,
        initial="show",
        choices=SessionLessonMode.Mode.choices,
        # Radio buttons: a select cut the modes' wording short on a phone and in Spanish.
        widget=forms.RadioSelect,
        help_text=_(
            "A special card opens a short lesson for the players involved and the "
            "projector. You can change this later on the live dashboard."
        ),
    )


class OverrideForm(forms.Form):
    """A teacher's wording of a lesson in one language; a blank field keeps the shipped text."""

    title = forms.CharField(label=_("Title"), max_length=150, required=False)
    short = forms.CharField(
        label=_("Short explanation (at most two sentences)"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    body = forms.CharField(
        label=_("Longer explanation"), widget=forms.Textarea(attrs={"rows": 8}), required=False
    )
    discussion = forms.CharField(
        label=_("Discussion question"), widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
