"""A ``state`` message stays small: every socket at a table is sent one after every
action, so it carries the seat's view and nothing that does not change (the card
catalogue comes once, with ``hello``)."""

import random

import pytest

from classroom import actions
from classroom.models import Table
from games.matches import apply_action, load_state
from games.models import Match
from live import messages
from live.consumers import message_text
from tests.live.conftest import open_session, seat_students

pytestmark = pytest.mark.django_db

# The most a state message of one seat may weigh, in bytes of JSON text.
STATE_LIMIT = 5 * 1024


@pytest.mark.parametrize("variant", ["standard", "expert"])
def test_every_seat_state_of_a_whole_game_is_under_5_kb(school_class, variant):
    session = open_session(school_class, table_size=4, variant=variant)
    seat_students(session, "Ana", "Ben", "Cleo", "Dev")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    rng = random.Random(7)
    sizes = []
    for _action in range(400):
        snap = messages.load_table(table.pk)
        for seat in messages.audience(snap):
            text = message_text(messages.state_message(snap, seat, "en"))
            assert "catalogue" not in text
            sizes.append(len(text.encode()))
        if snap.state.is_over():
            break
        seat = sorted(snap.state.to_move())[0]
        match = Match.objects.get(pk=snap.match.pk)
        legal = load_state(match).legal_actions(seat)
        apply_action(match.pk, seat, rng.choice(legal), match.version)
    assert len(sizes) > 100
    assert max(sizes) < STATE_LIMIT, f"largest state {max(sizes)} bytes"
