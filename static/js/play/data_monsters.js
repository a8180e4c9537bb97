/* Data Monsters board: a seat's (or the projector's) view on the board kit; every legal
 * action is exactly one control. Rules, view, actions: docs/rules/data_monsters.md.
 *
 * - the turn player, in the main phase: chooses a hand card, its tray says what playing
 *   it does ("Hire it into your lab", "Add it to the build", …); a card that cannot be
 *   played says why; each challenge of the market the build affords has its button
 *   "Complete X"; "End the turn";
 * - the turn player with more than 6 cards: the answer box asks for a discard, each hand
 *   card's tray says "Recycle it";
 * - another seat while a challenge is being completed (the interrupt window): the answer
 *   box, "Interrupt with …" (one per fitting card of the hand) and "Let it go", with the
 *   shell's countdown.
 * Everyone sees the market (each challenge's TECH and SCI cost, its points, whether it
 * concerns personal data), this turn's build and pool, the global tools, every lab,
 * counts (hand, deck, recycle bin) and the completed challenges. */

import { h } from "./dom.js";
import { boardKit, breakable } from "./kit.js";
import { register } from "./registry.js";

const HAND_LIMIT = 6;
const TURN_PLAYS = ["play", "discard"];
const KIND_ICONS = { monster: "monster", equipment: "equipment", tool: "tool", hack: "hack", challenge: "challenge" };

function decidedByText(decidedBy) {
  return {
    points: gettext("Decided by Big Data points."),
    hardest: gettext("Tied on points: decided by the hardest challenge completed."),
    shared: gettext("Tied on points and on the hardest challenge: the first place is shared."),
  }[decidedBy] || "";
}

function className(monsterClass) {
  return {
    engineer: gettext("Engineer"),
    designer: gettext("Designer"),
    scientist: gettext("Scientist"),
    guardian: gettext("Guardian"),
  }[monsterClass] || "";
}

function setName(set) {
  return {
    startup: gettext("Startup set"),
    enterprise: gettext("Enterprise set"),
    office: gettext("Shared office deck"),
    built: gettext("A deck built with the deck builder"),
  }[set] || "";
}

/** "2 TECH · 1 SCI": the game's own two words, the same in every language. */
function techSci(cost) {
  return interpolate(gettext("%(tech)s TECH · %(sci)s SCI"), { tech: cost.tech || 0, sci: cost.sci || 0 }, true);
}

/** What a tool gives: "+2 TECH", "+1 TECH · +1 SCI" (nothing it does not give). */
function gives(c) {
  return [c.tech ? `+${c.tech} TECH` : "", c.sci ? `+${c.sci} SCI` : ""].filter(Boolean).join(" · ");
}

/** A card's look: its kind's symbol; a challenge's points beside it. */
function look(c) {
  const classes = [];
  if (c.kind === "challenge" && c.personal) classes.push("dm-personal");
  if (c.kind === "challenge") return { icon: "challenge", shape: `${c.points}★`, classes };
  return { icon: KIND_ICONS[c.kind] || "back", classes };
}

function createDataMonsters(board, ctx) {
  const me = ctx.seat;
  const kit = boardKit(board, ctx, {
    look,
    draw,
    score: (view, seat) => points(view.scores[seat].points),
    cardsInHand: (view, seat) => view.players[seat].hand_count,
    hand: {
      // an interrupt names a hand card too, but is answered in the answer box
      actionsFor: (legal, id) => legal.filter((a) => TURN_PLAYS.includes(a.type) && a.card === id),
      trayLabel: (a) => (a.type === "discard" ? gettext("Recycle it") : playLabel(a.card)),
      trayVariant: (a) => (a.type === "discard" ? "button--secondary" : ""),
      trayHint(acts) {
        if (acts.some((a) => a.type === "discard")) return h("p", { class: "tray__hint" }, gettext("It goes face down into your recycle bin."));
        const c = acts.length ? kit.entry(acts[0].card) : null;
        if (c && (c.keywords || []).includes("global")) return h("p", { class: "tray__hint" }, gettext("A global tool changes the challenges for everyone until your next turn."));
        return null;
      },
      badge: (id) => cardBadge(id),
      notNow: (id) => notNow(id),
    },
    yourTurn(v) {
      if (v.window) return gettext("Answer now.");
      if (v.phase === "discard") return gettext("Discard down to 6 cards.");
      return gettext("Your turn");
    },
    focusFallback: ".prompt button, .dm-complete, [data-key^='hand:'], .dm-end-turn, .panel--end",
  });
  const { cardName, playerName, actionButtons } = kit;
  const points = (n) => interpolate(ngettext("%s point", "%s points", n), [n]);
  let current = null; // the view of the last draw

  function playLabel(id) {
    const c = kit.entry(id);
    if (c.kind === "monster") {
      const mine = current && me !== null ? current.players[me].lab : [];
      const old = mine.find((x) => kit.entry(x).monster === c.monster);
      return old ? gettext("Promote: it replaces the monster of its name in your lab") : gettext("Hire it into your lab");
    }
    if (c.kind === "equipment") return gettext("Install it in your lab");
    if (c.kind === "hack") return gettext("Play the hack");
    if ((c.keywords || []).includes("global")) return gettext("Play it for everyone (global)");
    return gettext("Add it to the build");
  }

  /** Why a hand card cannot be played now, from the view's refusal code. */
  function notNow(id) {
    const v = current;
    if (!v || me === null) return null;
    if (v.window) return gettext("Someone is completing a challenge: wait for the other players to answer.");
    if (v.turn !== me) return gettext("Please wait: it is not your turn.");
    const code = (v.refusals || {})[id];
    const c = kit.entry(id);
    switch (code) {
      case "interrupt_only": return gettext("An interrupt is played only when another player completes a challenge.");
      case "limit_used": return gettext("You already played a limit card this turn.");
      case "promotion": return gettext("Promote step by step: this monster needs its previous level in your lab.");
      case "equipped": return gettext("This equipment is already in your lab.");
      case "recipe": return gettext("Play every component of the stack's recipe in this build first.");
      case "requirement": {
        const lab = new Set(v.players[me].lab.map((x) => kit.entry(x).class));
        const missing = (c.requires || []).find((k) => !lab.has(k));
        return interpolate(gettext("This card needs a monster of the class %s in your lab."), [className(missing)]);
      }
      default: return null;
    }
  }

  /** Under a card: what a tool or a challenge gives or needs, a monster's class. */
  function cardBadge(id, cost = null) {
    const c = kit.entry(id);
    const lines = [];
    if (c.kind === "challenge") {
      lines.push(h("span", { class: "dm-cost" }, techSci(cost || c)));
      if (c.personal) lines.push(h("span", { class: "dm-privacy" }, kit.icon("biometric"), " ", breakable(gettext("personal data"))));
    } else if (c.kind === "tool" && (c.tech || c.sci)) {
      lines.push(h("span", { class: "dm-cost" }, gives(c)));
    } else if (c.kind === "monster") {
      lines.push(h("span", {}, breakable(className(c.class))));
    }
    if (c.safeguard) lines.push(h("span", { class: "dm-safe" }, kit.icon("cybersecurity"), " ", breakable(gettext("safeguard"))));
    return lines.length ? h("span", { class: "dm-note", lang: ctx.language }, lines) : null;
  }

  // --- the market ------------------------------------------------------------------

  function challengeItem(v, id, completes) {
    const c = kit.entry(id);
    const cost = v.costs[id] || c;
    const action = completes.find((a) => a.challenge === id);
    return h("li", { class: `dm-challenge${action ? " is-target" : ""}`, dataset: { challenge: id } },
      h("ul", { class: "dt-cards", role: "list" }, kit.card(id, { size: "small" })),
      h("p", { class: "dm-challenge__facts" },
        h("strong", {}, points(c.points)), " · ", h("span", { class: "dm-cost" }, techSci(cost))),
      c.personal
        ? h("p", { class: "dm-challenge__privacy" }, kit.icon("biometric"), " ",
          // the classroom screen has room for the two words only (the rule book says the rest)
          h("span", { class: "dm-challenge__long" }, interpolate(gettext("Personal data: needs a safeguard, else %s less."), [points(v.penalty)])),
          h("span", { class: "dm-challenge__short" }, gettext("personal data")))
        : null,
      action ? kit.actionButton(action, interpolate(gettext("Complete %s"), [cardName(id)]), { variant: "dm-complete" }) : null);
  }

  function drawMarket(v, legal) {
    const completes = legal.filter((a) => a.type === "complete");
    return h("section", { class: "panel dm-market", "aria-labelledby": "market-title" },
      h("h2", { id: "market-title" }, gettext("The challenges on the market")),
      h("p", { class: "muted dm-market__deck" }, interpolate(ngettext("%s challenge left in the deck", "%s challenges left in the deck", v.challenge_deck_count), [v.challenge_deck_count])),
      h("ul", { class: "dm-challenges", role: "list", "aria-label": gettext("The challenges on the market") },
        v.market.map((id) => challengeItem(v, id, completes))));
  }

  // --- this turn: the build, the pool, the globals ----------------------------------

  function drawBuild(v, legal) {
    const turnPlayer = v.turn === me ? gettext("Your build this turn") : interpolate(gettext("%s's build this turn"), [playerName(v.turn)]);
    const end = legal.find((a) => a.type === "end_turn");
    return h("section", { class: "panel dm-build", "aria-labelledby": "build-title" },
      h("h2", { id: "build-title" }, h("span", { lang: ctx.language }, breakable(turnPlayer))),
      h("p", { class: "dm-pool", dataset: { fact: "pool" } },
        h("span", { class: "dm-pool__label" }, gettext("Pool:")), " ",
        h("strong", {}, techSci(v.pool)), " · ",
        v.safeguarded ? h("span", { class: "dm-safe dm-safe--wrap" }, kit.icon("cybersecurity"), " ", breakable(gettext("safeguard for personal data"))) : h("span", {}, "✗ ", gettext("no safeguard yet"))),
      v.limit_used ? h("p", { class: "muted" }, gettext("A limit card was played this turn.")) : null,
      v.build.length
        ? kit.cardList(v.build, (id) => ({ size: "mini", badge: cardBadge(id) }), { label: gettext("This turn's build") })
        : h("p", { class: "muted" }, gettext("No tool in the build yet.")),
      v.globals.length
        ? h("div", { class: "dm-globals" },
          h("h3", {}, gettext("Global tools (for everyone)")),
          h("ul", { class: "dm-globals__list", role: "list" }, v.globals.map((g) => h("li", {},
            kit.cardList([g.card], { size: "mini" }), " ",
            h("span", { class: "muted" }, interpolate(gettext("played by %s"), [playerName(g.owner)])),
            " ", kit.cardEffect(g.card)))))
        : null,
      end ? h("div", { class: "button-row" }, kit.actionButton(end, gettext("End the turn"), { variant: "button--secondary dm-end-turn" })) : null);
  }

  // --- the labs ----------------------------------------------------------------------

  /** A seat's cards in hand, in its deck and in its recycle bin (the classroom screen
   * shows the hand only: the piles matter to the player, not to the class). */
  function counts(p) {
    return h("p", { class: "scoreline dm-counts" },
      interpolate(ngettext("%s card in hand", "%s cards in hand", p.hand_count), [p.hand_count]),
      h("span", { class: "dm-piles" }, " · ",
        interpolate(ngettext("%s card in the deck", "%s cards in the deck", p.deck_count), [p.deck_count]), " · ",
        interpolate(ngettext("%s card in the recycle bin", "%s cards in the recycle bin", p.recycle_count), [p.recycle_count])));
  }

  function completedList(p) {
    if (!p.completed.length) return h("p", { class: "muted" }, gettext("No challenge completed yet."));
    return h("div", { class: "dm-completed" },
      h("p", { class: "dm-completed__title" }, interpolate(ngettext("%s challenge completed", "%s challenges completed", p.completed.length), [p.completed.length])),
      kit.cardList(p.completed, (id) => ({
        size: "mini",
        badge: p.unsafe.includes(id) ? h("span", { class: "dm-note dm-unsafe" }, "⚠ ", gettext("no safeguard")) : null,
      }), { label: gettext("Challenges completed") }));
  }

  function labLines(v, seat) {
    const p = v.players[seat];
    return [
      kit.statLine([points(v.scores[seat].points), setName(p.set)]),
      counts(p),
      p.lab.length
        ? kit.cardList(p.lab, (id) => ({ size: "mini", badge: cardBadge(id) }), { label: interpolate(gettext("%s's lab"), [playerName(seat)]) })
        : h("p", { class: "muted" }, gettext("The lab is empty.")),
      completedList(p),
    ];
  }

  function drawMyLab(v) {
    const p = v.players[me];
    const turn = !v.over && v.turn === me;
    return h("section", { class: `panel dm-lab${turn ? " is-turn" : ""}`, "aria-labelledby": "lab-title" },
      h("h2", { id: "lab-title" }, gettext("Your lab")),
      kit.statLine([points(v.scores[me].points), setName(p.set)]),
      counts(p),
      p.lab.length
        ? kit.cardList(p.lab, (id) => ({ size: "small", badge: cardBadge(id) }), { label: gettext("Your lab") })
        : h("p", { class: "muted" }, gettext("Your lab is empty: hire monsters and install equipment.")),
      completedList(p));
  }

  // --- the interrupt window ------------------------------------------------------------

  function renderPrompt(v, legal) {
    const w = v.window;
    if (w && w.waiting.includes(me) && legal.length) {
      const interrupts = legal.filter((a) => a.type === "interrupt");
      const pass = legal.filter((a) => a.type === "pass");
      const label = (a) => (a.type === "pass" ? gettext("Let it go") : interpolate(gettext("Interrupt with %s"), [cardName(a.card)]));
      return [
        h("p", { class: "prompt__text" }, interpolate(gettext("%(player)s completes %(challenge)s: do you interrupt?"), { player: playerName(w.seat), challenge: cardName(w.challenge) }, true)),
        h("div", { class: "prompt__card" }, kit.cardList([w.challenge], { size: "mini", badge: cardBadge(w.challenge, w.cost) }, { label: gettext("The challenge") })),
        w.safe ? null : h("p", {}, "⚠ ", gettext("No safeguard in this build.")),
        interrupts.length
          ? h("div", {}, interrupts.map((a) => kit.cardEffect(a.card)))
          : h("p", {}, gettext("No card of your hand can interrupt this.")),
        h("div", { class: "button-row dm-answers" }, actionButtons([...interrupts, ...pass], label, (a) => ({ variant: a.type === "pass" ? "button--secondary" : "" }))),
      ];
    }
    if (v.phase === "discard" && !w && v.turn === me && legal.length) {
      const hand = (v.hand || []).length;
      return [
        h("p", { class: "prompt__text" }, interpolate(ngettext("You hold %s card: discard down to 6.", "You hold %s cards: discard down to 6.", hand), [hand])),
        h("p", {}, interpolate(ngettext("Choose %s card of your hand to recycle.", "Choose %s cards of your hand to recycle.", hand - HAND_LIMIT), [hand - HAND_LIMIT])),
      ];
    }
    return [];
  }

  /** What everyone else sees of an open window. */
  function renderWindow(v) {
    const w = v.window;
    if (!w || (w.waiting.includes(me) && me !== null)) return null;
    const text = w.seat === me
      ? interpolate(gettext("You complete %s: the other players may interrupt."), [cardName(w.challenge)])
      : interpolate(gettext("%(player)s completes %(challenge)s: the other players may interrupt."), { player: playerName(w.seat), challenge: cardName(w.challenge) }, true);
    const waiting = w.waiting.map(playerName).join(", ");
    return h("section", { class: "panel dm-window", "aria-label": gettext("Now") },
      h("p", { class: "dm-window__text" }, kit.icon("time"), " ", text),
      h("p", {}, interpolate(gettext("Waiting for: %s"), [waiting])),
      kit.cardList([w.challenge], { size: "mini", badge: cardBadge(w.challenge, w.cost) }, { label: gettext("The challenge") }));
  }

  function turnLine(v) {
    if (v.over) return kit.turnText({ over: true });
    const w = v.window;
    if (w) {
      if (me !== null && w.waiting.includes(me)) return gettext("Answer now");
      return gettext("The other players may interrupt.");
    }
    if (v.phase === "discard") return v.turn === me ? gettext("Discard down to 6 cards.") : interpolate(gettext("%s is discarding down to 6 cards."), [playerName(v.turn)]);
    return kit.turnText({ turn: v.turn });
  }

  function draw(v, legal) {
    current = v;
    const seated = me !== null;
    const over = Boolean(v.over);
    const mine = seated && (v.to_move || []).includes(me);
    const others = v.players.map((p) => p.seat);
    return [
      over && v.result ? kit.endScreen(v.result, {
        decided: decidedByText(v.result.decided_by),
        columns: [{ label: gettext("Big Data points"), key: "points" }, { label: gettext("Hardest challenge"), key: "hardest" },
          { label: gettext("Challenges completed"), key: "challenges" }],
      }) : null,
      over ? null : kit.turnBar(turnLine(v), mine, [
        { label: gettext("Round"), value: String(v.round), name: "round" },
        { icon: "challenge", label: gettext("Challenge deck"), value: v.challenge_deck_count, name: "challenges" },
        { label: gettext("Pool"), value: techSci(v.pool), name: "pool" },
      ]),
      seated ? kit.prompt(renderPrompt(v, legal)) : null,
      seated ? kit.players(others, { isTurn: (seat) => seat === v.turn && !over, lines: (seat) => labLines(v, seat) }) : null,
      over ? null : renderWindow(v),
      over ? null : drawMarket(v, legal),
      over ? null : drawBuild(v, legal),
      seated && !over ? kit.hand(v.hand || [], legal) : null,
      seated ? drawMyLab(v) : null,
      seated ? null : kit.players(others, { isTurn: (seat) => seat === v.turn && !over, lines: (seat) => labLines(v, seat) }),
    ];
  }

  const renderer = kit.renderer({
    deadlineLabel(deadline) {
      if (deadline.kind === "interrupt") {
        const w = current && current.window;
        if (w && me !== null && w.waiting.includes(me)) return gettext("Time to interrupt");
        return gettext("The other players may interrupt");
      }
      return gettext("Time left");
    },
  });
  // An interrupt window lasts seconds: a phone scrolled down to its hand brings the
  // answer box into view once, when the window opens for this seat.
  const drawState = renderer.update;
  let answering = null;
  renderer.update = (message) => {
    drawState(message);
    const w = message.view.window;
    const mine = Boolean(w && me !== null && w.waiting.includes(me));
    const box = board.querySelector(".prompt");
    if (mine && answering !== w.id && box) {
      const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      box.scrollIntoView({ block: "center", behavior: reduced ? "auto" : "smooth" });
    }
    answering = mine ? w.id : null;
  };
  return renderer;
}

register("data_monsters", createDataMonsters);
