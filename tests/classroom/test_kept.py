"""What a process keeps of rows that seldom change: read once, read again once expired or
forgotten, and never more than its bound."""

from classroom.kept import Kept


def reader(values):
    reads = []

    def read(key):
        def once():
            reads.append(key)
            return values[key]

        return once

    return reads, read


def test_a_kept_value_is_read_once_until_forgotten():
    reads, read = reader({"a": 1, "b": 2})
    kept: Kept[int] = Kept()
    assert [kept.get("a", read("a")), kept.get("a", read("a")), kept.get("b", read("b"))] == [
        1,
        1,
        2,
    ]
    assert reads == ["a", "b"]
    kept.forget()
    assert kept.get("a", read("a")) == 1
    assert reads == ["a", "b", "a"]


def test_a_kept_value_is_read_again_once_it_expires():
    seconds = [60.0]
    reads, read = reader({"a": 1})
    kept: Kept[int] = Kept(lambda: seconds[0])
    kept.get("a", read("a"))
    kept.get("a", read("a"))
    assert reads == ["a"]
    seconds[0] = 0.0  # the next read expires at once
    kept.forget()
    kept.get("a", read("a"))
    kept.get("a", read("a"))
    assert reads == ["a", "a", "a"]


def test_past_its_bound_everything_kept_is_forgotten():
    reads, read = reader({n: n for n in range(4)})
    kept: Kept[int] = Kept(most=3)
    for n in range(3):
        kept.get(n, read(n))
    kept.get(3, read(3))  # the fourth: the three are forgotten
    kept.get(3, read(3))
    kept.get(0, read(0))
    assert reads == [0, 1, 2, 3, 0]
