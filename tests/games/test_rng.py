"""The seeded generator: its fast shuffle and draws are the textbook ones, number for number."""

from games.engine.rng import Rng


def _textbook_shuffle(rng, items):
    # Fisher-Yates from the last item down, one ``next`` per swap
    for i in range(len(items) - 1, 0, -1):
        j = rng.next() % (i + 1)
        items[i], items[j] = items[j], items[i]


def test_shuffle_and_draws_match_the_textbook_one_number_at_a_time():
    for n in range(130):
        for seed in (0, 1, 2**64 - 1, 123456789):
            fast, slow = Rng(seed), Rng(seed)
            items, expected = list(range(n)), list(range(n))
            fast.shuffle(items)
            _textbook_shuffle(slow, expected)
            assert items == expected
            assert fast.state == slow.state
            assert list(fast.draws(n)) == [slow.next() for _ in range(n)]
