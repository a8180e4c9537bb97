/* Data Thief board: a seat's (or the projector's) view on the board kit; every legal
 * action is exactly one control. Rules, view, actions: docs/rules/data_thief.md.
 *
 * - the thief, on a turn: chooses an attack card of the hand; the boards it may target
 *   turn into highlighted boards, each with one button "Attack Ann's paper board with
 *   Phishing"; an attack that fits no board is discarded from the kit's tray;
 * - the thief, after a successful attack: the data cards (experts: the categories) of
 *   the attacked board, as buttons in the answer box;
 * - a manager, on a turn: chooses a hand card, its tray says "Lay it on your paper
 *   board" / "… digital board" (or "Discard it" when nothing fits);
 * - a manager under attack: "Counter with …" (one per measure of the hand that stops
 *   it) and "Let it pass" in the answer box, with what passing costs.
 * Everyone sees every manager's two boards (a face-down measure as a back, its owner
 * sees which one), the attack cards each kept, the thief's loot, scores and rounds. */

import { h } from "./dom.js";
import { boardKit, breakable, syllables } from "./kit.js";
import { register } from "./registry.js";

const NATURES = ["paper", "digital"];
const BOARD_SIZE = 3;
const TURN_PLAYS = ["lay", "discard", "attack"];

function decidedByText(decidedBy) {
  return {
    points: gettext("Decided by points."),
    data_cards: gettext("Tied on points: decided by the number of data cards."),
    shared: gettext("Tied on points and data cards: the first place is shared."),
  }[decidedBy] || "";
}

function categoryName(category) {
  return {
    standard: gettext("standard"),
    highly_confidential: gettext("highly confidential"),
    sensitive: gettext("sensitive"),
  }[category] || "";
}

function natureName(nature) {
  return { paper: gettext("paper"), digital: gettext("digital"), both: gettext("paper or digital") }[nature] || "";
}

/** Soft hyphens in the words of a small card's chip ("paper or digital", "face down"),
 * so that a narrow card wraps them at a hyphen instead of cutting them off. */
const soft = (text) => text.split(" ").map((word) => ([...word].length > 6 ? syllables(word) : word)).join(" ");

/** A card's look: its kind's symbol; the points of a data card, the nature of the others. */
function look(c) {
  if (c.kind === "data") return { icon: "dataset", shape: String(c.points), classes: [`dth-cat--${c.category}`] };
  if (c.kind === "measure") return { icon: "cybersecurity", shape: soft(natureName(c.nature)), classes: [`dth-nature--${c.nature}`] };
  if (c.kind === "attack") return { icon: "databreach", shape: soft(natureName(c.nature)), classes: [`dth-nature--${c.nature}`] };
  return { icon: "back" };
}

function createDataThief(board, ctx) {
  const me = ctx.seat;
  const kit = boardKit(board, ctx, {
    look,
    draw,
    score: (view, seat) => points(view.scores[seat].points),
    cardsInHand: (view, seat) => view.players[seat].hand_count,
    hand: {
      // a counter names a hand card too, but is answered in the answer box
      actionsFor: (legal, id) => legal.filter((a) => TURN_PLAYS.includes(a.type) && a.card === id),
      trayActions: (acts) => acts.filter((a) => a.type !== "attack"),
      trayLabel: (a) => {
        if (a.type === "lay") return a.board === "paper" ? gettext("Lay it on your paper board") : gettext("Lay it on your digital board");
        return gettext("Discard it");
      },
      trayVariant: (a) => (a.type === "discard" ? "button--secondary" : ""),
      trayHint(acts) {
        if (acts.some((a) => a.type === "attack")) return h("p", { class: "tray__hint" }, gettext("Choose a highlighted board to attack."));
        if (acts.some((a) => a.type === "discard")) {
          return h("p", { class: "tray__hint" }, me === view().thief
            ? gettext("No board holds data this attack can reach: you discard one attack card.")
            : gettext("No card of your hand fits your boards: you discard one card."));
        }
        if (acts.some((a) => a.type === "lay" && kit.entry(a.card).kind === "measure")) {
          return h("p", { class: "tray__hint" }, gettext("A security measure is laid face down: the others see only its back."));
        }
        return null;
      },
      chosen(id, acts) {
        if (acts.some((a) => a.type === "attack")) ctx.announce(gettext("Choose a highlighted board to attack."));
      },
      badge: (id) => cardBadge(id),
    },
    yourTurn(v) {
      const w = v.window;
      if (w && w.kind === "counter") return gettext("Answer now.");
      if (w && w.kind === "steal") return gettext("Choose the data to take");
      return gettext("Your turn");
    },
    focusFallback: ".prompt button, .dth-attack, [data-key^='hand:'], .panel--end",
  });
  const { cardName, playerName, actionButtons } = kit;
  const points = (n) => interpolate(ngettext("%s point", "%s points", n), [n]);
  let current = null; // the view of the last draw
  const view = () => current;

  /** Under a card: a data card's category, an attack's stake. */
  function cardBadge(id) {
    const c = kit.entry(id);
    // a category's word breaks from 6 letters ("stan-dard", "обыч-ные"): a five-player
    // projector at 1024 px gives a card less than its width
    if (c.kind === "data") return h("span", { class: "dth-note", lang: ctx.language }, breakable(categoryName(c.category), 5));
    if (c.kind === "attack") return h("span", { class: "dth-note dth-stake", lang: ctx.language }, breakable(stake(c)));
    return null;
  }

  function stake(c) {
    return c.steals
      ? interpolate(ngettext("steals %s data card", "steals %s data cards", c.steals), [c.steals])
      : interpolate(ngettext("%s turn lost", "%s turns lost", c.skips), [c.skips]);
  }

  function boardName(owner, nature) {
    const player = owner === me ? null : playerName(owner);
    if (nature === "paper") return player ? interpolate(gettext("%s's paper board"), [player]) : gettext("Your paper board");
    return player ? interpolate(gettext("%s's digital board"), [player]) : gettext("Your digital board");
  }

  // --- a manager's boards -----------------------------------------------------------

  /** A face-down measure as the others see it: the card's back and the words. */
  function back() {
    return h("li", { class: "dt-card dt-card--small dth-back", dataset: { back: "measure" } },
      h("span", { class: "dt-card__top", "aria-hidden": "true" }, kit.icon("back", "dt-card__icon")),
      h("span", { class: "dt-card__name" }, h("span", { class: "dt-card__label" }, gettext("Security measure, face down"))));
  }

  function slot(entry, owner) {
    if (entry.face_down && !entry.card) return back();
    if (entry.face_down) {
      return kit.card(entry.card, { size: "small", badge: h("span", { class: "dt-card__badge dth-hidden", lang: ctx.language }, "◐ ", soft(gettext("face down")), h("span", { class: "visually-hidden" }, " ", gettext("(only you see it)"))) });
    }
    if (entry.kind === "measure") {
      return kit.card(entry.card, { size: "small", badge: h("span", { class: "dt-card__badge", lang: ctx.language }, "✓ ", soft(gettext("revealed"))) });
    }
    return kit.card(entry.card, { size: "small", badge: cardBadge(entry.card) });
  }

  function drawBoard(v, owner, nature, attacks) {
    const entries = v.players[owner].boards[nature];
    const free = Math.max(0, BOARD_SIZE - entries.length);
    const attack = attacks.find((a) => a.target === owner && a.board === nature);
    const attackLabel = (a) => (nature === "paper"
      ? interpolate(gettext("Attack %(player)s's paper board with %(card)s"), { player: playerName(owner), card: cardName(a.card) }, true)
      : interpolate(gettext("Attack %(player)s's digital board with %(card)s"), { player: playerName(owner), card: cardName(a.card) }, true));
    const name = boardName(owner, nature);
    const underAttack = v.window && v.window.kind === "counter" && v.window.target === owner && v.window.board === nature;
    return h("div", { class: `dth-board dth-board--${nature}${attack ? " is-target" : ""}${underAttack ? " is-attacked" : ""}`, role: "group", "aria-label": name, dataset: { owner, board: nature } },
      h("h4", { class: "dth-board__title" }, h("span", { class: "dth-board__mark", "aria-hidden": "true" }, nature === "paper" ? "▤" : "⌨"), " ",
        nature === "paper" ? gettext("Paper board") : gettext("Digital board")),
      attack ? h("p", { class: "dth-board__target" }, "✓ ", gettext("can be attacked")) : null,
      underAttack ? h("p", { class: "dth-board__target" }, "⚠ ", gettext("under attack")) : null,
      h("ul", { class: "dt-cards dth-slots", role: "list", "aria-label": name },
        entries.map((e) => slot(e, owner)),
        Array.from({ length: free }, () => h("li", { class: "dth-slot--free", lang: ctx.language }, breakable(gettext("free place"))))),
      attack ? kit.actionButton(attack, attackLabel(attack), { variant: "button--danger dth-attack is-target" }) : null);
  }

  function drawManager(v, seat, attacks) {
    const p = v.players[seat];
    const titleId = `manager-${seat}-title`;
    const turn = !v.over && v.turn === seat && !v.window;
    const proofs = p.proofs;
    return h("section", { class: `panel dth-manager${turn ? " is-turn" : ""}${seat === me ? " dth-manager--mine" : ""}`, "aria-labelledby": titleId, dataset: { seat } },
      h("h3", { id: titleId, class: "dth-manager__name" },
        turn ? h("span", { class: "turn-marker" }, "▶ ", h("span", { class: "visually-hidden" }, gettext("Playing now:")), " ") : null,
        kit.nameOf(seat, seat === me), " ", kit.presence(seat)),
      kit.statLine([
        points(v.scores[seat].points),
        interpolate(ngettext("%s card in hand", "%s cards in hand", p.hand_count), [p.hand_count]),
        p.skips && !v.over ? h("strong", {}, "⏸ ", interpolate(ngettext("misses %s more turn", "misses %s more turns", p.skips), [p.skips])) : null,
      ].filter(Boolean)),
      h("div", { class: "dth-boards" }, NATURES.map((nature) => drawBoard(v, seat, nature, attacks))),
      proofs.length
        ? h("div", { class: "dth-proofs" },
          h("p", { class: "dth-proofs__title" }, interpolate(ngettext("%(count)s attack countered (10 points each)", "%(count)s attacks countered (10 points each)", proofs.length), { count: proofs.length }, true)),
          kit.cardList(proofs, { size: "mini" }, { label: gettext("Attacks countered") }))
        : null);
  }

  function drawManagers(v, legal) {
    const selected = kit.selected();
    const attacks = legal.filter((a) => a.type === "attack" && a.card === selected);
    const seats = v.players.filter((p) => p.role === "manager").map((p) => p.seat);
    if (seats.includes(me)) seats.sort((a, b) => (a === me ? -1 : b === me ? 1 : a - b));
    return h("section", { class: "panel dth-managers-panel", "aria-labelledby": "managers-title" },
      h("h2", { id: "managers-title" }, gettext("The data managers' boards"),
        attacks.length ? h("span", { class: "panel__hint" }, " — ", gettext("choose a highlighted board to attack")) : null),
      // the projector puts every manager in one row: it needs their number
      h("div", { class: "dth-managers", style: `--managers: ${seats.length}`, "data-managers": seats.length }, seats.map((seat) => drawManager(v, seat, attacks))));
  }

  function drawThief(v) {
    const t = v.thief;
    const loot = v.loot;
    const lootPoints = loot.reduce((sum, id) => sum + (kit.entry(id).points || 0), 0);
    const turn = !v.over && v.turn === t && !(v.window && v.window.kind === "counter");
    return h("section", { class: `panel dth-thief${turn ? " is-turn" : ""}`, "aria-labelledby": "thief-title", dataset: { seat: t } },
      h("h2", { id: "thief-title" },
        turn ? h("span", { class: "turn-marker" }, "▶ ", h("span", { class: "visually-hidden" }, gettext("Playing now:")), " ") : null,
        t === me ? gettext("You are the thief") : gettext("The thief: %s").split("%s").flatMap((part, i) => (i ? [kit.nameOf(t), part] : [part]))),
      h("p", { class: "dth-loot__count", dataset: { fact: "loot" } },
        interpolate(ngettext("Loot: %(count)s data card, %(points)s", "Loot: %(count)s data cards, %(points)s", loot.length), { count: loot.length, points: points(lootPoints) }, true)),
      loot.length ? kit.cardList(loot, (id) => ({ size: "mini", badge: cardBadge(id) }), { label: gettext("The thief's loot") }) : null,
      v.round <= 2 && !v.over ? h("p", { class: "muted" }, gettext("The thief enters the game on the third round."), " ", gettext("Until then, the managers lay data cards only.")) : null,
      v.thief_discard.length
        ? h("div", { class: "dth-discard" },
          h("p", { class: "dth-proofs__title" }, gettext("The thief's discard pile")),
          kit.cardList(v.thief_discard, { size: "mini" }, { label: gettext("The thief's discard pile") }))
        : null);
  }

  // --- the answer box ----------------------------------------------------------------

  function renderPrompt(v, legal) {
    const w = v.window;
    if (!w || w.seat !== me || !legal.length) return [];
    const attack = kit.entry(w.attack);
    if (w.kind === "counter") {
      const counters = legal.filter((a) => a.type === "counter");
      const params = { attack: cardName(w.attack), measure: counters.length ? cardName(counters[0].card) : "" };
      let question;
      if (counters.length === 1) {
        question = w.board === "paper"
          ? gettext("The thief attacks your paper board with %(attack)s: counter with %(measure)s?")
          : gettext("The thief attacks your digital board with %(attack)s: counter with %(measure)s?");
      } else {
        question = w.board === "paper"
          ? gettext("The thief attacks your paper board with %(attack)s: counter it?")
          : gettext("The thief attacks your digital board with %(attack)s: counter it?");
      }
      question = interpolate(question, params, true);
      const cost = attack.steals
        ? interpolate(ngettext("If you let it pass: the thief steals %s data card from this board.", "If you let it pass: the thief steals %s data cards from this board.", attack.steals), [attack.steals])
        : interpolate(ngettext("If you let it pass: you miss %s turn.", "If you let it pass: you miss %s turns.", attack.skips), [attack.skips]);
      const label = (a) => (a.type === "accept" ? gettext("Let it pass") : interpolate(gettext("Counter with %s"), [cardName(a.card)]));
      return [
        h("p", { class: "prompt__text" }, question),
        h("div", { class: "prompt__card" }, kit.cardList([w.attack], { size: "mini" }, { label: gettext("The attack") })),
        kit.cardEffect(w.attack),
        h("p", { class: "prompt__outcome prompt__if" }, cost),
        h("p", {}, gettext("A counter keeps the attack card: 10 points for you.")),
        h("div", { class: "button-row dth-answers" }, actionButtons([...counters, ...legal.filter((a) => a.type === "accept")], label, (a) => ({ variant: a.type === "accept" ? "button--secondary" : "" }))),
      ];
    }
    const steals = legal.filter((a) => a.type === "steal");
    const left = w.left || 1;
    return [
      h("p", { class: "prompt__text" }, interpolate(w.board === "paper" ? gettext("Your attack on %s's paper board succeeds!") : gettext("Your attack on %s's digital board succeeds!"), [playerName(w.target)])),
      h("p", {}, steals.some((a) => a.category)
        ? gettext("Choose the category of data to take: every data card of it goes to your loot.")
        : interpolate(ngettext("Choose the data card to take (%s to take).", "Choose the data cards to take (%s to take).", left), [left])),
      steals.some((a) => a.category)
        ? h("div", { class: "button-row" }, actionButtons(steals, (a) => interpolate(gettext("Take every data card of the category: %s"), [categoryName(a.category)])))
        : h("ul", { class: "dt-cards dt-cards--choice", role: "list", "aria-label": gettext("The data you may take") },
          steals.map((a) => kit.card(a.card, { action: a, badge: cardBadge(a.card), label: interpolate(gettext("Take %(card)s (%(points)s)"), { card: cardName(a.card), points: points(kit.entry(a.card).points) }, true) }))),
    ];
  }

  /** What everyone else sees of an open window. */
  function renderWindow(v) {
    const w = v.window;
    if (!w || w.seat === me) return null;
    const paper = w.board === "paper";
    const params = { attack: cardName(w.attack), player: playerName(w.target) };
    let text;
    if (w.kind === "counter") {
      text = paper
        ? gettext("The thief attacks %(player)s's paper board with %(attack)s: %(player)s may counter it with a security measure from the hand.")
        : gettext("The thief attacks %(player)s's digital board with %(attack)s: %(player)s may counter it with a security measure from the hand.");
    } else if (w.target === me) {
      text = paper
        ? gettext("The attack on your paper board succeeds: the thief chooses the data to take.")
        : gettext("The attack on your digital board succeeds: the thief chooses the data to take.");
    } else {
      text = paper
        ? gettext("The attack on %(player)s's paper board succeeds: the thief chooses the data to take.")
        : gettext("The attack on %(player)s's digital board succeeds: the thief chooses the data to take.");
    }
    text = interpolate(text, params, true);
    return h("section", { class: "panel dth-window", "aria-label": gettext("Now") },
      h("p", { class: "dth-window__text" }, text),
      kit.cardList([w.attack], { size: "mini", badge: cardBadge(w.attack) }, { label: gettext("The attack") }));
  }

  function turnLine(v) {
    const w = v.window;
    if (v.over) return kit.turnText({ over: true });
    if (w && w.kind === "counter") return kit.turnText({ answering: w.seat });
    if (w && w.kind === "steal") return w.seat === me ? gettext("Choose the data to take") : gettext("The thief is choosing the data to take.");
    return kit.turnText({ turn: v.turn });
  }

  function roleLine(v) {
    if (me === null || v.over) return null;
    return h("p", { class: "dth-role" }, me === v.thief
      ? gettext("You are the thief: attack the managers' boards and steal their data.")
      : gettext("You are a data manager: lay data cards on your boards and protect them with security measures."));
  }

  function draw(v, legal) {
    current = v;
    const seated = me !== null;
    const over = Boolean(v.over);
    const mine = seated && (v.to_move || []).includes(me);
    const thiefSeat = seated && me === v.thief;
    return [
      over && v.result ? kit.endScreen(v.result, {
        decided: decidedByText(v.result.decided_by),
        columns: [{ label: gettext("Points"), key: "points" }, { label: gettext("Data cards"), key: "data_cards" },
          { label: gettext("Attacks won or countered"), key: "attacks" }],
      }) : null,
      over ? null : kit.turnBar(turnLine(v), mine, [
        { label: gettext("Round"), value: `${v.round} / ${v.rounds}`, name: "round" },
        { icon: "back", label: gettext("General pile"), value: v.deck_count, name: "deck" },
        { icon: "databreach", label: gettext("The thief's pile"), value: v.thief_deck_count, name: "thief-deck" },
      ]),
      roleLine(v),
      seated ? kit.prompt(renderPrompt(v, legal)) : null,
      // the others as a short strip near the top on a seat (after what must be answered)
      seated ? kit.players(v.players.map((p) => p.seat), { isTurn: (seat) => seat === v.turn && !over, lines: (seat) => playerLines(v, seat) }) : null,
      over ? null : renderWindow(v),
      thiefSeat ? drawThief(v) : null,
      drawManagers(v, legal),
      thiefSeat ? null : drawThief(v),
      seated && !over ? kit.hand(v.hand || [], legal) : null,
    ];
  }

  function playerLines(v, seat) {
    const p = v.players[seat];
    return [
      h("p", {}, p.role === "thief" ? gettext("the thief") : gettext("data manager")),
      p.skips && !v.over ? h("p", {}, "⏸ ", interpolate(ngettext("misses %s more turn", "misses %s more turns", p.skips), [p.skips])) : null,
    ];
  }

  return kit.renderer({
    deadlineLabel(deadline) {
      const own = deadline.seat === me;
      switch (deadline.kind) {
        case "counter": return own ? gettext("Time to answer") : interpolate(gettext("%s is answering"), [playerName(deadline.seat)]);
        case "steal": return own ? gettext("Time to choose") : gettext("The thief is choosing");
        default: return gettext("Time left");
      }
    },
  });
}

register("data_thief", createDataThief);
