"""Rebuild a match from its seed and its action log."""


def replay(game, num_players, seed, variant, log, options=None):  # noqa: PLR0917
    """Return the state reached by applying ``log`` (a list of ``(seat, action)``)."""
    state = game.new_state(num_players, seed, variant, options)
    for seat, action in log:
        state.apply(seat, action)
    return state
