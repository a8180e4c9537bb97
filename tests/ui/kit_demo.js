/* A toy game's renderer built on the board kit, for tests/ui/test_kit.py: a duel of
 * attacks and defences (hand of 3, cards on the table, life points, attack windows),
 * the shape Conspiranoia will have. Its view: {turn, over, result, window: {kind:
 * "attack", seat, attacker, points} | null, deck_count, table, hand, players: [{seat,
 * life, hand_count}], scores}. Legal actions: attack (cards, target), defend (cards),
 * take, heal (card), draw (no card). Written as a real renderer would be. */

import { h } from "/static/js/play/dom.js";
import { boardKit, namesCard } from "/static/js/play/kit.js";

export function createDuel(board, ctx) {
  const me = ctx.seat;
  const kit = boardKit(board, ctx, {
    look: (c) => ({ icon: c.kind === "attack" ? "sanction" : "cybersecurity", shape: c.kind === "attack" ? "▲" : "■" }),
    draw,
    hand: {
      // a set action shows in the tray of each of its cards (a defence is answered in
      // the prompt, not here); the table cards a chosen card may take are highlighted
      actionsFor: (legal, id) => namesCard(legal, id).filter((a) => a.type !== "defend"),
      trayActions: (acts) => acts.filter((a) => !a.capture),
      trayLabel: (a) => (a.type === "attack" ? `Attack ${kit.playerName(a.target)} with ${a.cards.length} card(s)` : `${a.type} it`),
      trayVariant: (a) => (a.type === "attack" ? "button--danger" : ""),
      chosen: (id, acts) => ctx.announce(`${acts.length} plays`),
    },
  });

  function draw(view, legal) {
    const w = view.window;
    const answer = legal.filter((a) => a.type === "defend" || a.type === "take");
    const free = legal.filter((a) => a.type === "draw");
    const chosen = kit.selected();
    const captures = new Map(legal.filter((a) => a.capture && a.card === chosen).map((a) => [a.capture, a]));
    return [
      view.over ? kit.endScreen(view.result, { columns: [{ label: "Life", key: "life" }], decided: "Decided by life points." }) : null,
      view.over ? null : kit.turnBar(kit.turnText({ over: view.over, turn: view.turn, answering: w ? w.seat : null }), view.turn === me, [
        { icon: "back", label: "Deck", value: view.deck_count, name: "deck" },
      ]),
      kit.prompt(answer.length ? [
        h("p", { class: "prompt__text" }, `${kit.playerName(w.attacker)} attacks you for ${w.points}.`),
        h("div", { class: "button-row" }, kit.actionButtons(answer, (a) => (a.type === "take" ? "Take it" : `Defend with ${a.cards.length}`), { big: true })),
      ] : []),
      free.length ? h("div", { class: "button-row free" }, kit.actionButtons(free, (a) => a.type)) : null,
      h("section", { class: "panel panel--table" }, h("h2", {}, "Table"),
        kit.cardList(view.table, (id) => (captures.has(id) ? { action: captures.get(id), highlight: true, label: `Take ${kit.cardName(id)}` } : {}), { modifier: "table" })),
      me !== null && !view.over ? kit.hand(view.hand, legal) : null,
      kit.players(view.players.map((p) => p.seat), {
        isTurn: (seat) => seat === view.turn && !view.over,
        lines: (seat) => [kit.statLine([`${view.players[seat].life} life`, `${view.players[seat].hand_count} cards`])],
      }),
    ];
  }

  return kit.renderer({ deadlineLabel: (d) => (d.seat === me ? "Time to answer" : `${kit.playerName(d.seat)} is answering`) });
}
