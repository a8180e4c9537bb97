"""The teacher's omniscient replay of a match: every hand shown, move by move.

Built from the engine state that replaying the seed and the action log gives
(``games.matches.replay_match`` and the state's ``to_json``/``zones``), never from a
seat's view: this is for the teacher's debrief only, after or beside the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.matches import replay_match
from games.registry import get_game
from lessons.reports.data import describer, event_line, table_players

# The zones of one seat, in the order a reader wants them, with their labels.
SEAT_ZONES = (
    ("hand", "hands"),
    ("reserve", "reserves"),
    ("collection", "collections"),
    ("frozen", "frozen"),
    ("purposes", "purposes"),
    ("consents", "consents"),
)


def zone_labels() -> dict[str, str]:
    """Return the translated name of each seat zone."""
    return {
        "hand": _("Hand"),
        "reserve": _("Reserve (face down)"),
        "collection": _("Collection"),
        "frozen": _("Frozen"),
        "purposes": _("Purposes kept"),
        "consents": _("Consents kept"),
    }


@dataclass
class SeatFrame:
    seat: int
    name: str
    bot: str
    zones: list[tuple[str, list[dict]]]
    treasures: list[dict]
    score: dict
    to_move: bool
    notes: list[str] = field(default_factory=list)


@dataclass
class Frame:
    move: int
    last: int
    seats: list[SeatFrame]
    table: list[dict]
    pile: list[dict]
    deck: list[dict]
    description: list[str]
    actor: str
    over: bool
    state: dict  # the engine's to_json at this move


def _chip(cards: dict, card_id: str, language: str) -> dict:
    card = cards.get(card_id, {})
    names = card.get("name") or {}
    return {
        "id": card_id,
        "name": names.get(language) or names.get("en") or card_id,
        "sensitive": bool(card.get("sensitive")),
    }


def frame(table, move: int, language: str) -> Frame:
    """Return the table's match as it stood after ``move`` (0: as dealt), every card shown."""
    match = table.match
    last = match.version
    move = max(0, min(move, last))
    state = replay_match(match, upto=move)
    data = state.to_json()
    game = get_game(match.game)
    cards = {card["id"]: card for card in game.cards(match.variant)}
    players = table_players(table)
    names = {player.seat: player.name for player in players}

    def chips(ids):
        return [_chip(cards, card_id, language) for card_id in ids]

    labels = zone_labels()
    scores = state.scores()
    movers = set(state.to_move())
    seats = []
    for player in players:
        s = player.seat
        zones = [(labels[name], chips(data[key][s])) for name, key in SEAT_ZONES if key in data]
        notes = []
        if data.get("skips") and data["skips"][s]:
            notes.append(_("skips %(turns)s turn(s)") % {"turns": data["skips"][s]})
        if data.get("transparent") and data["transparent"][s]:
            notes.append(_("open hand for %(turns)s turn(s)") % {"turns": data["transparent"][s]})
        seats.append(
            SeatFrame(
                seat=s,
                name=player.name,
                bot=player.bot,
                zones=zones,
                treasures=[
                    {"label": _chip(cards, t["label"], language), "cards": chips(t["cards"])}
                    for t in data.get("treasures", [[]] * len(players))[s]
                ],
                score=scores[s],
                to_move=s in movers,
                notes=notes,
            )
        )
    description, actor = [], ""
    if move:
        entry = match.actions.get(version=move)
        describe = describer(match.game)

        def player_name(seat):
            return names.get(seat, _("Player %(number)s") % {"number": seat + 1})

        def card_name(card_id):
            return _chip(cards, card_id, language)["name"]

        actor = player_name(entry.seat) if entry.seat is not None else _("the referee (a timer)")
        description = [
            event_line(describe, event, player_name, card_name)
            for event in entry.events
            if event["type"] not in ("turn",)
        ]
    return Frame(
        move=move,
        last=last,
        seats=seats,
        table=chips(data.get("table", [])),
        pile=chips(data.get("pile", [])),
        deck=chips(data.get("deck", [])),
        description=description,
        actor=actor,
        over=state.is_over(),
        state=data,
    )
