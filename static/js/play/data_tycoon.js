/* Data-Tycoon board: draws a seat's (or the projector's) view and turns every legal
 * action into exactly one control. Rules and view format: docs/rules/data_tycoon.md.
 * The pieces every game shares (cards, hand, players, action buttons, end screen) come
 * from kit.js; this module keeps Data-Tycoon's own zones and wording.
 *
 * Controls, all derived from `legal_actions` (nothing else is clickable):
 * - a hand card is a button; choosing it shows its own plays in the card tray
 *   (lay, keep, set aside, discard, attack a chosen opponent, split a treasure) and
 *   turns the table cards it may capture into highlighted buttons;
 * - DATA!, DATABREACH!, counter / accept, freeze and loss choices are big buttons in
 *   the prompt at the top; an attack says what happens if it is accepted and which
 *   card stops it, and its card what it does;
 * - free actions (build a Data-Treasure from a purpose and a basis, split with a kept
 *   Consent) are buttons in a box right under the prompt, before the card play and
 *   after it (then with "End my turn"). */

import { h } from "./dom.js";
import { boardKit, breakable, nameParts } from "./kit.js";
import { register } from "./registry.js";

/** Okabe-Ito colours, each with its own shape and background pattern (see game.css). */
const COLOUR_SHAPES = { red: "●", blue: "■", yellow: "▲", green: "◆", fuchsia: "★" };
const COLOURS = Object.keys(COLOUR_SHAPES);
const HAND_PLAYS = ["play", "keep", "set_aside", "discard", "attack", "split"];
const CALLS = ["call_data", "call_databreach"];
const TREASURE_SIZE = 6; // Dataset cards in a Data-Treasure (rules.py TREASURE_SIZE)

/** What an attack does if it is accepted, and which card stops it (rules.py CARD_RULES). */
function attackOutcome(attack) {
  return {
    sanction: [gettext("If you accept: you lose all your Data-Treasures; their cards go back to the deck."), gettext("A Lawyer card stops it.")],
    complaint: [gettext("If you accept: 3 of your loose Dataset cards go back to the deck."), gettext("A Lawyer or a Consent card stops it.")],
    minimization: [gettext("If you accept: all your loose Dataset cards, frozen ones too, go back to the deck. Your Data-Treasures stay."), gettext("Only a Minimization card stops it.")],
    transparency: [gettext("If you accept: everyone sees your hand during your next 3 turns."), gettext("Only a Transparency card stops it.")],
    time: [gettext("If you accept: a countdown starts. If you draw no Purpose or Consent card before it ends, you give up 6 loose Dataset cards or a Data-Treasure."), gettext("Only a Time card stops it.")],
    databreach: [gettext("If you accept: you lose this turn, and a card of your hand goes to the pile."), gettext("A Cybersecurity card stops it.")],
    hidden_breach: [gettext("If you accept: you give up 6 loose Dataset cards or a Data-Treasure."), gettext("A Cybersecurity card contains it: then you only skip your next turn.")],
  }[attack] || null;
}

function colourName(colour) {
  return (
    {
      red: gettext("red"),
      blue: gettext("blue"),
      yellow: gettext("yellow"),
      green: gettext("green"),
      fuchsia: gettext("fuchsia"),
    }[colour] || colour
  );
}

function kindName(kind) {
  return (
    {
      sanction: gettext("Sanction"),
      lawyer: gettext("Lawyer"),
      transparency: gettext("Transparency"),
      cybersecurity: gettext("Cybersecurity"),
      databreach: gettext("Databreach"),
      consent: gettext("Consent"),
      minimization: gettext("Minimization"),
      time: gettext("Time"),
      complaint: gettext("Complaint"),
      purpose: gettext("Purpose"),
    }[kind] || kind
  );
}

function decidedByText(decidedBy) {
  return (
    {
      treasures: gettext("Decided by the number of Data-Treasures."),
      sensitive: gettext("Tied on Data-Treasures: decided by the sensitive Dataset cards."),
      datasets: gettext("Tied on Data-Treasures and sensitive cards: decided by all Dataset cards."),
      shared: gettext("Tied on everything: the first place is shared."),
    }[decidedBy] || ""
  );
}

/** A card's look: its sign's (or kind's) icon, its colour's shape and pattern. */
function look(c) {
  return {
    icon: c.kind === "dataset" ? (c.sensitive ? c.sign : "dataset") : c.kind,
    shape: c.colour ? COLOUR_SHAPES[c.colour] : null,
    classes: [c.colour ? `colour-${c.colour}` : null, c.sensitive ? "dt-card--sensitive" : null],
  };
}

function handActions(legal, id) {
  return legal.filter((a) => a.card === id && HAND_PLAYS.includes(a.type));
}

function isCapture(a) {
  return a.type === "play" && Boolean(a.capture);
}

function createDataTycoon(board, ctx) {
  const mySeat = ctx.seat;
  const kit = boardKit(board, ctx, {
    look,
    draw,
    score: shortScore,
    cardsInHand: (view, seat) => (view.players[seat] ? view.players[seat].hand_count ?? (view.hand || []).length : null),
    hand: {
      actionsFor: handActions,
      trayActions: (acts) => acts.filter((a) => !isCapture(a)),
      trayLabel,
      trayVariant: (a) => (a.type === "attack" ? "button--danger" : ""),
      trayHint(acts) {
        const captures = acts.filter(isCapture).length;
        return captures ? h("p", { class: "tray__hint" }, ngettext("It can capture the highlighted table card.", "It can capture one of the highlighted table cards.", captures)) : null;
      },
      chosen(id, acts) {
        if (acts.some(isCapture)) ctx.announce(gettext("Choose a highlighted table card to capture."));
      },
    },
    yourTurn: (view) => (view.window && view.window.seat === mySeat ? gettext("Answer now.") : gettext("Your turn")),
    focusFallback: ".prompt button, [data-key^='hand:'], .panel--end",
  });
  const { icon, cardName, playerName, actionButtons } = kit;
  const kind = (id) => kit.entry(id).kind;

  // --- prompt: windows and calls -------------------------------------------------

  function renderPrompt(view, legal) {
    const items = [];
    const byType = (t) => legal.filter((a) => a.type === t);
    const w = view.window;
    const attacker = w && w.attacker !== undefined && w.attacker !== null ? playerName(w.attacker) : null;

    const calls = [...byType("call_databreach"), ...byType("call_data")];
    if (calls.length) {
      items.push(
        h("p", { id: "call-help", class: "prompt__text" },
          byType("call_databreach").length
            ? gettext("You drew a Databreach card: call DATABREACH! now, or it will come out later and cost you more.")
            : gettext("You drew a Purpose card: call DATA! now, or you lose it."),
        ),
        h("div", { class: "button-row prompt__calls" },
          actionButtons(calls, (a) => (a.type === "call_data" ? gettext("DATA!") : gettext("DATABREACH!")), { big: true, variant: "button--call", describedBy: "call-help" })),
      );
    }

    const counters = byType("counter");
    const accept = byType("accept");
    if (w && w.kind === "counter" && w.seat === mySeat && (counters.length || accept.length)) {
      items.push(
        h("p", { class: "prompt__text" },
          w.attack === "databreach"
            ? gettext("Data breach! Contain it with a Cybersecurity card, or lose this turn.")
            : w.attack === "hidden_breach"
              ? gettext("Your hidden data breach comes out! Contain it with a Cybersecurity card?")
              : interpolate(gettext("%(player)s plays %(card)s against you. Answer?"), { player: attacker, card: cardName(w.card) }, true),
        ),
        h("div", { class: "prompt__card" }, kit.cardList([w.card], { size: "small" }), kit.cardEffect(w.card)),
        outcome(w.attack, counters.length),
        h("div", { class: "button-row" },
          actionButtons(counters, (a) => interpolate(gettext("Answer with %s"), [kindName(a.kind)]), { big: true, variant: "button--call" }),
          actionButtons(accept, () => (counters.length ? gettext("Accept") : gettext("Accept (no answer)")), { variant: "button--secondary" })),
      );
    }

    const freezes = byType("freeze");
    if (freezes.length) {
      const left = (w && w.left) || 1;
      items.push(
        h("p", { class: "prompt__text" },
          interpolate(ngettext("%(player)s freezes your cards: choose %(left)s card to freeze.", "%(player)s freezes your cards: choose %(left)s cards to freeze.", left), { player: attacker || "", left }, true)),
        h("p", { class: "prompt__outcome" }, gettext("Frozen cards still count at the end, but can never join a Data-Treasure. No card stops a freeze.")),
        h("ul", { class: "dt-cards dt-cards--choice", role: "list" },
          freezes.map((a) => kit.card(a.card, { size: "small", action: a, label: interpolate(gettext("Freeze %s"), [cardName(a.card)]) }))),
      );
    }

    const losses = byType("lose");
    if (losses.length) {
      const cause = w && w.cause === "time" ? gettext("Time is up.") : gettext("The hidden data breach comes out.");
      items.push(
        h("p", { class: "prompt__text" }, cause, " ", gettext("What do you give up?")),
        h("div", { class: "button-row" },
          actionButtons(losses, (a) => (a.what === "treasure" ? interpolate(gettext("The Data-Treasure for %s"), [cardName(a.treasure)]) : gettext("6 loose Dataset cards")), { big: true })),
      );
    }
    return items;
  }

  /** "If you accept: …" and "A Lawyer card stops it." (", and you have none"): an attack's stakes. */
  function outcome(attack, canCounter) {
    const texts = attackOutcome(attack);
    if (!texts) return null;
    return h("div", { class: "prompt__outcome" },
      h("p", { class: "prompt__if" }, texts[0]),
      h("p", { class: "prompt__stop" }, texts[1], canCounter ? null : [" ", gettext("You have none.")]));
  }

  /** Free actions (build, split with a kept Consent): before the card play, at the top. */
  function renderFree(legal) {
    const free = legal.filter((a) => a.type === "build" || (a.type === "split" && !a.card));
    const end = legal.filter((a) => a.type === "end_turn"); // the card is played: build now, or end
    if (!free.length && !end.length) return null;
    const label = (a) => (a.type === "build"
      ? interpolate(gettext("Build a Data-Treasure for %(purpose)s with 6 %(basis)s cards"), { purpose: nameParts(cardName(a.purpose)).label, basis: a.basis === "sensitive" ? gettext("sensitive") : colourName(a.basis) }, true)
      : interpolate(gettext("Split the Data-Treasure for %s with your Consent"), [cardName(a.treasure)]));
    return h("section", { class: "free-actions", role: "group", "aria-labelledby": "free-title" },
      h("h2", { id: "free-title", class: "free-actions__title" }, icon("treasure"), " ",
        end.length ? gettext("Your card is played. Before your turn ends you may:") : gettext("Before your card play you may:")),
      h("div", { class: "button-row" },
        actionButtons(free, label, { variant: "button--build" }),
        actionButtons(end, () => gettext("End my turn"), { variant: "button--secondary" })),
    );
  }

  // --- turn bar, table, hand -----------------------------------------------------

  function renderTurnBar(view) {
    const w = view.window;
    const answering = w && !CALLS.includes(w.kind) ? w.seat : null;
    return kit.turnBar(kit.turnText({ over: view.over, turn: view.turn, answering }), view.turn === mySeat, [
      { icon: "back", label: gettext("Draw pile"), value: view.deck_count, name: "deck" },
      { label: gettext("Played specials"), value: view.pile.length },
    ]);
  }

  function renderTable(view, legal) {
    const selected = kit.selected();
    const captures = new Map(); // table card -> action, for the chosen hand card
    for (const a of legal) if (isCapture(a) && a.card === selected) captures.set(a.capture, a);
    const target = (id) => (captures.has(id)
      ? {
        action: captures.get(id),
        highlight: true,
        label: interpolate(gettext("Capture %(table)s with %(hand)s"), { table: cardName(id), hand: cardName(selected) }, true),
        badge: h("span", { class: "dt-card__badge" }, "✓ ", gettext("capture")),
      }
      : {});
    return h("section", { class: "panel panel--table", "aria-labelledby": "table-title" },
      h("h2", { id: "table-title" }, gettext("Table"),
        captures.size ? h("span", { class: "panel__hint" }, " — ", gettext("choose a highlighted card to capture")) : null),
      view.table.length
        ? kit.cardList(view.table, target, { label: gettext("Cards on the table"), modifier: "table" })
        : h("p", { class: "muted" }, gettext("The table is empty.")),
    );
  }

  function trayLabel(a) {
    switch (a.type) {
      case "play": return gettext("Lay it on the table");
      case "keep": return kind(a.card) === "consent" ? gettext("Keep it face up to split a treasure later") : gettext("Place it beside your collection");
      case "set_aside": return gettext("Keep it aside, face down, to answer later");
      case "discard": return gettext("Throw it away (nobody can be targeted)");
      case "attack":
        return kind(a.card) === "purpose"
          ? interpolate(gettext("Freeze 3 cards of %s"), [playerName(a.target)])
          : interpolate(gettext("Play it against %s"), [playerName(a.target)]);
      case "split": return interpolate(gettext("Split the Data-Treasure for %s"), [cardName(a.treasure)]);
      default: return a.type;
    }
  }

  /** "call DATA!" on a card still to be called, "hidden breach" on a hidden Databreach. */
  function handBadge(view) {
    const undeclared = new Set(view.undeclared || []);
    const hidden = new Set(view.hidden_breaches || []);
    return (id) => {
      if (undeclared.has(id)) return h("span", { class: "dt-card__badge dt-card__badge--call" }, kind(id) === "databreach" ? gettext("call DATABREACH!") : gettext("call DATA!"));
      return hidden.has(id) ? h("span", { class: "dt-card__badge dt-card__badge--alert" }, gettext("hidden breach")) : null;
    };
  }

  // --- collections ---------------------------------------------------------------

  const colourTag = (colour, count) => [h("span", { class: `swatch colour-${colour}`, "aria-hidden": "true" }, COLOUR_SHAPES[colour]), ` ${colourName(colour)} × ${count}`];

  function renderTreasures(p, compact = false) {
    if (!p.treasures.length) return null;
    const title = h("h3", {}, icon("treasure"), " ", gettext("Data-Treasures"));
    if (compact) {
      return h("div", { class: "group" }, title,
        h("ul", { class: "compact-list", role: "list" }, p.treasures.map((t) => h("li", { class: "treasure treasure--compact", dataset: { card: t.label } },
          // a long purpose ("персонализированная медицина") breaks between syllables, with a hyphen
          icon(look(kit.entry(t.label)).icon), " ", h("span", { lang: ctx.language }, breakable(nameParts(cardName(t.label)).label)),
          h("span", { class: "count" }, ` (${t.cards.length})`)))));
    }
    return h("div", { class: "group" }, title,
      h("ul", { class: "treasures", role: "list" }, p.treasures.map((t) => h("li", { class: "treasure" },
        h("p", { class: "treasure__label" }, interpolate(ngettext("For %(purpose)s (%(count)s card)", "For %(purpose)s (%(count)s cards)", t.cards.length), { purpose: cardName(t.label), count: t.cards.length }, true)),
        kit.cardList(t.cards, { size: "mini" })))));
  }

  function renderLoose(p, compact = false) {
    const frozen = new Set(p.frozen);
    const loose = p.collection.filter((id) => !frozen.has(id));
    const byColour = COLOURS.map((colour) => [colour, loose.filter((id) => kit.entry(id).colour === colour)]).filter(([, ids]) => ids.length);
    const blocks = [];
    if (loose.length) {
      const title = h("h3", {}, gettext("Loose Dataset cards"), h("span", { class: "count" }, ` (${loose.length})`));
      blocks.push(compact
        ? h("div", { class: "group" }, title, h("ul", { class: "compact-list", role: "list" }, byColour.map(([colour, ids]) => {
          const sensitive = ids.filter((id) => kit.entry(id).sensitive).length;
          return h("li", { class: "colour-tag" }, ...colourTag(colour, ids.length),
            sensitive ? h("span", { class: "count" }, " ", interpolate(ngettext("(%s sensitive)", "(%s sensitive)", sensitive), [sensitive])) : null);
        })))
        : h("div", { class: "group" }, title, h("ul", { class: "colour-groups", role: "list" }, byColour.map(([colour, ids]) => h("li", { class: "colour-group" },
          h("span", { class: "colour-tag" }, ...colourTag(colour, ids.length)), kit.cardList(ids, { size: "mini" }))))));
    }
    if (p.frozen.length && compact) {
      blocks.push(h("p", { class: "group" }, icon("frozen"), " ", interpolate(ngettext("%s frozen card", "%s frozen cards", p.frozen.length), [p.frozen.length])));
    } else if (p.frozen.length) {
      blocks.push(h("div", { class: "group group--frozen" },
        h("h3", {}, icon("frozen"), " ", gettext("Frozen cards"), h("span", { class: "count" }, ` (${p.frozen.length})`)),
        kit.cardList(p.frozen, { size: "mini", badge: () => h("span", { class: "dt-card__badge" }, icon("frozen"), gettext("frozen")) })));
    }
    return blocks;
  }

  function renderKept(p, compact = false) {
    const group = (title, ids, size) => h("div", { class: "group" }, h("h3", {}, title), kit.cardList(ids, { size }));
    if (compact) {
      const kept = [...p.purposes, ...p.consents];
      return kept.length ? [group(gettext("Kept face up"), kept, "mini")] : [];
    }
    return [
      p.purposes.length ? group(gettext("Purposes kept"), p.purposes, "small") : null,
      p.consents.length ? group(gettext("Consents kept"), p.consents, "small") : null,
    ];
  }

  function scoreLine(view, seat) {
    const s = view.scores.find((x) => x.seat === seat) || { treasures: 0, sensitive: 0, datasets: 0 };
    return kit.statLine([
      interpolate(ngettext("%s Data-Treasure", "%s Data-Treasures", s.treasures), [s.treasures]),
      interpolate(ngettext("%s sensitive card", "%s sensitive cards", s.sensitive), [s.sensitive]),
      interpolate(ngettext("%s Dataset card", "%s Dataset cards", s.datasets), [s.datasets]),
    ]);
  }

  /** Open hand, skipped turns and Time threats on a seat: dashed badges with words. */
  function badges(view, p) {
    const warn = (...children) => h("span", { class: "badge badge--warn" }, ...children);
    return h("div", { class: "badges" },
      p.transparent_turns ? warn(icon("transparency"), " ", interpolate(ngettext("open hand: %s turn", "open hand: %s turns", p.transparent_turns), [p.transparent_turns])) : null,
      p.skips ? warn(interpolate(ngettext("skips %s turn", "skips %s turns", p.skips), [p.skips])) : null,
      (view.threats || []).filter((t) => t.seat === p.seat).map((t) => warn(icon("time"), " ",
        t.turns !== undefined ? interpolate(ngettext("Time card: %s turn left", "Time card: %s turns left", t.turns), [t.turns]) : gettext("Time card running"))));
  }

  /* Towards a Data-Treasure: loose cards per colour ("■ blue 4/6"), sensitive ones
   * ("sensitive 3/6"), the Purpose kept (or how to get one), and when a build is ready. */
  function renderProgress(view, p, legal) {
    const counts = COLOURS.map((colour) => [colour, p.collection.filter((id) => kit.entry(id).colour === colour).length]).filter(([, n]) => n);
    const sensitive = p.collection.filter((id) => kit.entry(id).sensitive).length;
    const item = (ready, ...children) => h("li", { class: ready ? "progress__item is-ready" : "progress__item" }, ...children, ready ? " ✓" : null);
    const full = counts.some(([, n]) => n >= TREASURE_SIZE) || sensitive >= TREASURE_SIZE;
    const called = (view.hand || []).filter((id) => kind(id) === "purpose" && !(view.undeclared || []).includes(id));
    let purpose;
    if (p.purposes.length) {
      purpose = interpolate(ngettext("Purpose kept: %s", "Purposes kept: %s", p.purposes.length), [p.purposes.map((id) => nameParts(cardName(id)).label).join(", ")]);
    } else if (called.length) {
      purpose = gettext("No Purpose kept yet: place your Purpose card beside your collection.");
    } else {
      purpose = gettext("No Purpose kept: call DATA! when you draw one.");
    }
    let ready = null;
    if (legal.some((a) => a.type === "build")) ready = gettext("You can build a Data-Treasure now: use the button at the top.");
    else if (full && p.purposes.length) ready = gettext("Ready: build your Data-Treasure on your turn, before or after your card play.");
    return h("div", { class: "group progress", "aria-labelledby": "progress-title" },
      h("h3", { id: "progress-title" }, icon("treasure"), " ", gettext("Towards a Data-Treasure")),
      p.treasures.length || p.collection.length > 1 ? null : h("p", { class: "progress__goal muted" }, gettext("A Purpose card and 6 Dataset cards of one colour (or 6 sensitive ones) make a Data-Treasure.")),
      h("ul", { class: "progress__list", role: "list" },
        counts.map(([colour, n]) => item(n >= TREASURE_SIZE,
          h("span", { class: `swatch colour-${colour}`, "aria-hidden": "true" }, COLOUR_SHAPES[colour]), " ",
          interpolate(gettext("%(colour)s %(count)s/%(size)s"), { colour: colourName(colour), count: Math.min(n, TREASURE_SIZE), size: TREASURE_SIZE }, true))),
        item(sensitive >= TREASURE_SIZE, interpolate(gettext("sensitive %(count)s/%(size)s"), { count: Math.min(sensitive, TREASURE_SIZE), size: TREASURE_SIZE }, true))),
      h("p", { class: p.purposes.length ? "progress__purpose" : "progress__purpose is-missing" }, purpose),
      ready ? h("p", { class: "progress__ready" }, "★ ", ready) : null);
  }

  function renderMine(view, legal) {
    const p = view.players[mySeat];
    const reserve = view.reserve || [];
    const empty = !p.collection.length && !p.frozen.length && !p.treasures.length && !p.purposes.length && !p.consents.length && !reserve.length;
    return h("section", { class: "panel panel--mine", "aria-labelledby": "mine-title" },
      h("h2", { id: "mine-title" }, gettext("Your collection")),
      scoreLine(view, mySeat), badges(view, p),
      view.over ? null : renderProgress(view, p, legal),
      renderTreasures(p), ...renderLoose(p), ...renderKept(p),
      reserve.length ? h("div", { class: "group" }, h("h3", {}, gettext("Kept aside (only you see them)")), kit.cardList(reserve, { size: "small" })) : null,
      empty ? h("p", { class: "muted" }, gettext("Nothing collected yet.")) : null);
  }

  /** Another seat: scores, hand and reserve sizes, badges, an open hand, its collection as counts. */
  function playerLines(view, seat) {
    const p = view.players[seat];
    return [
      scoreLine(view, seat),
      h("p", { class: "player__counts" },
        h("span", { class: "nowrap" }, icon("back"), " ", interpolate(ngettext("%s card in hand", "%s cards in hand", p.hand_count), [p.hand_count])),
        // the separator its own element: the projector hides it when the count wraps to a new line
        p.reserve_count ? h("span", { class: "nowrap" }, h("span", { class: "player__sep" }, "·"), interpolate(ngettext("%s kept aside", "%s kept aside", p.reserve_count), [p.reserve_count])) : null),
      badges(view, p),
      p.hand ? h("div", { class: "group group--revealed" }, h("h4", {}, icon("transparency"), " ", gettext("Open hand (Transparency)")), kit.cardList(p.hand, { size: "small" })) : null,
      // Other players' collections as counts (colours, sensitive cards): short on a phone.
      renderTreasures(p, true), ...renderLoose(p, true), ...renderKept(p, true),
    ];
  }

  /** "2 treasures · 14 cards": the sticky bar and the opponents strip. */
  function shortScore(view, seat) {
    const s = view.scores.find((x) => x.seat === seat) || { treasures: 0, datasets: 0 };
    return [
      interpolate(ngettext("%s treasure", "%s treasures", s.treasures), [s.treasures]),
      interpolate(ngettext("%s card", "%s cards", s.datasets), [s.datasets]),
    ].join(" · ");
  }

  // --- drawing -------------------------------------------------------------------

  function draw(view, legal) {
    const seated = mySeat !== null;
    const over = Boolean(view.over);
    const mine = seated ? view.players[mySeat] : null;
    return [
      over && view.result ? kit.endScreen(view.result, {
        decided: decidedByText(view.result.decided_by),
        columns: [{ label: gettext("Treasures"), key: "treasures" }, { label: gettext("Sensitive"), key: "sensitive" }, { label: gettext("Datasets"), key: "datasets" }],
      }) : null,
      over ? null : renderTurnBar(view),
      seated ? kit.prompt(renderPrompt(view, legal)) : null,
      // the opponents as a short strip near the top on a seat (after what must be
      // answered now); in columns below on the projector
      seated ? opponents(view, over) : null,
      seated ? renderFree(legal) : null,
      mine && mine.transparent_turns ? h("p", { class: "notice-line" }, icon("transparency"), " ", gettext("Transparency: everyone can see your hand.")) : null,
      renderTable(view, legal),
      seated && !over ? kit.hand(view.hand || [], legal, { badge: handBadge(view) }) : null,
      seated ? renderMine(view, legal) : null,
      seated ? null : opponents(view, over),
    ];
  }

  function opponents(view, over) {
    return kit.players(view.players.map((p) => p.seat), { isTurn: (seat) => view.turn === seat && !over, lines: (seat) => playerLines(view, seat) });
  }

  return kit.renderer({
    deadlineLabel(deadline) {
      const own = deadline.seat === mySeat;
      const who = own ? null : playerName(deadline.seat);
      switch (deadline.kind) {
        case "call_data": return gettext("Call DATA! before the time runs out");
        case "call_databreach": return gettext("Call DATABREACH! before the time runs out");
        case "counter": return own ? gettext("Time to answer") : interpolate(gettext("%s is answering"), [who]);
        case "freeze": return own ? gettext("Time to choose") : interpolate(gettext("%s is choosing"), [who]);
        case "loss": return own ? gettext("Time to choose") : interpolate(gettext("%s is choosing"), [who]);
        case "time": return own ? gettext("Time card deadline") : interpolate(gettext("Time card on %s"), [who]);
        default: return gettext("Time left");
      }
    },
  });
}

register("data_tycoon", createDataTycoon);
