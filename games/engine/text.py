"""What every game's event log lines share: the names of players and cards when the
caller gives none (a simulation, a test): "Player 1", a card's English name."""

from collections.abc import Callable


def default_player(seat: int) -> str:
    """Return a neutral name for ``seat`` (seats count from 1 for people)."""
    return f"Player {seat + 1}"


def namers(
    player_name: Callable[[int], str] | None,
    card_name: Callable[[str], str] | None,
    by_id: dict[str, dict],
) -> tuple[Callable[[int], str], Callable[[str], str]]:
    """Return ``(player, card)``: the caller's namers, or the neutral defaults (a card
    by its English name in ``by_id``)."""
    return player_name or default_player, card_name or (lambda card: by_id[card]["name"]["en"])
