"""The deck builder: a teacher builds, renames and deletes decks for games with deck
building; the session form then offers them beside the starter sets."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classroom.catalogue import deck_games, find_deck_game, localized
from classroom.forms import DeckForm
from classroom.models import Deck
from classroom.typing import AuthenticatedHttpRequest
from games.describe import translate
from games.engine.base import Game


def _deck_game_or_404(slug: str) -> Game:
    game = find_deck_game(slug)
    if game is None:
        raise Http404
    return game


def _get_deck_or_404(request: AuthenticatedHttpRequest, pk: int) -> Deck:
    """Return the teacher's deck, or 404 for any deck of another teacher."""
    return get_object_or_404(Deck, pk=pk, teacher=request.user)


@login_required
def deck_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """List the games with deck building, their starter decks and the teacher's decks."""
    decks = list(Deck.objects.filter(teacher=request.user))
    games = [
        {
            "slug": game.slug,
            "name": localized(game.name),
            "starters": [(key, translate(d["label"])) for key, d in game.starter_decks().items()],
            "decks": [deck for deck in decks if deck.game == game.slug],
        }
        for game in deck_games()
    ]
    return render(request, "classroom/deck_list.html", {"games": games})


def _edit(
    request: AuthenticatedHttpRequest, game: Game, deck: Deck | None, initial: dict[str, Any]
) -> HttpResponse:
    """Show the deck form; save a deck that keeps every rule. A refused deck comes back
    as the teacher left it, with one message per broken rule."""
    form = DeckForm(request.POST or None, game=game, initial=initial)
    if request.method == "POST" and form.is_valid():
        if deck is None:
            deck = Deck(teacher=request.user, game=game.slug)
        deck.name, deck.cards = form.cleaned_data["name"], form.cleaned_data["cards"]
        deck.save()
        messages.success(request, _("Deck “%(name)s” saved.") % {"name": deck.name})
        return redirect("classroom:deck_list")
    return render(
        request,
        "classroom/deck_form.html",
        {"form": form, "deck": deck, "game_name": localized(game.name), "game_slug": game.slug},
    )


@login_required
def deck_create(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    """Build a new deck, empty or (``?start=<starter deck>``) from a starter deck."""
    deck_game = _deck_game_or_404(game)
    starter = deck_game.starter_decks().get(request.GET.get("start", ""))
    initial: dict[str, Any] = DeckForm.counts(starter["cards"]) if starter else {}
    if starter:
        initial["name"] = translate(starter["label"])
    return _edit(request, deck_game, None, initial)


@login_required
def deck_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Change or rename one of the teacher's decks."""
    deck = _get_deck_or_404(request, pk)
    game = _deck_game_or_404(deck.game)
    return _edit(request, game, deck, {"name": deck.name, **DeckForm.counts(deck.cards)})


@login_required
@require_POST
def deck_check(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    """Return the deck's count and the rules it breaks now (htmx: as the teacher types)."""
    deck_game = _deck_game_or_404(game)
    form = DeckForm(request.POST, game=deck_game)
    form.is_valid()  # an empty name is no deck-building rule: only the rules show
    return render(
        request,
        "classroom/fragments/deck_check.html",
        {"form": form},
    )


@login_required
def deck_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Ask for confirmation (GET), then delete the deck (POST)."""
    deck = _get_deck_or_404(request, pk)
    if request.method == "POST":
        name = deck.name
        deck.delete()
        messages.success(request, _("Deck “%(name)s” deleted.") % {"name": name})
        return redirect("classroom:deck_list")
    return render(request, "classroom/deck_confirm_delete.html", {"deck": deck})
