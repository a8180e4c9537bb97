"""The form in which a teacher rewords a lesson for their own classes."""

from django import forms
from django.utils.translation import gettext_lazy as _


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
