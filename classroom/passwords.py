"""The rules a teacher's password follows: Django's four validators, telling their rules
and refusals in the platform's own words.

Django's own texts address the reader as "usted" in Spanish ("Su contraseña no puede…",
"introduzca…") on pages that say "tú" everywhere else, and its refusals name no remedy;
these say what to do, in every language's catalogue of the platform.
"""

from __future__ import annotations

from django.contrib.auth import password_validation as django_rules
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


class MinimumLengthValidator(django_rules.MinimumLengthValidator):
    """At least ``min_length`` characters."""

    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short: it needs at least %(min_length)d character.",
            "This password is too short: it needs at least %(min_length)d characters.",
            self.min_length,
        )

    def get_help_text(self) -> str:
        return ngettext(
            "At least %(min_length)d character.",
            "At least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}


class UserAttributeSimilarityValidator(django_rules.UserAttributeSimilarityValidator):
    """Not close to the username (a teacher's account holds nothing else)."""

    def get_error_message(self) -> str:
        return _("This password is too close to your %(verbose_name)s: choose another.")

    def get_help_text(self) -> str:
        return _("Not close to your username.")


class CommonPasswordValidator(django_rules.CommonPasswordValidator):
    """Not one of the 20,000 most common passwords."""

    def get_error_message(self) -> str:
        return _("This password is one of the most common ones: choose another.")

    def get_help_text(self) -> str:
        return _("Not a common password.")


class NumericPasswordValidator(django_rules.NumericPasswordValidator):
    """Not digits only."""

    def get_error_message(self) -> str:
        return _("This password holds digits only: add letters.")

    def get_help_text(self) -> str:
        return _("Not digits only.")
