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


def test_shuffle_in_puts_each_new_item_at_a_place_drawn_one_number_at_a_time():
    for count in range(20):
        for seed in (0, 1, 2**64 - 1, 123456789):
            fast, slow = Rng(seed), Rng(seed)
            items: list[int | str] = list(range(40))
            expected: list[int | str] = list(range(40))
            new = [f"new{k}" for k in range(count)]
            fast.shuffle_in(items, new)
            for item in new:
                expected.insert(slow.next() % (len(expected) + 1), item)
            assert items == expected
            assert fast.state == slow.state


def test_cards_shuffled_into_an_unseen_shuffled_deck_come_in_every_order_equally_often():
    """A shuffled deck and two cards shuffled in: each of the 120 orders of the five as
    often as the others (chi-square; 119 degrees of freedom, so about 119 by chance),
    as with a shuffle of the whole. The top and the bottom are places too."""
    counts: dict[str, int] = {}
    runs = 60_000
    for seed in range(runs):
        rng = Rng(seed)
        deck = ["a", "b", "c"]
        rng.shuffle(deck)
        rng.shuffle_in(deck, ["d", "e"])
        order = "".join(deck)
        counts[order] = counts.get(order, 0) + 1
    assert len(counts) == 120
    expected = runs / 120
    chi_square = sum((seen - expected) ** 2 / expected for seen in counts.values())
    assert chi_square < 180, chi_square
