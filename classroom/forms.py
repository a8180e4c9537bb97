"""Forms: teacher sign-up, log-in and password change, classes, decks, session launch and the
student join form."""

from collections.abc import Callable
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    SetPasswordMixin,
    UserCreationForm,
)
from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from classroom import catalogue
from classroom.catalogue import localized
from classroom.codes import CODE_LENGTH, normalize_code
from classroom.models import MAX_PARTICIPANTS, Deck, SchoolClass
from classroom.nicknames import MAX_LENGTH, nickname_key, refusal_for_teacher, validate_nickname
from games.describe import translate
from games.engine.base import Game, Option
from games.engine.bots import LEVELS

# The words of Django's account forms the platform says its own way: Django's address
# the reader as "usted" in Spanish, where the platform says "tú", and name no remedy.
# The password rules' own words are in classroom/passwords.py.
PASSWORD_AGAIN_HELP = gettext_lazy("Type the same password again, to check it.")
PASSWORD_MISMATCH = gettext_lazy("The two passwords are not the same: type the same one twice.")
USERNAME_HELP = gettext_lazy("Up to 150 characters: letters, digits and @ . + - _ only.")
USERNAME_TAKEN = gettext_lazy(
    "This username is taken: choose another, or log in if the account is yours."
)
USERNAME_REFUSED = gettext_lazy(
    "A username holds only letters, digits and @ . + - _ (no space): change it."
)


class RulesBeforeMatch(SetPasswordMixin):
    """A new password's rules checked even when its confirmation differs: Django checks
    them only on a confirmed password, so a teacher who typed "abc" twice differently
    learnt only of the mismatch, then of the length at the next try."""

    first_field = "password1"

    def validate_password_for_user(
        self, user: User, password_field_name: str = "password2"
    ) -> None:
        confirmed = password_field_name in self.cleaned_data  # type: ignore[attr-defined]
        super().validate_password_for_user(
            user, password_field_name if confirmed else self.first_field
        )


class SignUpForm(RulesBeforeMatch, UserCreationForm):
    """A teacher account: a username and a password, nothing more (the platform sends no
    e-mail, so it asks for no address)."""

    error_messages = {**UserCreationForm.error_messages, "password_mismatch": PASSWORD_MISMATCH}

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]  # real, not in the stubs
        fields = ("username",)
        help_texts = {"username": USERNAME_HELP}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password2"].help_text = PASSWORD_AGAIN_HELP

    def clean_username(self) -> str:
        """Refuse a username with a sign Django's User refuses, or one taken in any case
        (as Django's form does), in the platform's words: a field refused here is not
        checked again by the model."""
        username: str = self.cleaned_data["username"]  # the field is required: it is there
        UnicodeUsernameValidator(message=USERNAME_REFUSED)(username)
        if User.objects.filter(username__iexact=username).exists():
            raise ValidationError(USERNAME_TAKEN, code="unique")
        return username


class TeacherLoginForm(AuthenticationForm):
    """Django's log-in form, its refusal in the platform's words."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": gettext_lazy(
            "Wrong username or password. Check both: capital letters count."
        ),
    }


class PasswordForm(RulesBeforeMatch, PasswordChangeForm):
    """Django's password change ("My account"), its words the platform's."""

    first_field = "new_password1"

    error_messages = {
        **PasswordChangeForm.error_messages,
        "password_mismatch": PASSWORD_MISMATCH,
        "password_incorrect": gettext_lazy(
            "This is not your current password: type it again. Nothing was changed."
        ),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["new_password2"].help_text = PASSWORD_AGAIN_HELP


class DeleteAccountForm(forms.Form):
    """A teacher deletes their own account: their password says it is them."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise ValidationError(
                _("This is not your password. Your account was not deleted."), code="wrong"
            )
        return password


# A number field's refusals in the platform's words (Django's Spanish says "Asegúrese de
# que…", "Introduzca…").
NUMBER_ERRORS = {
    "invalid": gettext_lazy("Type a whole number, like 4."),
    "min_value": gettext_lazy("Too small: the smallest allowed here is %(limit_value)s."),
    "max_value": gettext_lazy("Too large: the largest allowed here is %(limit_value)s."),
}


class SchoolClassForm(forms.ModelForm):
    """Name a class and, if wanted, list its students' pseudonyms."""

    class Meta:
        model = SchoolClass
        fields = ["name", "roster"]
        widgets = {"roster": forms.Textarea(attrs={"rows": 8})}
        # "Name" alone, under the page's word on full names, read as a person's name
        labels = {"name": gettext_lazy("Name of the class")}
        help_texts = {
            "roster": gettext_lazy(
                "One pseudonym per line, for example an animal or a made-up name: students "
                "then pick theirs from this list when they join."
            ),
        }

    def clean_roster(self) -> str:
        """Check each pseudonym like a nickname and refuse duplicates."""
        lines = [line for line in self.cleaned_data["roster"].splitlines() if line.strip()]
        if len(lines) > MAX_PARTICIPANTS:
            raise ValidationError(
                _("A roster can list at most %(max)d pseudonyms.") % {"max": MAX_PARTICIPANTS}
            )
        pseudonyms, seen, errors = [], set(), []
        for line in lines:
            try:
                pseudonym = validate_nickname(line)
            except ValidationError as error:
                problem = refusal_for_teacher(error)
                errors.append(
                    _("«%(name)s»: %(problem)s") % {"name": line.strip(), "problem": problem}
                )
                continue
            key = nickname_key(pseudonym)
            if key in seen:
                errors.append(_("«%(name)s» is listed twice.") % {"name": pseudonym})
                continue
            seen.add(key)
            pseudonyms.append(pseudonym)
        if errors:
            raise ValidationError(errors)
        return "\n".join(pseudonyms)


def game_choices() -> list[tuple[str, str]]:
    """Return the registered games as (slug, name) pairs in the current language."""
    return [(game.slug, localized(game.name)) for game in catalogue.available_games()]


def variant_choices() -> list[tuple[str, str | list[tuple[str, str]]]]:
    """Return every game's variants, grouped by game, for one select."""
    choices: list[tuple[str, str | list[tuple[str, str]]]] = [("", _("The game's default variant"))]
    for game in catalogue.available_games():
        group = [(slug, localized(labels)) for slug, labels in game.variants.items()]
        choices.append((localized(game.name), group))
    return choices


class VariantSelect(forms.Select):
    """The select of every game's variants, one group a game (variant_choices): each
    option names its game in ``data-game``, so that static/js/session_form.js lists the
    chosen game's variants only. Several games have a variant of the same slug
    ("standard"): the server checks the variant against the chosen game (SessionForm.clean).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group_games: dict[str, str] = {}  # a group's label (a game's name) -> its slug

    def optgroups(
        self, name: str, value: list[str], attrs: dict[str, Any] | None = None
    ) -> list[tuple[str | None, list[dict[str, Any]], int | None]]:
        groups = super().optgroups(name, value, attrs)
        for group_name, options, _index in groups:
            slug = self.group_games.get(group_name or "")
            for option in options if slug else ():
                option["attrs"]["data-game"] = slug
        return groups


OPTION_PREFIX = "option"


def _choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """Return the form's field ``name``, a ChoiceField (``form.fields`` types any Field)."""
    return cast(forms.ChoiceField, form.fields[name])


def option_field_name(game_slug: str, key: str) -> str:
    """Return the form field name of one game's option."""
    return f"{OPTION_PREFIX}__{game_slug}__{key}"


def option_field(option: Option) -> forms.Field:
    """Return the form field of a game's option: blank means the game's default."""
    label = translate(option.label)
    if option.multiple:
        return forms.MultipleChoiceField(
            label=label,
            choices=[(value, translate(text)) for value, text in option.choices],
            required=False,
            widget=forms.CheckboxSelectMultiple,
            help_text=translate(option.help) if option.help else "",
        )
    if option.choices:
        choices = [("", _("The game's default"))]
        choices += [(value, translate(text)) for value, text in option.choices]
        return forms.ChoiceField(label=label, choices=choices, required=False)
    help_text = _(
        "From %(min)s to %(max)s; leave blank for the default of the game or of the chosen "
        "variant (usually %(default)s)."
    ) % {
        "min": option.minimum,
        "max": option.maximum,
        "default": option.default,
    }
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=option.minimum,
        max_value=option.maximum,
        help_text=help_text,
        error_messages=NUMBER_ERRORS,
    )


# Fields that apps above the classroom add to the session form (the lessons app: how
# lesson cards show during play), registered from their AppConfig.ready(), so that the
# classroom imports none of them: name -> a function that makes the field.
SESSION_FIELDS: dict[str, Callable[[], forms.Field]] = {}


def register_session_field(name: str, make_field: Callable[[], forms.Field]) -> None:
    """Add a field to every session form; its value goes to session_created's ``choices``."""
    SESSION_FIELDS[name] = make_field


class SessionForm(forms.Form):
    """Launch a session: game, variant, language, table size, bots and the game's options.

    Each game's options are fields of their own, left blank for the game's (or the
    variant's) default; only the chosen game's filled-in options are kept, as
    ``cleaned_data["options"]``.
    """

    game = forms.ChoiceField(label=gettext_lazy("Game"))
    variant = forms.ChoiceField(label=gettext_lazy("Variant"), required=False, widget=VariantSelect)
    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        help_text=gettext_lazy("The students' pages and the game use this language."),
    )
    # No bounds of its own: ``clean`` names the chosen game's (a bound of 1 to 60 here
    # answered 99 with "at most 60" for a game of 2 to 4).
    table_size = forms.IntegerField(
        label=gettext_lazy("Players per table"), error_messages=NUMBER_ERRORS
    )
    # On by default: most classes do not split into full tables.
    bots_fill = forms.BooleanField(
        label=gettext_lazy("Bots fill empty seats"), required=False, initial=True
    )
    bot_level = forms.ChoiceField(
        label=gettext_lazy("Bots"),
        required=False,
        initial="friendly",
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "How well the bots play. They play the empty seats, and the seat of any student "
            "you hand to a bot."
        ),
    )
    approve_joins = forms.BooleanField(
        label=gettext_lazy("Approve each new nickname"),
        required=False,
        help_text=gettext_lazy("Each student waits until you let them in from the live dashboard."),
    )
    generated_nicknames = forms.BooleanField(
        label=gettext_lazy("Nicknames from a generator only"),
        required=False,
        help_text=gettext_lazy(
            "Students get two friendly words (an adjective and an animal) instead of "
            "typing a nickname. A class list, if the class has one, comes first."
        ),
    )

    # The cleaned values of the fields other apps added (SESSION_FIELDS).
    extra: dict = {}

    def __init__(self, *args: Any, teacher: User | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, make_field in SESSION_FIELDS.items():
            self.fields[name] = make_field()
        self.games = catalogue.available_games()
        _choice_field(self, "game").choices = game_choices()
        _choice_field(self, "variant").choices = variant_choices()
        cast(VariantSelect, self.fields["variant"].widget).group_games = {
            localized(game.name): game.slug for game in self.games
        }
        _choice_field(self, "bot_level").choices = [
            # a dash, not a colon: the description holds a colon of its own
            (level, _("%(level)s — %(what)s") % {"level": _(label), "what": _(what)})
            for level, (label, what) in LEVELS.items()
        ]
        _choice_field(self, "language").choices = list(settings.LANGUAGES)
        self.fields["language"].initial = (get_language() or settings.LANGUAGE_CODE)[:2]
        for game in self.games:
            for option in game.options:
                self.fields[option_field_name(game.slug, option.key)] = option_field(option)
        # The teacher's own built decks only: another teacher's deck is no valid choice.
        # No teacher (a form read for its fields): no deck, and no query.
        decks = (
            Deck.objects.filter(
                teacher=teacher, game__in=[game.slug for game in self.games if game.deck_option]
            )
            if teacher is not None and teacher.pk
            else ()
        )
        self.decks = {deck.pk: deck for deck in decks}
        for game in self.games:
            if game.deck_option:
                self.fields[option_field_name(game.slug, game.deck_option)] = self._deck_field(game)
        if self.games:
            first = self.games[0]
            self.fields["table_size"].initial = max(first.min_players, min(4, first.max_players))
        else:
            for field in self.fields.values():
                field.disabled = True

    def _deck_field(self, game: Game) -> forms.Field:
        """Return the choice of one of the teacher's built decks for ``game``."""
        choices = [("", _("No: the decks chosen above"))]
        own = [(str(pk), deck.name) for pk, deck in self.decks.items() if deck.game == game.slug]
        choices += own
        return forms.ChoiceField(
            label=_("A deck you built"),
            choices=choices,
            required=False,
            help_text=_(
                "Every seat plays this deck instead of a starter set. Build decks with the "
                "deck builder (on your dashboard)."
            ),
        )

    def main_fields(self) -> list:
        """Return the bound fields every session has, in order."""
        return [field for field in self if not field.name.startswith(OPTION_PREFIX)]

    def variant_help(self) -> list[dict]:
        """Return each game's variants with what each one is, in the current language."""
        return [
            {
                "slug": game.slug,
                "name": localized(game.name),
                "variants": [
                    (localized(label), localized(game.variant_descriptions.get(slug) or {}))
                    for slug, label in game.variants.items()
                ],
            }
            for game in self.games
        ]

    def option_groups(self) -> list[dict]:
        """Return each game with options: its slug, its name and its option fields."""
        groups = []
        for game in self.games:
            keys = [o.key for o in game.options] + ([game.deck_option] if game.deck_option else [])
            if keys:
                fields = [self[option_field_name(game.slug, key)] for key in keys]
                groups.append({"slug": game.slug, "name": localized(game.name), "fields": fields})
        return groups

    @property
    def has_games(self) -> bool:
        """Tell whether any game can be launched."""
        return bool(self.games)

    def clean(self) -> dict[str, Any]:
        """Check the variant and the table size against the chosen game."""
        super().clean()
        cleaned = self.cleaned_data  # what Form.clean() returns (the stubs allow None)
        # Not arguments of do_create_session (callers pass cleaned_data to it): the
        # launch view sends them with classroom.signals.session_created.
        self.extra = {name: cleaned.pop(name, None) for name in SESSION_FIELDS}
        if not self.games:
            raise ValidationError(_("No game is available yet."))
        # Callers pass cleaned_data to do_create_session: the options go as one dict.
        given = {
            name: cleaned.pop(name) for name in list(cleaned) if name.startswith(OPTION_PREFIX)
        }
        level = cleaned.pop("bot_level", "")
        game = catalogue.find_game(cleaned.get("game") or "")
        if game is None:
            return cleaned
        variant = cleaned.get("variant") or game.default_variant
        if variant not in game.variants:
            self.add_error("variant", _("This variant does not belong to the chosen game."))
        cleaned["variant"] = variant
        cleaned["options"] = self._chosen_options(game, given)
        cleaned["bot"] = self._chosen_bot(game, level or "friendly")
        size = cleaned.get("table_size")
        if game.deck_option:
            self._choose_deck(game, given, cleaned, variant, size or game.min_players)
        if size is not None and not game.min_players <= size <= game.max_players:
            self.add_error(
                "table_size",
                _("%(game)s is played by %(min)d to %(max)d players per table.")
                % {
                    "game": localized(game.name),
                    "min": game.min_players,
                    "max": game.max_players,
                },
            )
        return cleaned

    def _choose_deck(self, game: Game, given: dict, cleaned: dict, variant: str, size: int) -> None:
        """Put the chosen built deck in the options: every seat plays it; note an error
        for a deck the variant or the table cannot play."""
        name = option_field_name(game.slug, game.deck_option)
        chosen = given.get(name)
        if not chosen:
            return
        deck = self.decks[int(chosen)]
        problems = game.check_deck(list(deck.cards), variant, size)
        if problems:
            self.add_error(name, [translate(problem) for problem in problems])
            return
        cleaned["options"][game.deck_option] = [list(deck.cards)]

    def _chosen_bot(self, game: Game, level: str) -> str:
        """Return the kind of the game's bot of ``level``; note an error if it has none."""
        if not catalogue.bot_levels(game):
            return ""  # a game without bots a teacher may choose: the server's default
        kind = catalogue.bot_for_level(game, level)
        if kind is None:
            self.add_error(
                "bot_level",
                _("%(game)s has no bot of this level yet: choose another.")
                % {"game": localized(game.name)},
            )
            return ""
        return kind

    def _chosen_options(self, game: Game, given: dict) -> dict:
        """Return the chosen game's filled-in options (``given``: by field name), checked."""
        options = {}
        for option in game.options:
            value = given.get(option_field_name(game.slug, option.key))
            if value not in (None, "", []):
                options[option.key] = value
        try:
            return game.clean_options(options)
        except ValueError as error:
            raise ValidationError(str(error)) from error


CARD_PREFIX = "card__"
# The most copies of a card the form takes: above any rule, so that the rule's own
# message (not a number field's) says what is wrong.
MAX_CARD_COUNT = 99


class DeckForm(forms.Form):
    """Build a deck: a name and how many copies of each card of ``game``'s catalogue.

    Valid only when the deck keeps every deck-building rule of the game (``check_deck``):
    each broken rule is a message of its own.
    """

    name = forms.CharField(label=gettext_lazy("Name of the deck"), max_length=80)

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.catalogue = game.deck_catalogue()
        self.total = 0
        for card in self.catalogue:
            self.fields[CARD_PREFIX + card["key"]] = forms.IntegerField(
                label=localized(card["name"]),
                min_value=0,
                max_value=MAX_CARD_COUNT,
                required=False,
                initial=0,
                error_messages=NUMBER_ERRORS,
                widget=forms.NumberInput(
                    attrs={"class": "deck-count", "data-allowed": card["allowed"]}
                ),
            )

    @staticmethod
    def counts(keys: list[str]) -> dict[str, int]:
        """Return the form's initial card counts for a deck of card ``keys``."""
        counts: dict[str, int] = {}
        for key in keys:
            counts[CARD_PREFIX + key] = counts.get(CARD_PREFIX + key, 0) + 1
        return counts

    def card_groups(self) -> list[dict]:
        """Return the card fields grouped by set, each group with its label."""
        labels = {key: translate(deck["label"]) for key, deck in self.game.starter_decks().items()}
        groups: dict[str, dict] = {}
        for card in self.catalogue:
            group = groups.setdefault(
                card["set"], {"label": labels.get(card["set"], card["set"]), "fields": []}
            )
            bound = self[CARD_PREFIX + card["key"]]
            group["fields"].append({"field": bound, "allowed": card["allowed"]})
        return list(groups.values())

    def numbers_wrong(self) -> bool:
        """Tell whether a card's number is refused (then the deck's rules wait for it)."""
        return any(name.startswith(CARD_PREFIX) for name in self.errors)

    def keys(self) -> list[str]:
        """Return the deck's card keys, one per copy, in the catalogue's order."""
        keys = []
        for card in self.catalogue:
            count = self.cleaned_data.get(CARD_PREFIX + card["key"]) or 0
            keys += [card["key"]] * count
        return keys

    def clean(self) -> dict[str, Any]:
        """Refuse a deck that breaks a deck-building rule, one message per rule."""
        super().clean()
        cleaned = self.cleaned_data  # what Form.clean() returns (the stubs allow None)
        if self.numbers_wrong():
            return cleaned
        keys = self.keys()
        self.total = len(keys)
        problems = self.game.check_deck(keys, self.game.default_variant, self.game.min_players)
        if problems:
            raise ValidationError([translate(problem) for problem in problems])
        cleaned["cards"] = keys
        return cleaned


class JoinForm(forms.Form):
    """A student's join form: the code, then a nickname or a roster pseudonym."""

    code = forms.CharField(
        label=gettext_lazy("Game code"),
        max_length=CODE_LENGTH * 3,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "inputmode": "text",
                "class": "code-input",
            }
        ),
    )
    nickname = forms.CharField(
        label=gettext_lazy("Nickname"),
        error_messages={"required": gettext_lazy("Please type a nickname.")},
        max_length=MAX_LENGTH * 3,
        help_text=gettext_lazy("2 to 20 characters. Not your real name: a nickname is enough."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    pseudonym = forms.ChoiceField(
        label=gettext_lazy("Your name in this class"),
        error_messages={"required": gettext_lazy("Please choose your name in the list.")},
    )

    def __init__(
        self,
        *args: Any,
        pseudonyms: list[str] | None = None,
        generated: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.uses_roster = pseudonyms is not None
        # The session gives generated nicknames: the student types only the code.
        self.uses_generator = generated and not self.uses_roster
        if self.uses_generator:
            del self.fields["nickname"]
            del self.fields["pseudonym"]
        elif pseudonyms is not None:  # self.uses_roster
            del self.fields["nickname"]
            _choice_field(self, "pseudonym").choices = [("", _("Choose your name"))] + [
                (name, name) for name in pseudonyms
            ]
        else:
            del self.fields["pseudonym"]

    def clean_code(self) -> str:
        """Normalize the code: case-insensitive, spaces ignored."""
        return normalize_code(self.cleaned_data["code"])

    def clean_nickname(self) -> str:
        """Apply the nickname rules."""
        return validate_nickname(self.cleaned_data["nickname"])
