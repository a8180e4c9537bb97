/* The board kit: the pieces every game's renderer needs, game-agnostic (docs/ui.md,
 * "The board kit"). A renderer calls `boardKit(board, ctx, options)` once and draws its
 * own zones with the pieces it gets back:
 *
 *   card, cardList     a card from the catalogue, in the page's language
 *   cardEffect         what a card does (the catalogue's `effect`), in plain words
 *   hand               the seat's hand: selectable cards, a tray of the chosen card's plays
 *   actionButtons      one control per legal action (disabled while a move is pending)
 *   prompt             the "answer now" box at the top
 *   turnBar, turnText  whose turn, "Answer now", "Waiting for X to answer", facts
 *   players, statLine  the other seats: name, bot, online/offline, turn, stat lines
 *   endScreen          the winners and the ranking from the state's `result`
 *   renderer(extra)    what client.js calls: update, setPlayers, busy, putBack, deadlineLabel
 *
 * The page shell (client.js) uses two more: `gameLog` (the state's `log` lines) and
 * `drawCountdown` (the deadline). Between two states the kit marks the cards that came
 * into a zone (`is-new`: a short entrance, none with reduced motion), fits long card
 * labels to their card, and tells the shell whose turn it is and the seat's short score
 * (`ctx.summary`, the sticky bar) and what to cue (`ctx.cue`: turn, capture, end).
 * The kit keeps the rules of docs/ui.md: controls come only from `legal_actions` and
 * send them unchanged; every control has a stable
 * `data-key`, so focus survives a redraw; colour is never the only cue. The CSS classes
 * are game.css's (`dt-card…`: the first game's prefix, now the kit's). */

import { h, icon, replaceKeepingFocus } from "./dom.js";

const CARD = "dt-card";

/** Stable string for an action, to compare and to key controls. */
export function actionKey(action) {
  return JSON.stringify(Object.keys(action).sort().map((k) => [k, action[k]]));
}

/** Split a localised card name "Head: label (colour)" into its parts; a card with no
 * colour keeps its brackets in the label ("DPIA (Impact Assessment)"). */
export function nameParts(name, { colour: coloured = true } = {}) {
  const pattern = coloured ? /^(.*?)(?:\s*:\s*(.*?))?(?:\s*\(([^()]*)\))?$/ : /^(.*?)(?:\s*:\s*(.*?))?()$/;
  const match = pattern.exec(name);
  if (!match) return { head: "", label: name, colour: "" };
  const [, first, second, colour] = match;
  return second ? { head: first, label: second, colour: colour || "" } : { head: "", label: first, colour: colour || "" };
}

/** A smaller type for labels with long words, so that narrow cards never cut a word. */
export function labelSize(label) {
  const longest = Math.max(...label.split(/\s+/).map((word) => word.length));
  if (longest >= 14) return `${CARD}__label--xxlong`;
  if (longest >= 12 || label.length > 28) return `${CARD}__label--xlong`;
  if (longest >= 9 || label.length > 18) return `${CARD}__label--long`;
  return "";
}

/* Soft hyphens between a word's syllables (roughly: between two vowels, before a lone
 * consonant, after the first of several: "Fin-ger-prints", "Кон-стан-ти-но-поль-ская"),
 * two letters at least before, three after (two in Russian), for words a narrow box is
 * not wide enough for. A browser that hyphenates the page's language (hyphens: auto,
 * lang) may do better; this is the fallback where it has no dictionary, so that a word
 * never breaks at a random letter. */
const VOWELS = /[aeiouyàâäéèêëîïôöùûüáíóúñаеёиоуыэюяіє]/i;
const NO_BREAK_BEFORE = /[ьъй]/i;
const LETTER = /\p{L}/u;
const DIGRAPHS = new Set(["ch", "ck", "gh", "ph", "sh", "th", "wh"]); // one sound: kept whole

export function syllables(word) {
  const letters = [...word];
  const isVowel = (i) => VOWELS.test(letters[i] || "");
  const isConsonant = (i) => LETTER.test(letters[i] || "") && !isVowel(i);
  const breaks = new Set();
  const tail = /[а-яё]/i.test(word) ? 2 : 3; // "лич-нос-ти", but "sensi-tive"
  for (let start = 1; start < letters.length; start += 1) {
    // a run of consonants between two vowels: letters start..end
    if (!isConsonant(start) || !isVowel(start - 1)) continue;
    let end = start;
    while (isConsonant(end + 1)) end += 1;
    if (!isVowel(end + 1)) continue;
    let at = end > start ? start + 1 : start;
    while (at <= end && NO_BREAK_BEFORE.test(letters[at])) at += 1;
    if (at > end) at = start; // "се-мья": never before the vowel
    if (DIGRAPHS.has((letters[at - 1] + letters[at]).toLowerCase())) at = at > start ? at - 1 : at + 1;
    if (at > end + 1) continue;
    if (at >= 2 && letters.length - at >= tail) breaks.add(at);
  }
  return letters.map((letter, i) => (breaks.has(i) ? "\u00ad" : "") + letter).join("");
}

/** A text whose words longer than `longest` letters (by default 9 letters or more) may
 * break between syllables, with a hyphen: a player's or card's name in a narrow box. */
export function breakable(text, longest = 8) {
  return String(text).split(" ").map((word) => ([...word].length > longest ? syllables(word) : word)).join(" ");
}

/** The legal actions that name a card: as `card`, or in a set of `cards`. */
export function namesCard(legal, id) {
  return legal.filter((a) => a.card === id || (Array.isArray(a.cards) && a.cards.includes(id)));
}

/* Game log: the state's `log` lines (plain language, already translated) appended to
 * the page's log list (in its role="log" box), once per version (a resync repeats the last action's
 * lines), the newest `max` kept and scrolled into view. `reset()` for a new match. */
export function gameLog(list, max = 60, latest = null) {
  let version = null;
  function add(lines) {
    if (!lines || !lines.length) return;
    for (const line of lines) list.append(h("li", {}, line));
    // the newest line, shown in the summary of a collapsed log (a phone)
    if (latest) latest.textContent = lines[lines.length - 1];
    while (list.children.length > max) list.firstElementChild.remove();
    list.parentElement.scrollTop = list.parentElement.scrollHeight;
  }
  return {
    add,
    reset() {
      version = null;
    },
    take(message) {
      if (version === null || message.version > version) add(message.log);
      version = message.version;
    },
  };
}

/* Countdown: draw a deadline into the page's role="timer" element: the sprite's clock,
 * the renderer's label ("Time to answer"), the seconds left (m:ss from a minute up) and
 * a bar; in the last 5 seconds a dashed border as well as the colour. Redrawn twice a
 * second, it changes only its texts and the bar (the icon stays: no flicker). */
const countdownParts = new WeakMap();

export function drawCountdown(el, { left, total, label, icons }) {
  let parts = countdownParts.get(el);
  if (!parts || parts.bar.parentNode !== el) {
    parts = {
      label: h("span", { class: "countdown__label" }),
      time: h("span", { class: "countdown__time" }),
      bar: h("span", { class: "countdown__bar", "aria-hidden": "true" }),
    };
    el.replaceChildren(icon(icons, "time"), parts.label, parts.time, parts.bar);
    countdownParts.set(el, parts);
  }
  el.hidden = false;
  el.classList.toggle("countdown--low", left <= 5);
  parts.label.textContent = label;
  parts.time.textContent = left >= 60
    ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` // a Time card: 10:00
    : interpolate(ngettext("%s second", "%s seconds", left), [left]);
  parts.bar.style.setProperty("--left", String(Math.min(1, left / total)));
}

/**
 * Return the kit for one board. `options` (all optional but `draw`):
 *   draw(view, legal, message) → the board's sections (legal is [] while busy or paused)
 *   look(entry) → {icon, shape, classes}: a card's sprite symbol (default: its kind), a
 *       shape drawn beside it (the colour's cue), extra classes
 *   hand: {actionsFor(legal, id) (default: namesCard), trayActions(acts),
 *       trayLabel(action), trayVariant(action), trayHint(acts), chosen(id, acts),
 *       badge(id), notNow(id) (why a card with no play cannot be played now, or null)}
 *   yourTurn(view) → what to announce when the seat gets a move (default "Your turn")
 *   focusFallback: where focus goes when the focused control went away
 *   score(view, seat) → a short score ("2 treasures · 14 cards"): the seat's own in the
 *       sticky bar, the others' in the opponents strip
 *   cardsInHand(view, seat) → how many cards a seat holds (the opponents strip)
 */
export function boardKit(board, ctx, options) {
  const mySeat = ctx.seat;
  const lang = ctx.language;
  const look = options.look || ((c) => ({ icon: c.kind }));
  const handOptions = { actionsFor: namesCard, trayActions: (acts) => acts, trayLabel: (a) => a.type, ...(options.hand || {}) };
  const baseTitle = document.title.replace(/^▶ /, "");
  let players = ctx.players;
  let message = null;
  let selected = null; // the hand card whose plays are shown
  let lastTurnAnnounced = null;
  let lastPrompt = null; // the legal actions of the answer box last seen, to see a new one
  let pending = false; // a move was sent and the server has not answered yet
  let pendingMarked = [];
  let lastTurn = null; // the turn bar's line of the last draw, for the sticky bar
  let zones = null; // the cards of each zone at the last state, to see what came in
  const openSeats = new Set(); // opponents whose details this player opened
  const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

  // --- names -----------------------------------------------------------------------

  /** The catalogue entry of a card id (an unknown id draws as an "unknown" card). */
  function entry(id) {
    return ctx.catalogue[id] || { id, kind: "unknown", name: { en: id } };
  }

  function cardName(id) {
    const c = entry(id);
    return c.name[lang] || c.name.en || id;
  }

  /** A catalogue text given in every language ({en, es, fr, ru}), in the page's. */
  function inLanguage(texts) {
    return texts ? texts[lang] || texts.en || "" : "";
  }

  function playerName(seat) {
    const p = players.find((x) => x.seat === seat);
    return p && p.name ? p.name : interpolate(gettext("Player %s"), [seat + 1]);
  }

  /** A player's name in a narrow box ("(you)" after one's own): a long name wraps
   * between syllables with a hyphen (the page's language), never at a random letter. */
  function nameOf(seat, you = false) {
    const name = you ? interpolate(gettext("%s (you)"), [playerName(seat)]) : playerName(seat);
    return h("span", { class: "player-name", lang }, breakable(name));
  }

  // --- acting ----------------------------------------------------------------------

  /** Send a legal action unchanged; a chosen hand card is put back once it is sent. */
  function act(action) {
    if (pending) return false;
    const sent = ctx.act(action);
    if (sent) selected = null;
    return sent;
  }

  /* Action buttons: one control per legal action, never two (the same action listed
   * twice gets one button). `label(action)` is the game's wording; `opts` (or
   * opts(action)): big (a huge button), variant (a button-- class), describedBy (an id).
   * While a move is pending (client.js's busy) every control says aria-disabled. */
  function actionButton(action, label, { big = false, variant = "", describedBy = null } = {}) {
    return h(
      "button",
      {
        type: "button",
        class: ["button", big ? "button--huge" : "", variant].filter(Boolean).join(" "),
        dataset: { action: JSON.stringify(action), key: actionKey(action) },
        "aria-describedby": describedBy,
        onclick: () => act(action),
      },
      label,
    );
  }

  function actionButtons(actions, label, opts = {}) {
    const seen = new Set();
    return actions
      .filter((a) => !seen.has(actionKey(a)) && seen.add(actionKey(a)))
      .map((a) => actionButton(a, label(a), typeof opts === "function" ? opts(a) : opts));
  }

  function busy(on) {
    pending = on;
    for (const node of pendingMarked) node.removeAttribute("aria-disabled");
    pendingMarked = [];
    if (!on) return;
    for (const node of board.querySelectorAll("button:not([aria-disabled])")) {
      node.setAttribute("aria-disabled", "true");
      pendingMarked.push(node);
    }
  }

  // --- cards -----------------------------------------------------------------------

  /* Card: an `li` for a card id, in a `cardList`. Its face: the sprite icon and the
   * shape of `look(entry)`, the name in the page's language ("Head: label (colour)"
   * in three lines, a smaller type for long words), an optional badge (a node, or
   * badge(id)). Sizes: normal, small, mini (a one-line chip). With `action` (or
   * `onClick`) it is a button: `label` is its accessible name (default: the card's
   * name), `key` its data-key (default: the action's), `selected` true/false makes it a
   * toggle (aria-pressed, lifted, ✓), `highlight` a target (dashed outline: say why in a
   * badge), `disabled` shown but not usable now (aria-disabled). With `info` (a function)
   * it is a toggle that only opens the card's effect: role="button", never a <button>
   * element, so that a page's buttons stay exactly its legal plays. */
  function card(id, { size = "normal", badge = null, action = null, onClick = null, key = null, label = null, selected: pressed, highlight = false, disabled = false, info = null, describedBy = null } = {}) {
    const c = entry(id);
    const parts = nameParts(cardName(id), { colour: Boolean(c.colour) });
    const looks = look(c) || {};
    const cls = [CARD, `${CARD}--${c.kind}`, `${CARD}--${size}`, ...(looks.classes || [])].filter(Boolean);
    const children = [
      h("span", { class: `${CARD}__top`, "aria-hidden": "true" },
        icon(ctx.icons, looks.icon || c.kind, `${CARD}__icon`),
        looks.shape ? h("span", { class: `${CARD}__shape` }, looks.shape) : null),
      // lang: a long word hyphenates by the card's language, never breaks at random
      h("span", { class: `${CARD}__name`, lang },
        parts.head ? h("span", { class: `${CARD}__head` }, parts.head) : null,
        h("span", { class: `${CARD}__label ${labelSize(parts.label)}`.trim() }, parts.label),
        parts.colour ? h("span", { class: `${CARD}__colour` }, parts.colour) : null),
      typeof badge === "function" ? badge(id) : badge,
    ];
    if (info) {
      cls.push(`${CARD}--info`);
      if (pressed) cls.push("is-selected");
      // Named by the card alone: a badge ("call DATA!") describes it, so that the
      // toggle's name never contains a real control's ("DATA!").
      const badgeNode = children[2];
      const badgeId = badgeNode instanceof Element ? `badge-${id}` : null;
      if (badgeId) badgeNode.id = badgeId;
      const toggle = h("div", {
        role: "button",
        tabindex: "0",
        class: cls.join(" "),
        "aria-pressed": String(Boolean(pressed)),
        "aria-label": label || cardName(id),
        "aria-describedby": [describedBy, badgeId].filter(Boolean).join(" ") || null,
        dataset: { card: id, key: key || `info:${id}` },
        onclick: info,
        onkeydown: (event) => {
          if (event.key !== "Enter" && event.key !== " ") return;
          event.preventDefault();
          info();
        },
      }, ...children);
      return h("li", { class: `${CARD}-slot` }, toggle);
    }
    if (!action && !onClick && !disabled) return h("li", { class: cls.join(" "), dataset: { card: id } }, ...children);
    cls.push(`${CARD}--button`);
    if (highlight) cls.push("is-target");
    if (pressed) cls.push("is-selected");
    const dataset = { card: id };
    if (action) dataset.action = JSON.stringify(action);
    if (key || action) dataset.key = key || actionKey(action);
    const button = h("button", {
      type: "button",
      class: cls.join(" "),
      "aria-pressed": pressed === undefined ? null : String(Boolean(pressed)),
      "aria-label": label,
      "aria-disabled": disabled ? "true" : null,
      "aria-describedby": describedBy,
      dataset,
      onclick: () => {
        if (disabled || pending) return;
        if (onClick) onClick();
        else act(action);
      },
    }, ...children);
    return h("li", { class: `${CARD}-slot` }, button);
  }

  /** What a card does, in plain words (its catalogue `effect`), or null if it says nothing. */
  function cardEffect(id, { id: nodeId = null } = {}) {
    const text = inLanguage(entry(id).effect);
    return text ? h("p", { class: "card-effect", id: nodeId, dataset: { effectOf: id } }, text) : null;
  }

  /** A list of cards: `opts` for every card, or opts(id) for each; `modifier` names the
   * list (dt-cards--table, --hand, --choice), `label` its aria-label. */
  function cardList(ids, opts = {}, { label = null, modifier = null } = {}) {
    return h("ul", { class: modifier ? `dt-cards dt-cards--${modifier}` : "dt-cards", role: "list", "aria-label": label },
      ids.map((id) => card(id, typeof opts === "function" ? opts(id) : opts)));
  }

  // --- the hand --------------------------------------------------------------------

  /* Hand: the seat's own cards ("Your hand"). A card some legal action names
   * (hand.actionsFor) is a toggle button keyed `hand:<id>`; choosing it shows its tray:
   * "What do you do with X?", what the card does (cardEffect), the game's hint, one
   * button per trayActions(acts) (trayLabel, trayVariant) and "Choose another card".
   * Focus then goes to the first highlighted card on the board (a target the choice made
   * playable, e.g. a capture), else into the tray; Escape or "Choose another card" puts
   * the card back. A card with no legal play but an effect is a toggle keyed `info:<id>`
   * (role="button", not a <button>): its tray says what it does and that it cannot be
   * played now, with no action; focus stays on the card, which the effect describes. */
  function hand(ids, legal, overrides = {}) {
    const o = { ...handOptions, ...overrides };
    if (selected && !ids.includes(selected)) selected = null;
    const items = ids.map((id) => {
      const badge = o.badge ? o.badge(id) : null;
      const describedBy = selected === id && entry(id).effect ? "tray-effect" : null;
      if (!o.actionsFor(legal, id).length) {
        return entry(id).effect ? card(id, { badge, selected: selected === id, info: () => choose(id), describedBy }) : card(id, { badge });
      }
      return card(id, { badge, key: `hand:${id}`, selected: selected === id, onClick: () => choose(id), describedBy });
    });
    const children = [
      h("h2", { id: "hand-title" }, gettext("Your hand")),
      ids.length
        // a phone's dock scrolls the row sideways: focusable when no card in it is a control
        ? h("ul", { class: "dt-cards dt-cards--hand", role: "list", "aria-label": gettext("Your hand"), tabindex: items.some((li) => li.querySelector("button")) ? null : "0" }, items)
        : h("p", { class: "muted" }, gettext("Your hand is empty.")),
    ];
    const cancel = () => h("button", { type: "button", class: "button button--small button--secondary", dataset: { key: "tray:cancel" }, onclick: () => choose(null) }, gettext("Choose another card"));
    const acts = selected ? o.actionsFor(legal, selected) : [];
    if (selected && !acts.length) {
      children.push(
        h("div", { class: "tray tray--info", role: "group", "aria-label": cardName(selected) },
          h("p", { class: "tray__title" }, cardName(selected)),
          cardEffect(selected, { id: "tray-effect" }),
          h("p", { class: "tray__hint tray__not-now" }, (o.notNow && o.notNow(selected)) || gettext("You cannot play this card now.")),
          cancel(),
        ),
      );
    } else if (selected) {
      children.push(
        h("div", { class: "tray", role: "group", "aria-label": interpolate(gettext("What to do with %s"), [cardName(selected)]) },
          h("p", { class: "tray__title" }, interpolate(gettext("What do you do with %s?"), [cardName(selected)])),
          cardEffect(selected, { id: "tray-effect" }),
          o.trayHint ? o.trayHint(acts) : null,
          h("div", { class: "button-row" }, actionButtons(o.trayActions(acts), o.trayLabel, (a) => ({ variant: o.trayVariant ? o.trayVariant(a) : "" }))),
          cancel(),
        ),
      );
    } else if (ids.some((id) => o.actionsFor(legal, id).length)) {
      children.push(h("p", { class: "muted tray__hint" }, gettext("Choose a card from your hand to see what it can do.")));
    } else if (ids.some((id) => entry(id).effect)) {
      children.push(h("p", { class: "muted tray__hint" }, gettext("Tap a card to read what it does.")));
    }
    return h("section", { class: "panel panel--hand", "aria-labelledby": "hand-title" }, ...children);
  }

  /** The hand card toggle of `id`: a play (`hand:`) or, with no play, its effect (`info:`). */
  function handToggle(id) {
    return board.querySelector(`[data-key="hand:${CSS.escape(id)}"], [data-key="info:${CSS.escape(id)}"]`);
  }

  /* On a phone the hand is a dock that grows with the chosen card's tray: an answer box
   * (its timer running) that it would cover is scrolled up until its answers, at its
   * foot, are clear of the dock; a box too tall for the room left then slides its top
   * under the sticky bar (the bar keeps the timer). Once the dock is measured (client.js,
   * the next frame). A box that has just come (`arriving`) and lies above the screen is
   * scrolled down to, under the bar: a student asked to answer sees the answers. */
  function keepPromptClear({ arriving = false } = {}) {
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const box = board.querySelector(".prompt");
      const dock = board.querySelector(".panel--hand");
      if (!box || !dock || getComputedStyle(dock).position !== "fixed") return;
      const place = box.getBoundingClientRect();
      const under = place.bottom + 8 - dock.getBoundingClientRect().top;
      if (under > 0) {
        window.scrollBy(0, under);
        return;
      }
      const bar = document.querySelector('[data-slot="bar"]');
      const above = (bar ? bar.getBoundingClientRect().bottom : 0) + 8 - place.top;
      if (arriving && above > 0) window.scrollBy(0, -above);
    }));
  }

  function choose(id) {
    selected = selected === id ? null : id;
    redraw();
    if (selected) keepPromptClear();
    if (!selected) {
      const back = board.querySelector('[data-key^="hand:"], [data-key^="info:"]');
      if (back) back.focus();
      return;
    }
    const acts = handOptions.actionsFor(message.legal_actions || [], id);
    if (!acts.length) {
      // Only read: focus stays on the card, which its effect now describes.
      const own = handToggle(id);
      if (own) own.focus();
      return;
    }
    const target = board.querySelector("button.is-target") || board.querySelector(".tray button");
    if (target) target.focus();
    if (handOptions.chosen) handOptions.chosen(id, acts);
  }

  // Escape puts a chosen hand card back (and focus on it).
  // (a property, not a listener: a renderer made again after a resync replaces it)
  board.onkeydown = (event) => {
    if (event.key === "Escape" && selected) {
      const id = selected;
      selected = null;
      redraw();
      const back = handToggle(id);
      if (back) back.focus();
    }
  };

  // --- the top of the board ----------------------------------------------------------

  /* Prompt: the "answer now" box (a call, a counter, a choice the rules force), drawn
   * first under the turn bar; null when there is nothing to answer. */
  function prompt(items) {
    return items.length ? h("section", { class: "prompt", role: "group", "aria-label": gettext("Answer now") }, ...items) : null;
  }

  /* Turn line: "Game over", "Answer now" (this seat must answer, `answering`), "Waiting
   * for X to answer.", "Your turn" or "X's turn". */
  function turnText({ over = false, turn = null, answering = null } = {}) {
    if (over) return gettext("Game over");
    if (answering !== null && answering !== undefined) {
      return answering === mySeat ? gettext("Answer now") : interpolate(gettext("Waiting for %s to answer."), [playerName(answering)]);
    }
    if (turn === mySeat) return gettext("Your turn");
    return interpolate(gettext("%s's turn"), [playerName(turn)]);
  }

  /* Turn bar: the turn line (▶ and green when it is this seat's) and the game's facts,
   * each {icon, label, value, name} (name: data-fact, for tests); a null fact is left out. */
  function turnBar(text, mine, facts = []) {
    lastTurn = { text, mine };
    return h("section", { class: "turnbar", "aria-label": gettext("Game status") },
      h("h2", { class: mine ? "turnbar__turn is-mine" : "turnbar__turn" }, text),
      h("dl", { class: "turnbar__facts" }, facts.filter(Boolean).map((f) => h("div", {},
        h("dt", {}, f.icon ? icon(ctx.icons, f.icon) : null, f.label),
        h("dd", { "data-fact": f.name }, f.value)))),
    );
  }

  // --- players ---------------------------------------------------------------------

  /** A seat's presence: "bot", "● online" or "○ offline" (a symbol and a word). */
  function presence(seat) {
    const p = players.find((x) => x.seat === seat);
    if (!p) return null;
    if (p.bot) return h("span", { class: "badge" }, gettext("bot"));
    return h("span", { class: `badge ${p.connected ? "badge--on" : "badge--off"}` }, p.connected ? "● " + gettext("online") : "○ " + gettext("offline"));
  }

  /** A stat line the game supplies, its parts joined by " · ". */
  function statLine(parts) {
    return h("p", { class: "scoreline" }, parts.flatMap((part, i) => (i ? [" · ", part] : [part])));
  }

  /* Player panels: one per seat but this page's own: the name, "▶ Playing now:" on the
   * seat whose turn it is (and a green border), its presence, then the game's lines
   * (lines(seat): stat lines, counts, badges, open cards…). Titled "Opponents" on a
   * seat, "Players" on the projector. On a seat they are a compact strip: one line per
   * opponent (turn, name, presence, short(seat) or the game's score, cards in hand),
   * the lines one tap away in a <details> that stays open across redraws. */
  function playerPanels(seats, { isTurn = () => false, lines = () => [], short = null } = {}) {
    const view = message ? message.view : null;
    const strip = mySeat !== null;
    const panels = seats.filter((seat) => seat !== mySeat).map((seat) => {
      const turn = isTurn(seat);
      const titleId = `player-${seat}-title`;
      const title = h("h3", { id: titleId, class: "player__name" },
        turn ? h("span", { class: "turn-marker" }, "▶ ", h("span", { class: "visually-hidden" }, gettext("Playing now:")), " ") : null,
        nameOf(seat), " ", presence(seat));
      const attrs = { class: turn ? "panel panel--player is-turn" : "panel panel--player", "aria-labelledby": titleId, dataset: { seat } };
      if (!strip) return h("section", attrs, title, ...lines(seat));
      const score = short ? short(seat) : view && options.score ? options.score(view, seat) : null;
      const held = view && options.cardsInHand ? options.cardsInHand(view, seat) : null;
      // cards in hand: the card back and the number, the words for screen readers (short on a phone)
      const hand = held === null || held === undefined ? null : h("span", { class: "player__held" },
        icon(ctx.icons, "back"), h("span", { "aria-hidden": "true" }, String(held)),
        h("span", { class: "visually-hidden" }, interpolate(ngettext("%s card in hand", "%s cards in hand", held), [held])));
      const details = h("details", { class: "player", open: openSeats.has(seat), ontoggle: (event) => (event.currentTarget.open ? openSeats.add(seat) : openSeats.delete(seat)) },
        h("summary", { class: "player__summary" }, title, score || hand ? h("span", { class: "player__short" }, score, score && hand ? " · " : null, hand) : null),
        h("div", { class: "player__details" }, ...lines(seat)));
      return h("section", attrs, details);
    });
    return h("section", { class: strip ? "panel panel--others panel--strip" : "panel panel--others", "aria-labelledby": "others-title" },
      h("h2", { id: "others-title" }, mySeat === null ? gettext("Players") : gettext("Opponents")),
      h("div", { class: strip ? "players players--strip" : "players" }, panels));
  }

  // --- the end ---------------------------------------------------------------------

  /* End screen: from the state's `result` ({winners, ranking: [[seats]…], scores:
   * [{seat…}], decided_by}): "You win!" or the winners' names, the game's sentence for
   * the tie-break (`decided`), and the ranking table (rank, ★ for the first, the player,
   * "(you)", then the game's `columns`: {label, key} or {label, value(score)}). */
  function endScreen(result, { columns = [], decided = null } = {}) {
    const rows = [];
    result.ranking.forEach((group, index) => {
      for (const seat of group) {
        const s = (result.scores || []).find((x) => x.seat === seat) || {};
        rows.push(h("tr", { class: index === 0 ? "is-winner" : "" },
          h("td", {}, index === 0 ? "★ " : "", String(index + 1)),
          h("th", { scope: "row" }, nameOf(seat, seat === mySeat)),
          // data-label: a phone shows each number with its column's name (game.css)
          columns.map((c) => h("td", { dataset: { label: c.label } }, c.value ? c.value(s) : s[c.key]))));
      }
    });
    const winners = result.winners.map(playerName).join(", ");
    const iWon = mySeat !== null && result.winners.includes(mySeat);
    return h("section", { class: "panel panel--end", "aria-labelledby": "end-title", tabindex: "-1", lang },
      h("h2", { id: "end-title" }, gettext("Game over")),
      h("p", { class: "end__winner" }, iWon ? gettext("You win!") : interpolate(ngettext("Winner: %s", "Winners: %s", result.winners.length), [winners])),
      result.decided_by === undefined ? null : h("p", { class: "end__decided", dataset: { decidedBy: result.decided_by } }, decided || ""),
      // a region one can scroll by keyboard too, when a narrow phone scrolls it sideways
      h("div", { class: "ranking-scroll", role: "region", tabindex: "0", "aria-label": gettext("Final ranking") }, h("table", { class: "ranking" },
        h("caption", {}, gettext("Final ranking")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, gettext("Rank")), h("th", { scope: "col" }, gettext("Player")),
          columns.map((c) => h("th", { scope: "col" }, c.label)))),
        h("tbody", {}, rows))),
    );
  }

  // --- drawing and the renderer ------------------------------------------------------

  /* What came in since the last state: each card's zone is its closest section (the
   * table, the hand, a collection, a player); a card now in a zone it was not in gets
   * `is-new` (game.css: a short entrance, nothing with reduced motion). A card that left
   * the table was taken (captured or used): the "taken" cue. */
  function zonesOf() {
    const found = new Map();
    for (const node of board.querySelectorAll("[data-card]")) {
      const zone = node.closest("section, .prompt, .board");
      const key = zone ? zone.getAttribute("aria-labelledby") || zone.className : "";
      if (!found.has(key)) found.set(key, new Set());
      found.get(key).add(node.dataset.card);
    }
    return found;
  }

  function markNew(before) {
    const now = zonesOf();
    if (before) {
      const table = before.get("table-title") || new Set();
      const still = now.get("table-title") || new Set();
      if ([...table].some((id) => !still.has(id))) cue("taken");
      if (!reducedMotion.matches) {
        for (const node of board.querySelectorAll("[data-card]")) {
          const zone = node.closest("section, .prompt, .board");
          const key = zone ? zone.getAttribute("aria-labelledby") || zone.className : "";
          const had = before.get(key); // a zone that had no card (an empty collection) had none of these
          if (!had || !had.has(node.dataset.card)) node.classList.add("is-new");
        }
      }
    }
    zones = now;
  }

  /* A card name whose longest word is wider than its card gets a smaller type, down to
   * 12 px (labelSize guesses from the letters; this measures). A word still too wide
   * (Russian has a few) gets soft hyphens between its syllables, so that it breaks there
   * with a hyphen, never at a random letter; the browser's own hyphenation (lang) first
   * where it has the language's rules. */
  function fitLabels() {
    for (const label of board.querySelectorAll(`.${CARD}:not(.${CARD}--mini) :is(.${CARD}__label, .${CARD}__head)`)) {
      if (!label.clientWidth || label.scrollWidth <= label.clientWidth + 1) continue;
      let size = parseFloat(getComputedStyle(label).fontSize);
      while (size > 12 && label.scrollWidth > label.clientWidth + 1) {
        size = Math.max(12, size - 1);
        label.style.fontSize = `${size}px`;
      }
      if (label.scrollWidth <= label.clientWidth + 1) continue;
      // every long word: the line may break at another word than the longest
      label.textContent = label.textContent.split(/(\s+)/).map((word) => (word.length > 6 ? syllables(word) : word)).join("");
      if (label.scrollWidth > label.clientWidth + 1) label.classList.add(`${CARD}__label--break`);
    }
  }

  function cue(kind) {
    if (ctx.cue) ctx.cue(kind);
  }

  function redraw(fresh = false) {
    if (!message) return;
    const legal = ctx.isBusy() ? [] : message.legal_actions || [];
    // A chosen card stays chosen while it has a play, or an effect to read.
    if (selected && !handOptions.actionsFor(legal, selected).length && !entry(selected).effect) selected = null;
    lastTurn = null;
    const sections = options.draw(message.view, legal, message).filter(Boolean);
    board.classList.toggle("is-over", Boolean(message.view.over));
    // If the focused control went away (a move was made), keep focus on the board.
    const fallback = options.focusFallback || "[data-action], [data-key^='hand:'], .panel--end";
    replaceKeepingFocus(board, sections, () => board.querySelector(fallback) || board);
    if (fresh) markNew(zones);
    fitLabels();
    if (ctx.summary) {
      const view = message.view;
      ctx.summary({
        turn: lastTurn ? lastTurn.text : turnText({ over: view.over, turn: view.turn }),
        mine: Boolean(lastTurn && lastTurn.mine && !view.over),
        score: mySeat !== null && options.score ? options.score(view, mySeat) : null,
      });
    }
  }

  /* The renderer client.js expects (registry.js): update(message) draws the state; the
   * page title gets ▶ while the seat has a move; "Your turn" (or yourTurn(view)) is
   * announced once per turn, "Game over" once, with focus on the end screen. */
  function renderer(extra = {}) {
    return {
      update(next) {
        const wasOver = message && message.view.over;
        const first = !message;
        message = next;
        if (first) zones = null;
        redraw(!first);
        if (first) zones = zonesOf();
        const view = next.view;
        const mine = mySeat !== null && (next.legal_actions || []).length > 0;
        // a new answer box (a window opened for this seat) is brought into sight once
        const asked = mine && board.querySelector(".prompt button") ? next.legal_actions.map(actionKey).join("|") : null;
        if (asked && asked !== lastPrompt) keepPromptClear({ arriving: true });
        lastPrompt = asked;
        // A tab in the background (a Chromebook) shows when it is this player's move.
        document.title = (mine ? "▶ " : "") + baseTitle;
        if (view.over && !wasOver) {
          const end = board.querySelector(".panel--end");
          // the end's entrance once (a redraw of the same end does not replay it)
          if (end && !first && !reducedMotion.matches) end.classList.add("is-new");
          if (!first) cue("end");
          if (end && mySeat !== null) end.focus();
          ctx.announce(gettext("Game over"));
          return;
        }
        const marker = `${view.turn}:${mine}`;
        if (mine && marker !== lastTurnAnnounced) {
          ctx.announce(options.yourTurn ? options.yourTurn(view) : gettext("Your turn"));
          cue("turn");
        }
        lastTurnAnnounced = marker;
      },
      setPlayers(next) {
        players = next;
      },
      /** Put a chosen hand card back, its tray closed, at the next draw (client.js: the
       * teacher ended the session). */
      putBack() {
        selected = null;
      },
      busy,
      deadlineLabel: () => gettext("Time left"),
      ...extra,
    };
  }

  return {
    seat: mySeat,
    icon: (name, extraClass) => icon(ctx.icons, name, extraClass),
    entry, cardName, inLanguage, playerName, nameOf, act, actionButton, actionButtons,
    card, cardList, cardEffect, hand, selected: () => selected,
    prompt, turnText, turnBar, presence, statLine, players: playerPanels, endScreen,
    redraw, renderer,
  };
}
