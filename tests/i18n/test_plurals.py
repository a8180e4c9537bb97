"""Sentences that depend on a number take the language's plural form (ngettext), never a
hand-made "(s)": the game log's lines and the replay's seat notes."""

from django.utils import translation

from games.data_tycoon.debrief import seat_notes
from games.describe import event_line, translate


def line(event: dict) -> str:
    with translation.override("en"):
        text = event_line("data_tycoon", event, lambda seat: f"P{seat + 1}", str)
    assert text is not None
    return text


def test_a_lost_data_treasure_is_one_treasure():
    lost = {"type": "treasures_lost", "seat": 0, "cause": "sanction", "count": 7}
    assert "loses 1 Data-Treasure:" in line({**lost, "treasures": 1})
    assert "loses 2 Data-Treasures:" in line({**lost, "treasures": 2})
    assert "(s)" not in line({**lost, "treasures": 2})


def test_one_winner_is_a_winner():
    assert line({"type": "game_over", "winners": [1]}) == "The game is over. Winner: P2."
    both = line({"type": "game_over", "winners": [0, 1]})
    assert both == "The game is over. Winners: P1, P2."


def test_conspiranoia_winners_too():
    with translation.override("en"):
        text = event_line("conspiranoia", {"type": "game_over", "winners": [0]}, str, str)
    assert text == "The game is over. Winner: 0."


def test_seat_notes_count_turns():
    with translation.override("en"):
        one = [translate(n) for n in seat_notes({"skips": [1], "transparent": [1]}, 0)]
        two = [translate(n) for n in seat_notes({"skips": [2], "transparent": [3]}, 0)]
    assert one == ["skips 1 turn", "open hand for 1 turn"]
    assert two == ["skips 2 turns", "open hand for 3 turns"]
