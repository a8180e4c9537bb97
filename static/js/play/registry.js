/* The game renderers, by game slug: one module per game registers itself here.
 *
 * A renderer is `create(board, ctx)` returning `{update(message), deadlineLabel(deadline)}`
 * and optionally `setPlayers(players)` and `busy(flag)` (a move sent, then answered):
 * `board` is the element it owns, `ctx` gives it the seat, the players, the catalogue,
 * `act(action)` and `announce(text)` (see client.js). kit.js's `boardKit(...).renderer()`
 * builds this object. */

const renderers = new Map();

export function register(slug, create) {
  renderers.set(slug, create);
}

export function rendererFor(slug) {
  return renderers.get(slug) || null;
}
