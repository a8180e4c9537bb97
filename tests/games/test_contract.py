"""The contract every registered game keeps, checked on random games (hypothesis).

Parametrized over ``all_games()``, their variants and player counts, so a new
game gets these tests for free.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction
from games.engine.bots import RandomBot
from games.engine.driver import play
from games.engine.replay import replay
from games.registry import all_games, get_game
from tests.games.playout import choose, playout, strings

CASES = [
    pytest.param(game.slug, variant, n, id=f"{game.slug}-{variant}-{n}p")
    for game in all_games()
    for variant in game.variants
    for n in range(game.min_players, game.max_players + 1)
]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FEW = settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
SOME = settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))


def dumps(state):
    """Return the canonical JSON text of ``state``."""
    return json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))


def all_private(state, players):
    """Return ``{seat: set of private card ids}``."""
    return {s: set(state.private_cards(s)) for s in range(players)}


def check_zones(game, variant, state):
    """Assert every card of the variant is in exactly one zone."""
    ids = [c["id"] for c in game.cards(variant)]
    placed = [c for zone in state.zones().values() for c in zone]
    assert sorted(placed) == sorted(ids)


def check_views(state, players, public_before):
    """Assert no view shows another seat's private cards or the deck."""
    private = all_private(state, players)
    deck = set(state.zones()["deck"])
    for seat in [None, *range(players)]:
        view = state.view(seat)
        json.dumps(view)
        others = set().union(*(ids for s, ids in private.items() if s != seat)) | deck
        events = view.pop("last_events", [])
        assert not strings(view) & others, f"view({seat}) leaks {strings(view) & others}"
        # An event may name a card now hidden only if that card was public before it.
        assert strings(events) & others <= public_before


def public_ids(state, players):
    """Return the ids that nobody holds privately and that are not in the deck."""
    zones = state.zones()
    hidden = set(zones["deck"]).union(*all_private(state, players).values())
    return {c for zone in zones.values() for c in zone} - hidden


def illegal_candidates(state, players, rng):
    """Return actions that must be refused now, as ``(seat, action)`` pairs."""
    out = [(None, {"type": "expire", "timer": "no-such-timer"}), (0, {"type": "no-such-move"})]
    movers = state.to_move()
    for seat in range(players):
        if seat not in movers:
            for mover in movers:
                legal = state.legal_actions(mover)
                if legal:
                    out.append((seat, rng.choice(legal)))
    for mover in movers:
        legal = state.legal_actions(mover)
        out.append((mover, {"type": "play", "card": "not-a-card"}))
        if legal:
            action = dict(rng.choice(legal))
            action["extra"] = 1
            out.append((mover, action))
    return [(s, a) for s, a in out if a not in state.legal_actions(s)]


@pytest.mark.parametrize(("slug", "variant", "players"), CASES)
@FEW
@given(seed=SEEDS, choice_seed=SEEDS)
def test_invariants_at_every_step(slug, variant, players, seed, choice_seed):
    """JSON round trip, conservation, private views and refusals hold at every step."""
    game = get_game(slug)
    rng = random.Random(choice_seed ^ 0x5EED)
    public_before: list[set[str]] = [set()]

    def check(state, seat, action):
        text = dumps(state)
        copy = game.from_json(json.loads(text))
        assert dumps(copy) == text
        check_zones(game, variant, copy)
        check_views(copy, players, public_before[0])
        for asked in [None, *range(players)]:
            # a game's quick ways to its legal lists (a kept list, a usual case first)
            # give what its one source of legality gives
            assert copy.peek_legal_actions(asked) == copy._compute_legal(asked)
            assert copy.legal_actions(asked) == copy._compute_legal(asked)
        for bad_seat, bad in illegal_candidates(copy, players, rng):
            legal = copy.legal_actions(bad_seat)
            with pytest.raises(IllegalAction) as info:
                copy.apply(bad_seat, bad)
            assert info.value.code and info.value.message
            assert dumps(copy) == text
            assert copy.legal_actions(bad_seat) == legal
        public_before[0] = public_ids(copy, players)
        return copy  # go on playing from the round-tripped copy

    state, _ = playout(game, variant, players, seed, choice_seed, check=check)
    check_zones(game, variant, state)
    check_views(state, players, public_before[0])
    result = state.result()
    assert result["winners"] and result["decided_by"]
    assert state.to_move() == [] and state.legal_actions(None) == []


@pytest.mark.parametrize(("slug", "variant", "players"), CASES)
@SOME
@given(seed=SEEDS, choice_seed=SEEDS)
def test_determinism_and_replay(slug, variant, players, seed, choice_seed):
    """The same seed and actions give the same JSON; seed plus log rebuilds every step."""
    game = get_game(slug)
    snapshots = []
    first, log = playout(
        game, variant, players, seed, choice_seed, check=lambda s, *_: snapshots.append(dumps(s))
    )
    second, log2 = playout(game, variant, players, seed, choice_seed)
    assert log == log2
    assert dumps(first) == dumps(second)
    assert json.loads(json.dumps(log)) == [list(step) for step in log]
    assert dumps(replay(game, players, seed, variant, log)) == dumps(first)
    for k in {0, len(log) // 3, len(log) // 2, len(log) - 1}:
        assert dumps(replay(game, players, seed, variant, log[:k])) == snapshots[k]


ACTION_TYPES = st.sampled_from(
    [
        "play",
        "keep",
        "set_aside",
        "attack",
        "discard",
        "build",
        "split",
        "call_data",
        "call_databreach",
        "counter",
        "accept",
        "freeze",
        "lose",
        "expire",
        "bogus",
    ]
)


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=SEEDS, steps=st.integers(min_value=0, max_value=150))
def test_apply_accepts_exactly_legal_actions(slug, data, seed, steps):
    """Any action not listed by legal_actions is refused and changes nothing."""
    game = get_game(slug)
    variant = data.draw(st.sampled_from(list(game.variants)))
    players = data.draw(st.integers(game.min_players, game.max_players))
    state = game.new_state(players, seed, variant)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(*choose(state, rng))
    ids = [c["id"] for c in game.cards(variant)]
    seat = data.draw(st.sampled_from([None, *range(players)]))
    action = {"type": data.draw(ACTION_TYPES)}
    for key, values in (
        ("card", st.sampled_from(ids)),
        ("capture", st.sampled_from(ids)),
        ("target", st.integers(-1, players)),
        ("timer", st.sampled_from(["w1", "w2", "t3", f"w{state.to_json()['serial']}"])),
        ("kind", st.sampled_from(["lawyer", "consent", "time", "cybersecurity"])),
    ):
        if data.draw(st.booleans()):
            action[key] = data.draw(values)
    legal = state.legal_actions(seat)
    if legal and data.draw(st.booleans()):
        action = data.draw(st.sampled_from(legal))
    text = dumps(state)
    if action in legal:
        state.apply(seat, action)
    else:
        with pytest.raises(IllegalAction):
            state.apply(seat, action)
        assert dumps(state) == text


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_a_state_keeps_its_attributes_in_slots(slug):
    # a game's steps are mostly attribute reads: slots are the fastest in CPython, and an
    # instance dict of more than 29 attributes is a real, slower dict in 3.11
    game = get_game(slug)
    state = game.new_state(min(4, game.max_players), 1, game.default_variant)
    seat = next(iter(state.to_move()), None)
    state.apply(seat, state.legal_actions(seat)[0])
    for made in (state, state.copy(), game.from_json(state.to_json())):
        assert not hasattr(made, "__dict__")


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_a_new_match_holds_the_default_options_its_game_gives_for_its_variant(slug):
    # ``default_options`` is what the server and the session form read for a variant:
    # a variant's own defaults (a longer call window for beginners) must be in it
    game = get_game(slug)
    assert game.variants
    for variant in game.variants:
        defaults = game.default_options(variant)
        assert defaults
        state = game.new_state(game.min_players, 1, variant)
        held = {key: state.options[key] for key in defaults}
        assert json.dumps(held, sort_keys=True) == json.dumps(defaults, sort_keys=True), variant


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_the_driver_refuses_a_bot_action_that_is_not_legal(slug):
    # the driver applies a listed action unchecked (apply_legal): anything else goes
    # through apply, which refuses it
    class Cheat(RandomBot):
        def choose(self, view, legal_actions, rng):
            return {**legal_actions[0], "type": "cheat"}

    game = get_game(slug)
    state = game.new_state(game.min_players, 1, game.default_variant)
    with pytest.raises(IllegalAction):
        play(state, [Cheat() for _ in range(game.min_players)], random.Random(1))


def test_the_random_bot_draws_what_rng_choice_draws():
    # the bot makes random.Random's choice itself (stored matches replay its draws)
    bot = RandomBot()
    for n in [*range(1, 70), 127, 128, 129, 1000]:
        items = [{"n": i} for i in range(n)]  # actions: only their places matter
        ours, theirs = random.Random(n), random.Random(n)
        for _ in range(20):
            assert bot.choose(None, items, ours) == theirs.choice(items)
        assert ours.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        bot.choose(None, [], random.Random(0))


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_the_heuristic_bot_chooses_an_action_or_raises(slug):
    # an empty list is refused as the random bot refuses it: never None for an action
    game = get_game(slug)
    state = game.new_state(game.min_players, 1, game.default_variant)
    seat = state.to_move()[0]
    bot = game.bot("heuristic")
    legal = state.legal_actions(seat)
    assert legal
    assert bot.choose(state.view(seat), legal, random.Random(0)) in legal
    with pytest.raises(IndexError):
        bot.choose(state.view(seat), [], random.Random(0))


def test_registry_contract():
    """Every registered game exposes the attributes the Django layer relies on."""
    games = all_games()
    assert len(games) >= 4
    assert [g.slug for g in games] == sorted(g.slug for g in games)
    with pytest.raises(KeyError):
        get_game("no-such-game")
    for game in games:
        assert get_game(game.slug) is game
        assert {"en", "es", "fr", "ru"} <= set(game.name)
        assert game.default_variant in game.variants
        assert 2 <= game.min_players <= game.max_players
        assert {"random", "heuristic"} <= set(game.bots)
        for variant in game.variants:
            cards = game.cards(variant)
            assert cards, (game.slug, variant)
            assert len({c["id"] for c in cards}) == len(cards)
            assert all("kind" in c and {"en", "es", "fr", "ru"} <= set(c["name"]) for c in cards)
        state = game.new_state(game.min_players, 1, game.default_variant)
        assert game.from_json(state.to_json()).to_json() == state.to_json()
