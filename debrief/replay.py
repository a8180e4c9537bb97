"""The teacher's omniscient replay of a match: every hand shown, move by move.

Built from the engine state that replaying the seed and the action log gives
(``games.matches.replay_stored`` and the state's ``to_json``/``zones``), never from a
seat's view: this is for the teacher's debrief only, after or beside the game. A match
played under rules that an upgrade changed is shown as far as today's rules replay it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from classroom.models import Table
from debrief.data import table_players
from games.describe import card_namer, event_line, translate
from games.matches import replay_stored
from games.registry import get_game


@dataclass
class SeatFrame:
    seat: int
    name: str
    bot: str
    zones: list[tuple[str, list[dict]]]
    groups: list[dict]  # {"title", "cards": chips}: cards a game keeps together
    score: list[tuple[str, int]]  # (column heading, value)
    to_move: bool
    notes: list[str] = field(default_factory=list)


@dataclass
class Frame:
    move: int
    last: int
    seats: list[SeatFrame]
    table_zones: list[tuple[str, list[dict], bool]]  # label, cards, face down in play
    description: list[str]
    actor: str
    over: bool
    state: dict  # the engine's to_json at this move
    highlight: str = ""  # what the highlighted cards are, in the page's language
    # The first move this release's rules refuse, when the replay met it: the match was
    # played under earlier rules, and the replay stops at the move before (``last``).
    refused: int | None = None


def _chip(cards: dict, card_id: str, language: str, highlight: str) -> dict:
    card = cards.get(card_id, {})
    names = card.get("name") or {}
    return {
        "id": card_id,
        "name": names.get(language) or names.get("en") or card_id,
        "highlight": bool(highlight and card.get(highlight)),
    }


def frame(table: Table, move: int, language: str) -> Frame:
    """Return the table's match as it stood after ``move`` (0: as dealt), every card
    shown; or, past the first move that today's rules refuse, as it stood before it.

    The whole log is replayed, so that every move's page knows where today's rules stop
    (the slider's end, and the page's note)."""
    match = table.match
    move = max(0, min(move, match.version))
    replayed = replay_stored(match, keep=move)
    last = replayed.reached
    if replayed.refused is not None and move > last:
        move = last
    state = replayed.state if move == last else replayed.kept
    assert state is not None  # kept: ``move`` lies before the end of the replay
    data = state.to_json()
    game = get_game(match.game)
    cards = {card["id"]: card for card in game.cards(match.variant)}
    players = table_players(table)
    names = {player.seat: player.name for player in players}

    def chip(card_id):
        return _chip(cards, card_id, language, game.highlight)

    def chips(ids):
        return [chip(card_id) for card_id in ids]

    scores = state.scores()
    movers = set(state.to_move())
    seats = []
    for player in players:
        s = player.seat
        seats.append(
            SeatFrame(
                seat=s,
                name=player.name,
                bot=player.bot,
                zones=[
                    (translate(zone.label), chips(data[zone.key][s]))
                    for zone in game.seat_zones
                    if zone.key in data
                ],
                groups=[
                    {
                        "title": translate(group["title"])
                        % {"label": chip(group["label"])["name"]},
                        "cards": chips(group["cards"]),
                    }
                    for group in game.card_groups(data, s)
                ],
                score=[(translate(c.label), scores[s][c.key]) for c in game.score_columns],
                to_move=s in movers,
                notes=[translate(note) for note in game.seat_notes(data, s)],
            )
        )
    description, actor = [], ""
    if move:
        entry = match.actions.get(version=move)

        def player_name(seat):
            return names.get(seat, _("Player %(number)s") % {"number": seat + 1})

        card_name = card_namer(match.game, match.variant, language)
        actor = player_name(entry.seat) if entry.seat is not None else _("the referee (a timer)")
        lines = (
            event_line(match.game, event, player_name, card_name)
            for event in entry.events
            if event["type"] not in ("turn",)
        )
        description = [line for line in lines if line is not None]
    return Frame(
        move=move,
        last=last,
        seats=seats,
        table_zones=[
            (translate(zone.label), chips(data[zone.key]), zone.face_down)
            for zone in game.table_zones
            if zone.key in data
        ],
        description=description,
        actor=actor,
        over=state.is_over(),
        state=data,
        highlight=translate(game.highlight_label) if game.highlight else "",
        refused=replayed.refused,
    )
