/* Conspiranoia board: a seat's (or the projector's) view on the board kit; every legal
 * action is exactly one control. Rules, view, actions: docs/rules/conspiranoia.md.
 *
 * - choosing a character: the free characters' cards, as buttons in the answer box;
 * - attacked: "Defend for n points…" (one per Defence set) and "Take the hit" there too;
 * - on a turn: one button per attack, Special Attack and heal in "Your move", each
 *   saying whom, how many points, which cards from the hand and from the table, and
 *   whether an Avatar doubles it; a player who cannot attack chooses a hand card and
 *   discards it from the kit's tray.
 * Everyone sees the table, the pending attack (who, whom, how many points), each
 * player's character, life, hand count and the dealer. */

import { h } from "./dom.js";
import { boardKit, nameParts } from "./kit.js";
import { register } from "./registry.js";

const MOVES = ["special_attack", "attack", "heal"];

function decidedByText(decidedBy) {
  return {
    last_standing: gettext("The last player with life points left wins."),
    life: gettext("The round limit was reached: decided by life points."),
    rounds: gettext("Tied on life points: decided by the rounds played before going out."),
    damage_dealt: gettext("Tied on life and rounds: decided by the damage dealt."),
    blocks: gettext("Tied on life, rounds and damage: decided by the attacks defended."),
    shared: gettext("Tied on everything: the first place is shared."),
  }[decidedBy] || "";
}

/** A card's look: its figure (drawn by game.css), and its value in the band. */
function look(c) {
  const value = c.kind === "avatar" ? "×2" : c.kind === "bonus" ? `${c.attack}/${c.defence}` : c.attack || c.defence;
  return { icon: c.figure, shape: value ? String(value) : null, classes: ["cp-card", `cp-fig--${c.figure}`] };
}

function createConspiranoia(board, ctx) {
  const me = ctx.seat;
  const kit = boardKit(board, ctx, {
    look,
    draw,
    // the sticky bar and the opponents strip: life, the game's score
    score: (view, seat) => interpolate(gettext("Life: %(life)s / %(max)s"), { life: view.players[seat].life, max: view.life_points }, true),
    cardsInHand: (view, seat) => view.players[seat].hand_count,
    hand: {
      actionsFor: (legal, id) => legal.filter((a) => a.type === "discard" && a.card === id),
      trayLabel: () => gettext("Discard it: lay it on the table"),
      trayHint: () => h("p", { class: "tray__hint" }, gettext("You cannot attack, so you lay one card on the table, for anyone to use.")),
    },
    yourTurn(view) {
      const w = view.window;
      if (w && w.kind === "choose") return gettext("Choose your character");
      return w && w.kind === "defence" ? gettext("Answer now.") : gettext("Your turn");
    },
    focusFallback: ".prompt button, .cp-moves button, [data-key^='hand:'], .panel--end",
  });
  const { cardName, playerName, actionButtons } = kit;
  const isAvatar = (id) => kit.entry(id).kind === "avatar";
  const points = (n) => interpolate(ngettext("%s point", "%s points", n), [n]);

  /** The character card of a character (its first Avatar card) and its name. */
  function characterCard(slug) {
    return Object.values(ctx.catalogue).filter((c) => c.kind === "avatar" && c.character === slug).map((c) => c.id).sort()[0];
  }
  const characterName = (cardId) => nameParts(cardName(cardId)).label;

  /** "from your hand: Attack ×2 · from the table: Bonus": which cards a set takes. */
  function cardsLine(ids, view) {
    const inHand = new Set(view.hand || []);
    const names = (list) => {
      const counts = new Map();
      for (const id of list) counts.set(cardName(id), (counts.get(cardName(id)) || 0) + 1);
      return [...counts].map(([name, k]) => (k > 1 ? `${name} ×${k}` : name)).join(", ");
    };
    const hand = ids.filter((id) => inHand.has(id));
    const table = ids.filter((id) => !inHand.has(id));
    return [
      hand.length ? interpolate(gettext("from your hand: %s"), [names(hand)]) : null,
      table.length ? interpolate(gettext("from the table: %s"), [names(table)]) : null,
    ].filter(Boolean).join(" · ");
  }

  const tag = (text, extra = "") => h("span", { class: `cp-tag ${extra}`.trim() }, text);

  /** A set's button: its words on the first line, its cards on the second. */
  function setLabel(head, a, view, tags = []) {
    if (a.cards.some(isAvatar)) tags.unshift(tag(gettext("doubled by your Avatar"), "cp-tag--avatar"));
    return [h("span", { class: "cp-move__head" }, head), " ", ...tags.flatMap((t) => [t, " "]), h("span", { class: "cp-move__cards" }, cardsLine(a.cards, view))];
  }

  function moveLabel(view) {
    return (a) => {
      const player = a.target === undefined ? "" : playerName(a.target);
      if (a.type === "heal") return setLabel(gettext("Heal: +1 life point"), a, view);
      if (a.type === "special_attack") {
        return setLabel(interpolate(gettext("Special Attack on %(player)s: %(points)s"), { player, points: points(a.points) }, true), a, view, [tag(gettext("cannot be blocked"), "cp-tag--strong")]);
      }
      return setLabel(interpolate(gettext("Attack %(player)s: %(points)s"), { player, points: points(a.points) }, true), a, view);
    };
  }

  // --- the answer box: choosing a character, defending -----------------------------

  function renderPrompt(view, legal) {
    const w = view.window;
    const choices = legal.filter((a) => a.type === "choose");
    if (choices.length) {
      return [
        h("p", { class: "prompt__text" }, gettext("Choose your character: only its Avatar cards can double your actions.")),
        h("ul", { class: "dt-cards dt-cards--choice", role: "list" }, choices.map((a) => {
          const id = characterCard(a.character);
          return kit.card(id, { action: a, label: interpolate(gettext("Play as %s"), [characterName(id)]) });
        })),
        h("ul", { class: "cp-missions", "aria-label": gettext("The characters' missions") }, choices.map((a) => {
          const id = characterCard(a.character);
          return h("li", {}, h("strong", {}, characterName(id)), " ", kit.inLanguage(kit.entry(id).mission),
            " ", h("span", { class: "muted" }, kit.inLanguage(kit.entry(id).origin)));
        })),
      ];
    }
    const answers = legal.filter((a) => a.type === "defend" || a.type === "take");
    if (!answers.length || !w || w.kind !== "defence") return [];
    const life = view.players[me].life;
    const label = (a) => {
      if (a.type === "take") {
        const out = life <= w.points ? [" ", tag(gettext("you would be out"), "cp-tag--strong")] : [];
        return [h("span", { class: "cp-move__head" }, interpolate(ngettext("Take the hit: lose %s life point", "Take the hit: lose %s life points", w.points), [w.points])), ...out];
      }
      const damage = Math.max(0, w.points - a.points);
      const head = damage
        ? interpolate(gettext("Defend for %(points)s: you still lose %(damage)s"), { points: points(a.points), damage }, true)
        : interpolate(gettext("Defend for %(points)s: the attack is blocked"), { points: points(a.points) }, true);
      return setLabel(head, a, view);
    };
    const defends = answers.filter((a) => a.type === "defend").sort((x, y) => y.points - x.points);
    return [
      h("p", { class: "prompt__text" }, interpolate(gettext("%(player)s attacks you: %(points)s!"), { player: playerName(w.attacker), points: points(w.points) }, true)),
      h("div", { class: "prompt__card" }, kit.cardList(w.cards, { size: "mini" }, { label: gettext("The attack's cards") })),
      h("p", { class: "prompt__outcome prompt__if" },
        interpolate(ngettext("If you take the hit: you lose %s life point.", "If you take the hit: you lose %s life points.", w.points), [w.points]),
        life <= w.points ? [" ", gettext("You would be out of the game.")] : null),
      h("p", {}, defends.length
        ? gettext("A Defence is 3 Defence or Bonus cards from your hand and the table: it absorbs 3 of the attack's points, only 1 with a Bonus in it, twice as many with your Avatar.")
        : gettext("You cannot make a Defence now: it takes 3 Defence or Bonus cards, from your hand and the table.")),
      h("div", { class: "cp-moves__list" }, actionButtons([...defends, ...answers.filter((a) => a.type === "take")], label, (a) => ({ variant: a.type === "take" ? "button--secondary cp-move" : "cp-move" }))),
    ];
  }

  /** What everyone sees of a window that is not this seat's to answer. */
  function renderWindow(view) {
    const w = view.window;
    if (!w || w.seat === me || w.kind === "deal") return null;
    const body = w.kind === "choose"
      ? [h("p", { class: "cp-window__text" }, interpolate(gettext("%s is choosing a character."), [playerName(w.seat)])),
        kit.cardList(w.characters.map(characterCard), { size: "mini" }, { label: gettext("Free characters") })]
      : [h("p", { class: "cp-window__text" }, w.attacker === me
        ? interpolate(gettext("You attack %(target)s: %(points)s."), { target: playerName(w.seat), points: points(w.points) }, true)
        : interpolate(gettext("%(attacker)s attacks %(target)s: %(points)s."), { attacker: playerName(w.attacker), target: playerName(w.seat), points: points(w.points) }, true)),
        kit.cardList(w.cards, { size: "mini" }, { label: gettext("The attack's cards") }),
        h("p", {}, interpolate(gettext("%s may defend with Defence cards, or take the hit."), [playerName(w.seat)]))];
    return h("section", { class: `panel cp-window cp-window--${w.kind}`, "aria-label": gettext("Now") }, ...body);
  }

  // --- a turn's moves, the table, the players ---------------------------------------

  function renderMoves(view, legal) {
    const order = (a) => MOVES.indexOf(a.type) * 100 + (a.target ?? 0);
    const moves = legal.filter((a) => MOVES.includes(a.type)).sort((x, y) => order(x) - order(y) || (y.points || 0) - (x.points || 0));
    if (!moves.length) return null;
    const discard = legal.some((a) => a.type === "discard");
    return h("section", { class: "panel cp-moves", "aria-labelledby": "moves-title" },
      h("h2", { id: "moves-title" }, gettext("Your move: choose one")),
      h("p", { class: "muted" }, discard
        ? gettext("You cannot attack: heal, or choose a card of your hand to discard.")
        : gettext("Three cards of one kind from your hand and the table (one at least from your hand).")),
      h("div", { class: "cp-moves__list" }, actionButtons(moves, moveLabel(view), (a) => ({ variant: a.type === "heal" ? "button--secondary cp-move" : "cp-move" }))));
  }

  /** Your own Avatar cards say so; another character's are no use to you. */
  let myCharacter = null; // set by draw()
  function avatarBadge(id) {
    if (!isAvatar(id) || !myCharacter) return null;
    return kit.entry(id).character === myCharacter
      ? h("span", { class: "dt-card__badge" }, "✓ ", gettext("your Avatar"))
      : h("span", { class: "dt-card__badge cp-badge--other" }, gettext("not yours"));
  }

  function renderTable(view) {
    return h("section", { class: "panel panel--table", "aria-labelledby": "table-title" },
      h("h2", { id: "table-title" }, gettext("Table"), h("span", { class: "panel__hint" }, " — ", gettext("any player may use these cards"))),
      view.table.length
        ? kit.cardList(view.table, (id) => ({ badge: avatarBadge(id) }), { label: gettext("Cards on the table"), modifier: "table" })
        : h("p", { class: "muted" }, gettext("The table is empty.")));
  }

  function playerLines(view, seat) {
    const p = view.players[seat];
    const max = view.life_points;
    return [
      p.character_card
        ? h("p", { class: `cp-character cp-fig--${kit.entry(p.character_card).figure}` }, h("span", { class: "cp-figure", "aria-hidden": "true" }), characterName(p.character_card))
        : h("p", { class: "cp-character muted" }, gettext("No character yet")),
      p.character_card && seat === me
        ? h("p", { class: "cp-mission" }, interpolate(gettext("Your mission: %s"), [kit.inLanguage(kit.entry(p.character_card).mission)]))
        : null,
      h("div", { class: p.in_game && p.life * 3 <= max ? "cp-life cp-life--low" : "cp-life" },
        h("span", { class: "cp-life__text" }, interpolate(gettext("Life: %(life)s / %(max)s"), { life: p.life, max }, true)),
        h("span", { class: "cp-life__bar", "aria-hidden": "true", style: `--life: ${Math.max(0, p.life) / max}` })),
      h("p", { class: "player__counts" }, kit.icon("back"), " ", interpolate(ngettext("%s card in hand", "%s cards in hand", p.hand_count), [p.hand_count])),
      h("div", { class: "badges" },
        p.dealer && !view.over ? h("span", { class: "badge cp-badge--dealer" }, "◆ ", gettext("deals")) : null,
        p.in_game ? null : h("span", { class: "badge badge--warn" }, "✕ ", gettext("out of the game"))),
    ];
  }

  function turnLine(view) {
    const w = view.window;
    if (view.over) return kit.turnText({ over: true });
    if (view.stage === "round_end") return interpolate(gettext("Round %s is over: new cards are coming."), [view.round]);
    if (w && w.kind === "choose") return w.seat === me ? gettext("Choose your character") : interpolate(gettext("%s is choosing a character."), [playerName(w.seat)]);
    return kit.turnText({ turn: view.turn, answering: w && w.kind === "defence" ? w.seat : null });
  }

  function draw(view, legal) {
    const seated = me !== null;
    const over = Boolean(view.over);
    myCharacter = seated ? view.players[me].character : null;
    const mine = seated && (view.to_move || []).includes(me);
    return [
      over && view.result ? kit.endScreen(view.result, {
        decided: decidedByText(view.result.decided_by),
        columns: [{ label: gettext("Life points"), key: "life" }, { label: gettext("Rounds"), key: "rounds" },
          { label: gettext("Damage dealt"), key: "damage_dealt" }, { label: gettext("Attacks defended"), key: "blocks" }],
      }) : null,
      over ? null : kit.turnBar(turnLine(view), mine, [
        // Round 0 is the choice of characters: no round has started yet.
        view.round > 0 ? { label: gettext("Round"), value: `${view.round} / ${view.max_rounds}`, name: "round" } : null,
        { icon: "back", label: gettext("Draw pile"), value: view.deck_count, name: "deck" },
        { label: gettext("Dealer"), value: playerName(view.dealer), name: "dealer" },
      ]),
      seated ? kit.prompt(renderPrompt(view, legal)) : null,
      // the opponents as a short strip near the top on a seat (after what must be
      // answered now); in columns below on the projector
      seated ? players(view, over) : null,
      over ? null : renderWindow(view),
      seated ? renderMoves(view, legal) : null,
      renderTable(view),
      seated && !over ? kit.hand(view.hand || [], legal, { badge: avatarBadge }) : null,
      seated ? h("section", { class: "panel cp-me", "aria-labelledby": "me-title" },
        h("h2", { id: "me-title" }, interpolate(gettext("%s (you)"), [playerName(me)])), ...playerLines(view, me)) : null,
      seated ? null : players(view, over),
    ];
  }

  function players(view, over) {
    return kit.players(view.players.map((p) => p.seat), { isTurn: (seat) => seat === view.turn && !over && view.stage === "play", lines: (seat) => playerLines(view, seat) });
  }

  return kit.renderer({
    deadlineLabel(deadline) {
      const own = deadline.seat === me;
      switch (deadline.kind) {
        case "choose": return own ? gettext("Time to choose") : interpolate(gettext("%s is choosing"), [playerName(deadline.seat)]);
        case "defence": return own ? gettext("Time to answer") : interpolate(gettext("%s is answering"), [playerName(deadline.seat)]);
        case "deal": return gettext("Next deal in");
        default: return gettext("Time left");
      }
    },
  });
}

register("conspiranoia", createConspiranoia);
