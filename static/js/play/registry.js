/* The game renderers, by game slug: one module per game registers itself here.
 *
 * A renderer is `create(board, ctx)` returning `{update(message), deadlineLabel(deadline)}`:
 * `board` is the element it owns, `ctx` gives it the seat, the players, the catalogue,
 * `act(action)` and `announce(text)` (see client.js). */

const renderers = new Map();

export function register(slug, create) {
  renderers.set(slug, create);
}

export function rendererFor(slug) {
  return renderers.get(slug) || null;
}
