/* Data-Tycoon board: draws a seat's (or the projector's) view and turns every legal
 * action into exactly one control. Rules and view format: docs/rules/data_tycoon.md.
 *
 * Controls, all derived from `legal_actions` (nothing else is clickable):
 * - a hand card is a button; choosing it shows its own plays in the card tray
 *   (lay, keep, set aside, discard, attack a chosen opponent, split a treasure) and
 *   turns the table cards it may capture into highlighted buttons;
 * - DATA!, DATABREACH!, counter / accept, freeze and loss choices are big buttons in
 *   the prompt at the top;
 * - free actions (build a Data-Treasure from a purpose and a basis, split with a kept
 *   Consent) are buttons in the "Your collection" panel. */

import { h, icon, replaceKeepingFocus } from "./dom.js";
import { register } from "./registry.js";

/** Okabe-Ito colours, each with its own shape and background pattern (see game.css). */
const COLOUR_SHAPES = { red: "●", blue: "■", yellow: "▲", green: "◆", fuchsia: "★" };
const COLOURS = Object.keys(COLOUR_SHAPES);

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

/** Stable string for an action, to compare and to key controls. */
export function actionKey(action) {
  return JSON.stringify(Object.keys(action).sort().map((k) => [k, action[k]]));
}

/** Split a localised card name "Head: label (colour)" into its parts. */
export function nameParts(name) {
  const match = /^(.*?)(?:\s*:\s*(.*?))?(?:\s*\(([^()]*)\))?$/.exec(name);
  if (!match) return { head: "", label: name, colour: "" };
  const [, first, second, colour] = match;
  return second ? { head: first, label: second, colour: colour || "" } : { head: "", label: first, colour: colour || "" };
}

/** A smaller type for labels with long words, so that narrow cards never cut a word. */
function labelSize(label) {
  const longest = Math.max(...label.split(/\s+/).map((word) => word.length));
  if (longest >= 14) return "dt-card__label--xxlong";
  if (longest >= 12 || label.length > 28) return "dt-card__label--xlong";
  if (longest >= 9 || label.length > 18) return "dt-card__label--long";
  return "";
}

function createDataTycoon(board, ctx) {
  let players = ctx.players;
  let selected = null; // the hand card whose plays are shown
  let message = null;
  let lastTurnAnnounced = null;
  const baseTitle = document.title.replace(/^▶ /, "");

  const catalogue = ctx.catalogue;
  const lang = ctx.language;
  const mySeat = ctx.seat;

  function card(id) {
    return catalogue[id] || { id, kind: "unknown", name: { en: id } };
  }

  function cardName(id) {
    const c = card(id);
    return c.name[lang] || c.name.en || id;
  }

  function iconName(c) {
    if (c.kind === "dataset") return c.sensitive ? c.sign : "dataset";
    return c.kind;
  }

  function playerName(seat) {
    const p = players.find((x) => x.seat === seat);
    return p && p.name ? p.name : interpolate(gettext("Player %s"), [seat + 1]);
  }

  /** The face of a card: icon, colour shape, the name in the session's language. */
  function face(id, { size = "normal", extra = null } = {}) {
    const c = card(id);
    const parts = nameParts(cardName(id));
    const cls = ["dt-card", `dt-card--${c.kind}`, `dt-card--${size}`];
    if (c.colour) cls.push(`colour-${c.colour}`);
    if (c.sensitive) cls.push("dt-card--sensitive");
    return {
      cls: cls.join(" "),
      children: [
        h(
          "span",
          { class: "dt-card__top", "aria-hidden": "true" },
          icon(ctx.icons, iconName(c), "dt-card__icon"),
          c.colour ? h("span", { class: "dt-card__shape" }, COLOUR_SHAPES[c.colour]) : null,
        ),
        h(
          "span",
          { class: "dt-card__name" },
          parts.head ? h("span", { class: "dt-card__head" }, parts.head) : null,
          h("span", { class: `dt-card__label ${labelSize(parts.label)}`.trim() }, parts.label),
          parts.colour ? h("span", { class: "dt-card__colour" }, parts.colour) : null,
        ),
        typeof extra === "function" ? extra(id) : extra,
      ],
    };
  }

  /** A card that is not a control. */
  function cardItem(id, opts = {}) {
    const f = face(id, opts);
    return h("li", { class: f.cls, dataset: { card: id } }, ...f.children);
  }

  /** A card that is a button. */
  function cardButton(id, attrs, opts = {}) {
    const f = face(id, opts);
    const cls = `${f.cls} dt-card--button ${attrs.class || ""}`.trim();
    return h("li", { class: "dt-card-slot" }, h("button", { type: "button", ...attrs, class: cls, dataset: { card: id, ...(attrs.dataset || {}) } }, ...f.children));
  }

  function actionButton(action, label, { big = false, variant = "", describedBy = null } = {}) {
    const key = actionKey(action);
    return h(
      "button",
      {
        type: "button",
        class: `button ${big ? "button--huge" : ""} ${variant}`.trim(),
        dataset: { action: JSON.stringify(action), key },
        "aria-describedby": describedBy,
        onclick: () => {
          if (ctx.act(action)) selected = null;
        },
      },
      label,
    );
  }

  function cardList(ids, opts = {}, listLabel = null) {
    return h("ul", { class: "dt-cards", role: "list", "aria-label": listLabel }, ids.map((id) => cardItem(id, opts)));
  }

  // --- prompt: windows and calls -------------------------------------------------

  function renderPrompt(view, legal) {
    const items = [];
    const byType = (t) => legal.filter((a) => a.type === t);
    const w = view.window;

    const calls = [...byType("call_databreach"), ...byType("call_data")];
    if (calls.length) {
      const id = "call-help";
      items.push(
        h("p", { id, class: "prompt__text" },
          byType("call_databreach").length
            ? gettext("You drew a Databreach card: call DATABREACH! now, or it will come out later and cost you more.")
            : gettext("You drew a Purpose card: call DATA! now, or you lose it."),
        ),
        h("div", { class: "button-row prompt__calls" },
          calls.map((a) => actionButton(a, a.type === "call_data" ? gettext("DATA!") : gettext("DATABREACH!"), { big: true, variant: "button--call", describedBy: id })),
        ),
      );
    }

    const counters = byType("counter");
    const accept = byType("accept");
    if (w && w.kind === "counter" && w.seat === mySeat && (counters.length || accept.length)) {
      const attacker = w.attacker === null || w.attacker === undefined ? null : playerName(w.attacker);
      items.push(
        h("p", { class: "prompt__text" },
          w.attack === "databreach"
            ? gettext("Data breach! Contain it with a Cybersecurity card, or lose this turn.")
            : interpolate(gettext("%(player)s plays %(card)s against you. Answer?"), { player: attacker, card: cardName(w.card) }, true),
        ),
        h("div", { class: "prompt__card" }, cardList([w.card], { size: "small" })),
        h("div", { class: "button-row" },
          counters.map((a) => actionButton(a, interpolate(gettext("Answer with %s"), [kindName(a.kind)]), { big: true, variant: "button--call" })),
          accept.map((a) => actionButton(a, counters.length ? gettext("Accept") : gettext("Accept (no answer)"), { variant: "button--secondary" })),
        ),
      );
    }

    const freezes = byType("freeze");
    if (freezes.length) {
      items.push(
        h("p", { class: "prompt__text" },
          interpolate(
            ngettext("%(player)s freezes your cards: choose %(left)s card to freeze.", "%(player)s freezes your cards: choose %(left)s cards to freeze.", (w && w.left) || 1),
            { player: w && w.attacker !== undefined && w.attacker !== null ? playerName(w.attacker) : "", left: (w && w.left) || 1 },
            true,
          ),
        ),
        h("ul", { class: "dt-cards dt-cards--choice", role: "list" },
          freezes.map((a) => cardButton(a.card, {
            dataset: { action: JSON.stringify(a), key: actionKey(a) },
            "aria-label": interpolate(gettext("Freeze %s"), [cardName(a.card)]),
            onclick: () => ctx.act(a),
          }, { size: "small" })),
        ),
      );
    }

    const losses = byType("lose");
    if (losses.length) {
      const cause = w && w.cause === "time" ? gettext("Time is up.") : gettext("The hidden data breach comes out.");
      items.push(
        h("p", { class: "prompt__text" }, cause, " ", gettext("What do you give up?")),
        h("div", { class: "button-row" },
          losses.map((a) => actionButton(a,
            a.what === "treasure"
              ? interpolate(gettext("The Data-Treasure for %s"), [cardName(a.treasure)])
              : gettext("6 loose Dataset cards"),
            { big: true })),
        ),
      );
    }
    return items;
  }

  // --- turn bar ------------------------------------------------------------------

  function turnText(view) {
    if (view.over) return gettext("Game over");
    const w = view.window;
    if (w && w.seat !== mySeat && w.kind !== "call_data" && w.kind !== "call_databreach") {
      return interpolate(gettext("Waiting for %s to answer."), [playerName(w.seat)]);
    }
    if (w && w.seat === mySeat && w.kind !== "call_data" && w.kind !== "call_databreach") return gettext("Answer now");
    if (view.turn === mySeat) return gettext("Your turn");
    return interpolate(gettext("%s's turn"), [playerName(view.turn)]);
  }

  function renderTurnBar(view) {
    return h("section", { class: "turnbar", "aria-label": gettext("Game status") },
      h("h2", { class: `turnbar__turn ${view.turn === mySeat && !view.over ? "is-mine" : ""}` }, turnText(view)),
      h("dl", { class: "turnbar__facts" },
        h("div", {}, h("dt", {}, icon(ctx.icons, "back"), gettext("Draw pile")), h("dd", { "data-fact": "deck" }, view.deck_count)),
        h("div", {}, h("dt", {}, gettext("Played specials")), h("dd", {}, view.pile.length)),
      ),
    );
  }

  // --- table ---------------------------------------------------------------------

  function renderTable(view, legal) {
    const captures = new Map(); // table card -> action, for the selected hand card
    if (selected) {
      for (const a of legal) if (a.type === "play" && a.card === selected && a.capture) captures.set(a.capture, a);
    }
    const list = h("ul", { class: "dt-cards dt-cards--table", role: "list", "aria-label": gettext("Cards on the table") },
      view.table.map((id) => {
        const a = captures.get(id);
        if (!a) return cardItem(id);
        return cardButton(id, {
          class: "is-target",
          dataset: { action: JSON.stringify(a), key: actionKey(a) },
          "aria-label": interpolate(gettext("Capture %(table)s with %(hand)s"), { table: cardName(id), hand: cardName(selected) }, true),
          onclick: () => { if (ctx.act(a)) selected = null; },
        }, { extra: h("span", { class: "dt-card__badge" }, "✓ ", gettext("capture")) });
      }),
    );
    return h("section", { class: "panel panel--table", "aria-labelledby": "table-title" },
      h("h2", { id: "table-title" }, gettext("Table"),
        captures.size ? h("span", { class: "panel__hint" }, " — ", gettext("choose a highlighted card to capture")) : null),
      view.table.length ? list : h("p", { class: "muted" }, gettext("The table is empty.")),
    );
  }

  // --- hand and its tray ---------------------------------------------------------

  function handActions(legal, id) {
    return legal.filter((a) => a.card === id && ["play", "keep", "set_aside", "discard", "attack", "split"].includes(a.type));
  }

  function trayLabel(a) {
    switch (a.type) {
      case "play": return gettext("Lay it on the table");
      case "keep": return card(a.card).kind === "consent" ? gettext("Keep it face up to split a treasure later") : gettext("Place it beside your collection");
      case "set_aside": return gettext("Keep it aside, face down, to answer later");
      case "discard": return gettext("Throw it away (nobody can be targeted)");
      case "attack":
        return card(a.card).kind === "purpose"
          ? interpolate(gettext("Freeze 3 cards of %s"), [playerName(a.target)])
          : interpolate(gettext("Play it against %s"), [playerName(a.target)]);
      case "split": return interpolate(gettext("Split the Data-Treasure for %s"), [cardName(a.treasure)]);
      default: return a.type;
    }
  }

  function renderHand(view, legal) {
    const hand = view.hand || [];
    const undeclared = new Set(view.undeclared || []);
    const hidden = new Set(view.hidden_breaches || []);
    if (selected && !handActions(legal, selected).length) selected = null;
    const items = hand.map((id) => {
      const acts = handActions(legal, id);
      const badge = undeclared.has(id)
        ? h("span", { class: "dt-card__badge dt-card__badge--call" }, card(id).kind === "databreach" ? gettext("call DATABREACH!") : gettext("call DATA!"))
        : hidden.has(id) ? h("span", { class: "dt-card__badge dt-card__badge--alert" }, gettext("hidden breach")) : null;
      if (!acts.length) return cardItem(id, { extra: badge });
      return cardButton(id, {
        class: selected === id ? "is-selected" : "",
        "aria-pressed": selected === id ? "true" : "false",
        dataset: { key: `hand:${id}` },
        onclick: () => choose(id),
      }, { extra: badge });
    });
    const children = [
      h("h2", { id: "hand-title" }, gettext("Your hand")),
      hand.length ? h("ul", { class: "dt-cards dt-cards--hand", role: "list", "aria-label": gettext("Your hand") }, items) : h("p", { class: "muted" }, gettext("Your hand is empty.")),
    ];
    if (selected) {
      const acts = handActions(legal, selected);
      const captureCount = acts.filter((a) => a.type === "play" && a.capture).length;
      const others = acts.filter((a) => !(a.type === "play" && a.capture));
      children.push(
        h("div", { class: "tray", role: "group", "aria-label": interpolate(gettext("What to do with %s"), [cardName(selected)]) },
          h("p", { class: "tray__title" }, interpolate(gettext("What do you do with %s?"), [cardName(selected)])),
          captureCount ? h("p", { class: "tray__hint" }, ngettext("It can capture the highlighted table card.", "It can capture one of the highlighted table cards.", captureCount)) : null,
          h("div", { class: "button-row" }, others.map((a) => actionButton(a, trayLabel(a), { variant: a.type === "attack" ? "button--danger" : "" }))),
          h("button", { type: "button", class: "button button--small button--secondary", dataset: { key: "tray:cancel" }, onclick: () => choose(null) }, gettext("Choose another card")),
        ),
      );
    } else if (hand.length && legal.some((a) => a.card && hand.includes(a.card))) {
      children.push(h("p", { class: "muted tray__hint" }, gettext("Choose a card from your hand to see what it can do.")));
    }
    return h("section", { class: "panel panel--hand", "aria-labelledby": "hand-title" }, ...children);
  }

  function choose(id) {
    selected = selected === id ? null : id;
    draw();
    if (!selected) {
      const back = board.querySelector('[data-key^="hand:"]');
      if (back) back.focus();
      return;
    }
    // Keyboard flow: go to the first capturable table card, else to the tray.
    const target = board.querySelector(".dt-cards--table button.is-target") || board.querySelector(".tray button");
    if (target) target.focus();
    const captures = handActions(message.legal_actions, id).filter((a) => a.capture).length;
    if (captures) ctx.announce(gettext("Choose a highlighted table card to capture."));
  }

  // --- collections ---------------------------------------------------------------

  function renderTreasures(p, compact = false) {
    if (!p.treasures.length) return null;
    if (compact) {
      return h("div", { class: "group" },
        h("h3", {}, icon(ctx.icons, "treasure"), " ", gettext("Data-Treasures")),
        h("ul", { class: "compact-list", role: "list" }, p.treasures.map((t) => h("li", { class: "treasure treasure--compact", dataset: { card: t.label } },
          icon(ctx.icons, iconName(card(t.label))), " ", nameParts(cardName(t.label)).label, h("span", { class: "count" }, ` (${t.cards.length})`)))));
    }
    return h("div", { class: "group" },
      h("h3", {}, icon(ctx.icons, "treasure"), " ", gettext("Data-Treasures")),
      h("ul", { class: "treasures", role: "list" },
        p.treasures.map((t) => h("li", { class: "treasure" },
          h("p", { class: "treasure__label" }, interpolate(ngettext("For %(purpose)s (%(count)s card)", "For %(purpose)s (%(count)s cards)", t.cards.length), { purpose: cardName(t.label), count: t.cards.length }, true)),
          cardList(t.cards, { size: "mini" }),
        )),
      ),
    );
  }

  function renderLoose(p, compact = false) {
    const frozen = new Set(p.frozen);
    const loose = p.collection.filter((id) => !frozen.has(id));
    const blocks = [];
    if (loose.length && compact) {
      blocks.push(h("div", { class: "group" },
        h("h3", {}, gettext("Loose Dataset cards"), h("span", { class: "count" }, ` (${loose.length})`)),
        h("ul", { class: "compact-list", role: "list" }, COLOURS.map((colour) => {
          const ids = loose.filter((id) => card(id).colour === colour);
          if (!ids.length) return null;
          const sensitive = ids.filter((id) => card(id).sensitive).length;
          return h("li", { class: "colour-tag" }, h("span", { class: `swatch colour-${colour}`, "aria-hidden": "true" }, COLOUR_SHAPES[colour]),
            ` ${colourName(colour)} × ${ids.length}`,
            sensitive ? h("span", { class: "count" }, " ", interpolate(gettext("(%s sensitive)"), [sensitive])) : null);
        }))));
    } else if (loose.length) {
      const byColour = COLOURS.map((colour) => [colour, loose.filter((id) => card(id).colour === colour)]).filter(([, ids]) => ids.length);
      blocks.push(h("div", { class: "group" },
        h("h3", {}, gettext("Loose Dataset cards"), h("span", { class: "count" }, ` (${loose.length})`)),
        h("ul", { class: "colour-groups", role: "list" },
          byColour.map(([colour, ids]) => h("li", { class: "colour-group" },
            h("span", { class: "colour-tag" }, h("span", { class: `swatch colour-${colour}`, "aria-hidden": "true" }, COLOUR_SHAPES[colour]), ` ${colourName(colour)} × ${ids.length}`),
            cardList(ids, { size: "mini" }),
          )),
        ),
      ));
    }
    if (p.frozen.length && compact) {
      blocks.push(h("p", { class: "group" }, icon(ctx.icons, "frozen"), " ", interpolate(ngettext("%s frozen card", "%s frozen cards", p.frozen.length), [p.frozen.length])));
    } else if (p.frozen.length) {
      blocks.push(h("div", { class: "group group--frozen" },
        h("h3", {}, icon(ctx.icons, "frozen"), " ", gettext("Frozen cards"), h("span", { class: "count" }, ` (${p.frozen.length})`)),
        cardList(p.frozen, { size: "mini", extra: () => h("span", { class: "dt-card__badge" }, icon(ctx.icons, "frozen"), gettext("frozen")) }),
      ));
    }
    return blocks;
  }

  function renderKept(p, compact = false) {
    const blocks = [];
    if (compact) {
      const kept = [...p.purposes, ...p.consents];
      if (kept.length) blocks.push(h("div", { class: "group" }, h("h3", {}, gettext("Kept face up")), cardList(kept, { size: "mini" })));
      return blocks;
    }
    if (p.purposes.length) blocks.push(h("div", { class: "group" }, h("h3", {}, gettext("Purposes kept")), cardList(p.purposes, { size: "small" })));
    if (p.consents.length) blocks.push(h("div", { class: "group" }, h("h3", {}, gettext("Consents kept")), cardList(p.consents, { size: "small" })));
    return blocks;
  }

  function scoreLine(view, seat) {
    const s = view.scores.find((x) => x.seat === seat) || { treasures: 0, sensitive: 0, datasets: 0 };
    return h("p", { class: "scoreline" },
      interpolate(ngettext("%s Data-Treasure", "%s Data-Treasures", s.treasures), [s.treasures]), " · ",
      interpolate(ngettext("%s sensitive card", "%s sensitive cards", s.sensitive), [s.sensitive]), " · ",
      interpolate(ngettext("%s Dataset card", "%s Dataset cards", s.datasets), [s.datasets]));
  }

  function statusBadges(p) {
    const badges = [];
    if (p.transparent_turns) badges.push(h("span", { class: "badge badge--warn" }, icon(ctx.icons, "transparency"), " ", interpolate(ngettext("open hand: %s turn", "open hand: %s turns", p.transparent_turns), [p.transparent_turns])));
    if (p.skips) badges.push(h("span", { class: "badge badge--warn" }, interpolate(ngettext("skips %s turn", "skips %s turns", p.skips), [p.skips])));
    return badges;
  }

  function threatsOn(view, seat) {
    return (view.threats || []).filter((t) => t.seat === seat).map((t) => h("span", { class: "badge badge--warn" }, icon(ctx.icons, "time"), " ",
      t.turns !== undefined
        ? interpolate(ngettext("Time card: %s turn left", "Time card: %s turns left", t.turns), [t.turns])
        : gettext("Time card running")));
  }

  /** Free actions (build, split with a kept Consent): before the card play, at the top. */
  function renderFree(legal) {
    const free = legal.filter((a) => a.type === "build" || (a.type === "split" && !a.card));
    if (!free.length) return null;
    return h("section", { class: "free-actions", role: "group", "aria-labelledby": "free-title" },
      h("h2", { id: "free-title", class: "free-actions__title" }, icon(ctx.icons, "treasure"), " ", gettext("Before your card play you may:")),
      h("div", { class: "button-row" }, free.map((a) => actionButton(a,
        a.type === "build"
          ? interpolate(gettext("Build a Data-Treasure for %(purpose)s with 6 %(basis)s cards"), { purpose: nameParts(cardName(a.purpose)).label, basis: a.basis === "sensitive" ? gettext("sensitive") : colourName(a.basis) }, true)
          : interpolate(gettext("Split the Data-Treasure for %s with your Consent"), [cardName(a.treasure)]),
        { variant: "button--build" }))),
    );
  }

  function renderMine(view) {
    const p = view.players[mySeat];
    const children = [
      h("h2", { id: "mine-title" }, gettext("Your collection")),
      scoreLine(view, mySeat),
      h("div", { class: "badges" }, statusBadges(p), threatsOn(view, mySeat)),
    ];
    children.push(renderTreasures(p), ...renderLoose(p), ...renderKept(p));
    const reserve = view.reserve || [];
    if (reserve.length) {
      children.push(h("div", { class: "group" }, h("h3", {}, gettext("Kept aside (only you see them)")), cardList(reserve, { size: "small" })));
    }
    if (!p.collection.length && !p.treasures.length && !p.purposes.length && !p.consents.length && !reserve.length) {
      children.push(h("p", { class: "muted" }, gettext("Nothing collected yet.")));
    }
    return h("section", { class: "panel panel--mine", "aria-labelledby": "mine-title" }, ...children);
  }

  function presence(seat) {
    const p = players.find((x) => x.seat === seat);
    if (!p) return null;
    if (p.bot) return h("span", { class: "badge" }, gettext("bot"));
    return h("span", { class: `badge ${p.connected ? "badge--on" : "badge--off"}` }, p.connected ? "● " + gettext("online") : "○ " + gettext("offline"));
  }

  function renderPlayer(view, p) {
    const turn = view.turn === p.seat && !view.over;
    const titleId = `player-${p.seat}-title`;
    return h("section", { class: `panel panel--player ${turn ? "is-turn" : ""}`, "aria-labelledby": titleId, dataset: { seat: p.seat } },
      h("h3", { id: titleId, class: "player__name" }, turn ? h("span", { class: "turn-marker" }, "▶ ", h("span", { class: "visually-hidden" }, gettext("Playing now:")), " ") : null, playerName(p.seat), " ", presence(p.seat)),
      scoreLine(view, p.seat),
      h("p", { class: "player__counts" },
        h("span", { class: "nowrap" }, icon(ctx.icons, "back"), " ", interpolate(ngettext("%s card in hand", "%s cards in hand", p.hand_count), [p.hand_count])),
        p.reserve_count ? h("span", { class: "nowrap" }, "· ", interpolate(ngettext("%s kept aside", "%s kept aside", p.reserve_count), [p.reserve_count])) : null),
      h("div", { class: "badges" }, statusBadges(p), threatsOn(view, p.seat)),
      p.hand ? h("div", { class: "group group--revealed" }, h("h4", {}, icon(ctx.icons, "transparency"), " ", gettext("Open hand (Transparency)")), cardList(p.hand, { size: "small" })) : null,
      // Other players' collections as counts (colours, sensitive cards): short on a phone.
      renderTreasures(p, true), ...renderLoose(p, true), ...renderKept(p, true),
    );
  }

  function renderOthers(view) {
    const others = view.players.filter((p) => p.seat !== mySeat);
    return h("section", { class: "panel panel--others", "aria-labelledby": "others-title" },
      h("h2", { id: "others-title" }, mySeat === null ? gettext("Players") : gettext("Opponents")),
      h("div", { class: "players" }, others.map((p) => renderPlayer(view, p))),
    );
  }

  // --- end screen ----------------------------------------------------------------

  function renderEnd(view) {
    const result = view.result;
    const rows = [];
    result.ranking.forEach((group, index) => {
      for (const seat of group) {
        const s = result.scores.find((x) => x.seat === seat);
        rows.push(h("tr", { class: index === 0 ? "is-winner" : "" },
          h("td", {}, index === 0 ? "★ " : "", String(index + 1)),
          h("th", { scope: "row" }, seat === mySeat ? interpolate(gettext("%s (you)"), [playerName(seat)]) : playerName(seat)),
          h("td", {}, s.treasures), h("td", {}, s.sensitive), h("td", {}, s.datasets)));
      }
    });
    const winners = result.winners.map(playerName).join(", ");
    const iWon = mySeat !== null && result.winners.includes(mySeat);
    return h("section", { class: "panel panel--end", "aria-labelledby": "end-title", tabindex: "-1" },
      h("h2", { id: "end-title" }, gettext("Game over")),
      h("p", { class: "end__winner" }, iWon ? gettext("You win!") : interpolate(ngettext("Winner: %s", "Winners: %s", result.winners.length), [winners])),
      h("p", { class: "end__decided", dataset: { decidedBy: result.decided_by } }, decidedByText(result.decided_by)),
      h("div", { class: "ranking-scroll" }, h("table", { class: "ranking" },
        h("caption", {}, gettext("Final ranking")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, gettext("Rank")), h("th", { scope: "col" }, gettext("Player")),
          h("th", { scope: "col" }, gettext("Treasures")), h("th", { scope: "col" }, gettext("Sensitive")), h("th", { scope: "col" }, gettext("Datasets")))),
        h("tbody", {}, rows))),
    );
  }

  // --- drawing -------------------------------------------------------------------

  function draw() {
    if (!message) return;
    const view = message.view;
    const legal = ctx.isBusy() ? [] : message.legal_actions || [];
    const seated = mySeat !== null;
    const sections = [];
    if (view.over && view.result) sections.push(renderEnd(view));
    if (!view.over) sections.push(renderTurnBar(view));
    if (seated) {
      const prompt = renderPrompt(view, legal);
      if (prompt.length) sections.push(h("section", { class: "prompt", role: "group", "aria-label": gettext("Answer now") }, ...prompt));
      const free = renderFree(legal);
      if (free) sections.push(free);
      if (p(view).transparent_turns) sections.push(h("p", { class: "notice-line" }, icon(ctx.icons, "transparency"), " ", gettext("Transparency: everyone can see your hand.")));
    }
    sections.push(renderTable(view, legal));
    if (seated && !view.over) sections.push(renderHand(view, legal));
    if (seated) sections.push(renderMine(view));
    sections.push(renderOthers(view));
    board.classList.toggle("is-over", Boolean(view.over));
    // If the focused control went away (a move was made), keep focus on the board.
    replaceKeepingFocus(board, sections, () => board.querySelector(".prompt button, [data-key^='hand:'], .panel--end") || board);
  }

  function p(view) {
    return view.players[mySeat];
  }

  // Escape puts a chosen hand card back (and focus on it).
  // (a property, not a listener: a renderer made again after a resync replaces it)
  board.onkeydown = (event) => {
    if (event.key === "Escape" && selected) {
      const id = selected;
      selected = null;
      draw();
      const back = board.querySelector(`[data-key="hand:${CSS.escape(id)}"]`);
      if (back) back.focus();
    }
  };

  return {
    update(next) {
      const wasOver = message && message.view.over;
      message = next;
      draw();
      const view = next.view;
      const mine = mySeat !== null && (next.legal_actions || []).length > 0;
      // A tab in the background (a Chromebook) shows when it is this player's move.
      document.title = (mine ? "▶ " : "") + baseTitle;
      if (view.over && !wasOver) {
        const end = board.querySelector(".panel--end");
        if (end && mySeat !== null) end.focus();
        ctx.announce(gettext("Game over"));
        return;
      }
      const marker = `${view.turn}:${mine}`;
      if (mine && marker !== lastTurnAnnounced) {
        const w = view.window;
        ctx.announce(w && w.seat === mySeat ? gettext("Answer now.") : gettext("Your turn"));
      }
      lastTurnAnnounced = marker;
    },
    setPlayers(next) {
      players = next;
    },
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
  };
}

register("data_tycoon", createDataTycoon);
