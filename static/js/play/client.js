/* The table protocol client (docs/protocol.md) and the page shell around a game board.
 *
 * TableConnection speaks the protocol: it connects, reconnects with backoff and asks for
 * a `resync`, notices version gaps, sends `act` with the version it saw, and measures the
 * clock offset from `server_time`. `boot(root)` wires it to the page: status line,
 * notices (paused, removed, ended), the error region, the countdown and the game log
 * (drawn by kit.js's drawCountdown and gameLog) and the board, which the renderer
 * registered for the table's game draws (told when a move is pending); the GDPR lesson
 * cards (`lesson`, `lesson_dismissed`, a state's `lesson_pause`) and, once the game is
 * over, the invitation to the quiz. The sticky bar at the top shows whose turn it is and
 * the seat's score (the kit's `summary`), the "Sound" toggle (sound.js) and the "?";
 * on a phone the hand is a dock at the bottom of the screen and the log is collapsed
 * (docs/ui.md, "Phone first").
 *
 * UI strings come from Django's JavaScript catalog (`gettext`, `ngettext`, `interpolate`
 * are globals defined by /jsi18n/). */

import { h } from "./dom.js";
import { drawCountdown, gameLog } from "./kit.js";
import { rendererFor } from "./registry.js";
import { boardSound } from "./sound.js";

/** From this width up (a tablet in landscape, a laptop, the projector) the log is open. */
const WIDE = "(min-width: 62rem)";

/** Close codes after which reconnecting is pointless (ended, removed, refused, unknown). */
const FINAL_CLOSE_CODES = new Set([4000, 4001, 4403, 4429]);
/** The longest wait between attempts: once the server is back, every device of the class
 * is back within this (the jitter spreads their reconnections). */
const MAX_BACKOFF_MS = 5000;
/** How long a sent move waits for the server's answer (a state or an error) before the
 * page says so and reconnects: a socket can die without a close event for a while. */
export const ANSWER_TIMEOUT_MS = 8000;
/** After this many reconnect attempts in a row, the page says the server is unreachable. */
const UNREACHABLE_AFTER = 2;
/** The smallest scale of the players' panels on the classroom screen (their names keep
 * their size): below it the words no longer read from the back of the room, and the
 * board's box scrolls instead. */
const PROJECTOR_FIT_MIN = 0.7;

/** Return a server time (ISO string, epoch seconds or epoch milliseconds) in epoch ms. */
export function serverTimeMs(value) {
  if (typeof value === "number") return value < 1e12 ? value * 1000 : value;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

/** Return the delay before reconnect attempt `attempt` (0, 1, …): exponential, jittered. */
export function backoffMs(attempt, random = Math.random) {
  const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt);
  return Math.round(base * (0.75 + random() * 0.5));
}

/** The page's socket counts, for tests and support: `window.dpSockets` (shared with
 * static/js/ws_counter.js on the htmx pages). `opened` counts sockets that opened,
 * `reconnects` the attempts after the first, `lastClose` the last close's code. */
export function socketStats(scope = globalThis) {
  if (!scope.dpSockets) scope.dpSockets = { opened: 0, reconnects: 0, lastClose: null };
  return scope.dpSockets;
}

export class TableConnection {
  /** handlers: {hello, state, error, notice, status} — each optional. */
  constructor(url, handlers, WebSocketImpl = window.WebSocket) {
    this.url = url;
    this.handlers = handlers;
    this.WebSocketImpl = WebSocketImpl;
    this.version = null;
    this.offsetMs = 0;
    this.attempt = 0;
    this.started = false;
    this.opened = false;
    this.greeted = false;
    this.stopped = false;
    this.socket = null;
    this.retryTimer = null;
    this.stats = socketStats();
  }

  emit(name, ...args) {
    const handler = this.handlers[name];
    if (handler) handler(...args);
  }

  connect() {
    clearTimeout(this.retryTimer);
    if (this.started) this.stats.reconnects += 1;
    this.started = true;
    const socket = new this.WebSocketImpl(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      const reconnected = this.opened;
      this.opened = true;
      this.greeted = false;
      this.stats.opened += 1;
      // Not "open" yet: a server whose Redis or database is away accepts the socket and
      // then cannot greet it; the page says connected only once it is greeted.
      if (reconnected) this.emit("status", "reconnecting", 0, this.attempt);
      this.send({ type: "ping" });
      // The server greets every new socket; after a drop we also ask for the full state.
      if (reconnected) this.send({ type: "resync" });
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message && typeof message.type === "string") this.receive(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.stats.lastClose = { code: event.code, reason: event.reason, at: Date.now() };
      this.socket = null;
      if (this.stopped || FINAL_CLOSE_CODES.has(event.code)) {
        this.emit("status", "closed", event.code);
        return;
      }
      const delay = backoffMs(this.attempt);
      this.attempt += 1;
      this.emit("status", "reconnecting", delay, this.attempt);
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  /** Drop the socket as if the network had (a dead socket often sends no close for
   * a long while); the usual backoff reconnects and resyncs. */
  drop() {
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    this.stats.lastClose = { code: 4999, reason: "no answer", at: Date.now() };
    socket.close();
    this.attempt += 1;
    this.emit("status", "reconnecting", 0, this.attempt);
    this.retryTimer = setTimeout(() => this.connect(), 0);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close();
  }

  /** The server is closing this socket for good (after `ended`): let it, and never
   * reconnect, whatever the close code the network brings. */
  end() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== 1) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Send one of the legal actions, unchanged, with the version it was legal in. */
  act(action) {
    return this.send({ type: "act", version: this.version, action });
  }

  resync() {
    return this.send({ type: "resync" });
  }

  /** The server's clock now, in epoch ms, as measured from `server_time`. */
  now() {
    return Date.now() + this.offsetMs;
  }

  receive(message) {
    if (message.server_time !== undefined && message.server_time !== null) {
      const server = serverTimeMs(message.server_time);
      if (server !== null) this.offsetMs = server - Date.now();
    }
    // The server greets every new socket with hello (a seat at a table) or waiting, or
    // says that the table's game cannot go on (an answer too: no reconnection helps).
    const greeting =
      message.type === "hello" || message.type === "waiting" || message.code === "cannot_go_on";
    if (!this.greeted && greeting) {
      this.greeted = true;
      this.emit("status", "open");
    }
    switch (message.type) {
      case "hello":
        // The server greeted the socket: it works, so the backoff starts over. (Not on
        // open: a server that accepts and then closes with 1013 while Redis is down
        // would be retried every half second by every device in the room.)
        this.attempt = 0;
        this.version = null; // a (new) table: take whatever version comes next
        this.emit("hello", message);
        break;
      case "state": {
        if (this.version !== null && message.version < this.version) return; // overtaken
        const gap = this.version !== null && message.version > this.version + 1;
        this.version = message.version;
        // Every state is a full view, so a skipped version needs no resync (which
        // would resend the whole card catalogue over the classroom's Wi-Fi).
        this.emit("state", message, { gap });
        break;
      }
      case "error":
        this.emit("error", message);
        break;
      case "pong":
        break;
      default:
        this.emit("notice", message);
    }
  }
}

/** Return the WebSocket URL for a path on this page's host. */
export function socketUrl(path, loc = window.location) {
  return `${loc.protocol === "https:" ? "wss:" : "ws:"}//${loc.host}${path}`;
}

/** Start the client on `root` (the element carrying data-ws-path, data-role, …). */
export function boot(root, WebSocketImpl = window.WebSocket) {
  const slot = (name) => root.querySelector(`[data-slot="${name}"]`);
  const els = {
    status: slot("status"),
    notice: slot("notice"),
    errors: slot("errors"),
    countdown: slot("countdown"),
    board: slot("board"),
    log: slot("log"),
    announcer: slot("announcer"),
    lesson: slot("lesson"),
    quiz: slot("quiz"),
    bar: slot("bar"),
    turn: slot("turn"),
    score: slot("score"),
    sound: slot("sound"),
    logBox: slot("log-box"),
    logLatest: slot("log-latest"),
  };
  const role = root.dataset.role || "seat";
  const shell = {
    hello: null,
    catalogue: {}, // {card id: card}, from the socket's first hello
    renderer: null,
    last: null,
    deadline: null,
    busy: false,
    paused: false,
    closed: false,
    ended: false, // the teacher ended the session: the board stays, with no control
    removed: false,
    busyTimer: null,
    lesson: null, // the lesson card shown now: {moment, lesson, event, seats, pause}
    lessonQueue: [],
    dismissed: new Set(), // moments this page dismissed already
    lessonPause: null, // the state's lesson_pause: {waiting, moments}
    returnFocus: null,
    lessonChip: null, // the sticky bar's "GDPR lesson: …" button, for a card out of sight
    lessonReturn: null, // where the board was on screen before a card was brought into view
  };

  function setStatus(text, state = "") {
    els.status.textContent = text;
    // "Connected." needs no room in the bar; a lost connection does (game.css)
    els.status.dataset.state = state;
  }

  function showNotice(text, kind = "info") {
    els.notice.hidden = !text;
    els.notice.className = `game-notice game-notice--${kind}`;
    els.notice.textContent = text || "";
  }

  function showError(text) {
    // Replace, then clear later, so a repeated message is announced again.
    els.errors.textContent = "";
    if (!text) return;
    els.errors.append(h("p", { class: "game-error__text" }, text));
  }

  function announce(text) {
    if (!els.announcer) return;
    els.announcer.textContent = "";
    window.setTimeout(() => {
      els.announcer.textContent = text;
    }, 50);
  }

  const log = gameLog(els.log, 60, els.logLatest);
  const sound = boardSound(els.sound);

  /** The sticky bar: whose turn (▶ when it is this seat's) and the seat's short score;
   * once the teacher ended the session, that it is over. */
  function summary({ turn, mine, score }) {
    if (shell.ended) {
      turn = gettext("This session is over.");
      mine = false;
    }
    if (els.turn) {
      els.turn.hidden = !turn;
      els.turn.textContent = turn || "";
      els.turn.classList.toggle("is-mine", Boolean(mine));
    }
    if (els.score) {
      els.score.hidden = !score;
      els.score.replaceChildren(...(score ? [h("span", { class: "visually-hidden" }, gettext("Your score:"), " "), score] : []));
    }
  }

  // The log: open beside the board on a wide screen, collapsed under it on a phone.
  if (els.logBox && window.matchMedia) {
    const wide = window.matchMedia(WIDE);
    els.logBox.open = wide.matches;
    wide.addEventListener("change", () => {
      els.logBox.open = wide.matches;
    });
    // A folded log is hidden from screen readers too: its newest line (in the summary)
    // speaks instead, and falls silent once the log is open, so nothing is read twice.
    const speak = () => els.logLatest && els.logLatest.setAttribute("aria-live", els.logBox.open ? "off" : "polite");
    els.logBox.addEventListener("toggle", speak);
    speak();
  }

  // "?" (How to play) closes with Escape, focus back on its toggle.
  const rules = root.querySelector("details.how-to-play--game");
  if (rules) {
    rules.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !rules.open) return;
      event.preventDefault();
      event.stopPropagation();
      rules.open = false;
      rules.querySelector("summary").focus();
    });
  }

  const projector = document.body.classList.contains("page-projector");
  /* The heights of the sticky bar and of the phone's hand dock, as CSS variables: the
   * page keeps room under the dock, and focus scrolls clear of both. */
  function measure() {
    const style = document.documentElement.style;
    if (els.bar) style.setProperty("--bar-h", `${els.bar.offsetHeight}px`);
    const dock = els.board.querySelector(".panel--hand");
    const docked = dock && getComputedStyle(dock).position === "fixed";
    style.setProperty("--dock-h", `${docked ? dock.offsetHeight : 0}px`);
    if (projector) fitBoard();
  }
  /* The classroom screen never scrolls and nobody there can scroll the board: a crowded
   * board (many cards collected, five players) draws its players smaller, a step at a
   * time, until the whole board shows. One still too tall at the smallest step (five or
   * six players late in a game) gives its players the screen's whole width, under the
   * log, which keeps the top row beside the table; it stays so while the page is open (a
   * layout that flipped back and forth between moves would be hard to follow). */
  let crowded = false;
  function fitBoard() {
    const board = els.board;
    const layout = board.parentElement;
    if (crowded) placeLog(board, layout);
    if (fitPlayers(board) || crowded || !board.querySelector(".panel--others")) return;
    crowded = true;
    layout.classList.add("game-layout--crowded");
    placeLog(board, layout);
    fitPlayers(board);
  }
  function fitPlayers(board) {
    let fit = 1;
    board.style.setProperty("--fit", "1");
    while (board.scrollHeight > board.clientHeight + 1 && fit > PROJECTOR_FIT_MIN + 0.001) {
      fit = Math.round(fit * 100 - 5) / 100;
      board.style.setProperty("--fit", String(fit));
    }
    return board.scrollHeight <= board.clientHeight + 1;
  }
  /* The log of a crowded board is as tall as the board's top row (the players' panel
   * starts below it), its newest line in view once its height changed. */
  function placeLog(board, layout) {
    const others = board.querySelector(".panel--others");
    if (!others) return;
    const gap = parseFloat(getComputedStyle(board).rowGap) || 0;
    const top = others.getBoundingClientRect().top - board.getBoundingClientRect().top - gap;
    const height = `${Math.max(0, Math.floor(top))}px`;
    if (layout.style.getPropertyValue("--top-row-h") === height) return;
    layout.style.setProperty("--top-row-h", height);
    const scroll = layout.querySelector(".game-log__scroll");
    if (scroll) scroll.scrollTop = scroll.scrollHeight;
  }
  let measuring = 0;
  const remeasure = () => {
    cancelAnimationFrame(measuring);
    measuring = requestAnimationFrame(measure);
  };
  if (window.ResizeObserver && els.bar) new ResizeObserver(remeasure).observe(els.bar);
  new MutationObserver(remeasure).observe(els.board, { childList: true, subtree: true });
  window.addEventListener("resize", remeasure);

  // --- GDPR lesson cards ------------------------------------------------------------

  function playerNames(seats) {
    const players = (shell.hello && shell.hello.players) || [];
    return seats.map((seat) => (players.find((p) => p.seat === seat) || {}).name || String(seat + 1));
  }

  function mySeat() {
    return shell.hello ? shell.hello.seat ?? null : null;
  }

  /** The notice above the board: a lesson pause, the teacher's pause, or nothing. */
  function showPauseNotice() {
    const pause = shell.lessonPause;
    root.classList.toggle("is-lesson-pause", Boolean(pause));
    if (pause) {
      const waiting = pause.waiting || [];
      let text = gettext("Waiting for everyone to read the lesson");
      if (waiting.length) text += ` (${interpolate(gettext("still reading: %s"), [playerNames(waiting).join(", ")])})`;
      showNotice(text, "lesson");
    } else if (shell.paused) {
      showNotice(gettext("The teacher has paused the game."), "pause");
    } else if (botPlaysMySeat()) {
      showNotice(gettext("A bot is playing for you right now. Your teacher can give your seat back."), "pause");
    } else {
      showNotice("", "pause");
    }
  }

  /** Whether the teacher handed this page's seat to a bot (it gets no controls then). */
  function botPlaysMySeat() {
    if (role !== "seat" || !shell.hello) return false;
    const me = (shell.hello.players || []).find((p) => p.seat === mySeat());
    return Boolean(me && me.bot);
  }

  /** Queue a lesson card; show it now if no other card is up. */
  function showLesson(item) {
    if (!els.lesson || !item || !item.lesson) return;
    if (shell.dismissed.has(item.moment)) return;
    if (shell.lesson && shell.lesson.moment === item.moment) {
      if (item.pause && !shell.lesson.pause) openLesson({ ...shell.lesson, pause: true });
      return;
    }
    if (shell.lessonQueue.some((queued) => queued.moment === item.moment)) return;
    if (!item.pause) {
      // A card shown without a pause only informs: the newest replaces an unread one,
      // so that a phone or the projector never shows a queue of stale lessons.
      shell.lessonQueue = shell.lessonQueue.filter((queued) => queued.pause);
      if (shell.lesson && !shell.lesson.pause) {
        shell.dismissed.add(shell.lesson.moment);
        shell.lesson = null;
      }
    }
    if (shell.lesson) shell.lessonQueue.push(item);
    else openLesson(item);
  }

  /** At the game's end, put away a card that only informed: the ranking comes first. */
  function closeInformingLesson() {
    shell.lessonQueue = shell.lessonQueue.filter((queued) => queued.pause);
    if (shell.lesson && !shell.lesson.pause) closeLesson({ silent: true });
  }

  function openLesson(item) {
    shell.lesson = item;
    const lesson = item.lesson;
    const articles = lesson.articles || [];
    const gotIt = h("button", { type: "button", class: "button lesson-card__ok", onclick: () => closeLesson() }, gettext("Got it"));
    const buttons = [
      h(
        "a",
        { class: "button button--secondary lesson-card__more", href: lesson.more_url, target: "_blank", rel: "noopener" },
        gettext("More"),
        h("span", { class: "visually-hidden" }, ` ${gettext("about this lesson (opens in a new tab)")}`),
      ),
      gotIt,
    ];
    if (role !== "seat" && item.pause) {
      buttons.push(
        h("button", { type: "button", class: "button button--secondary lesson-card__all", onclick: () => closeLesson({ all: true }) },
          gettext("Go on for the whole table")),
      );
    }
    els.lesson.replaceChildren(
      h("p", { class: "lesson-card__kicker" }, gettext("GDPR lesson")),
      h("h2", { id: "lesson-card-title", class: "lesson-card__title" }, lesson.title),
      h("p", { id: "lesson-card-short", class: "lesson-card__short" }, lesson.short),
      articles.length
        ? h("p", { class: "lesson-card__articles" },
          interpolate(ngettext("GDPR article: %s", "GDPR articles: %s", articles.length), [articles.join(", ")]))
        : null,
      h("div", { class: "button-row" }, buttons),
    );
    els.lesson.hidden = false;
    els.lesson.classList.toggle("lesson-card--pause", Boolean(item.pause));
    root.classList.add("has-lesson");
    if (item.pause && role === "seat") {
      // The table waits for this player: take them to the card (focus returns after).
      const active = document.activeElement;
      if (active && active !== document.body && !els.lesson.contains(active)) shell.returnFocus = active;
      gotIt.focus();
    } else {
      // Play goes on: never steal focus from the board, just say it.
      announce(interpolate(gettext("GDPR lesson: %s"), [lesson.title]));
      if (role === "seat") bringLessonToSight();
    }
  }

  /* A card that only informs opens above the board, in the flow (docs/ui.md, "Lesson
   * cards"): on a phone the student has often scrolled down to the table, where it would
   * open out of sight. It is brought into view at once, unless a move is in progress (a
   * move sent, a hand card chosen, an answer box open: the page never moves under a
   * finger that is choosing); then the sticky bar shows "GDPR lesson: <title>", which
   * brings it into view when tapped and goes once the card is in sight. "Got it" puts
   * the board back where the student had it. */
  function bringLessonToSight() {
    clearLessonChip();
    if (lessonInSight()) return;
    if (moveInProgress()) showLessonChip();
    else revealLesson(false);
  }

  function moveInProgress() {
    return Boolean(
      shell.busy ||
        els.board.querySelector("[aria-pressed='true'][data-key^='hand:'], [aria-pressed='true'][data-key^='info:']") ||
        els.board.querySelector(".prompt [data-action]"),
    );
  }

  /** Whether the card is on screen between the sticky bar and the hand's dock (all of
   * it, or its top when it is taller than the room between them). */
  function lessonInSight() {
    if (!els.lesson || els.lesson.hidden) return true;
    const card = els.lesson.getBoundingClientRect();
    const top = els.bar ? Math.max(0, els.bar.getBoundingClientRect().bottom) : 0;
    const dock = els.board.querySelector(".panel--hand");
    const docked = dock && getComputedStyle(dock).position === "fixed";
    const bottom = docked ? dock.getBoundingClientRect().top : window.innerHeight;
    if (card.height <= bottom - top) return card.top >= top - 1 && card.bottom <= bottom + 1;
    return card.top >= top - 1 && card.top < bottom;
  }

  function revealLesson(focus) {
    clearLessonChip();
    if (!shell.lesson) return;
    if (!shell.lessonReturn) shell.lessonReturn = { top: els.board.getBoundingClientRect().top };
    // "start": under the sticky bar (the page's scroll-padding-top)
    els.lesson.scrollIntoView({ block: "start" });
    if (focus) els.lesson.focus({ preventScroll: true });
  }

  function showLessonChip() {
    if (!els.bar || !shell.lesson) return;
    const title = shell.lesson.lesson.title;
    shell.lessonChip = h(
      "button",
      { type: "button", class: "game-bar__lesson", onclick: () => revealLesson(true) },
      interpolate(gettext("GDPR lesson: %s"), [title]),
    );
    els.bar.append(shell.lessonChip);
  }

  function clearLessonChip() {
    if (shell.lessonChip) shell.lessonChip.remove();
    shell.lessonChip = null;
  }

  // The student scrolled up to the card by themselves: the bar's button has done its job.
  window.addEventListener(
    "scroll",
    () => {
      if (shell.lessonChip && lessonInSight()) clearLessonChip();
    },
    { passive: true },
  );

  /** Dismiss the card shown now (tell the server), then show the next one. */
  function closeLesson(options = {}) {
    const item = shell.lesson;
    if (!item) return;
    shell.dismissed.add(item.moment);
    const message = { type: "dismiss", moment: item.moment };
    if (options.all) message.all = true;
    if (!options.silent) connection.send(message);
    const hadFocus = els.lesson.contains(document.activeElement);
    shell.lesson = null;
    clearLessonChip();
    const next = shell.lessonQueue.shift();
    if (next) {
      openLesson(next);
      if (hadFocus) els.lesson.querySelector(".lesson-card__ok").focus();
      return;
    }
    els.lesson.hidden = true;
    els.lesson.replaceChildren();
    root.classList.remove("has-lesson");
    // A card brought into view: the board goes back where the student had it.
    const back = shell.lessonReturn;
    shell.lessonReturn = null;
    if (back && !options.silent) window.scrollBy(0, els.board.getBoundingClientRect().top - back.top);
    if (hadFocus) {
      const target = shell.returnFocus;
      shell.returnFocus = null;
      const preventScroll = Boolean(back);
      if (target && target.isConnected && !target.disabled) target.focus({ preventScroll });
      else els.board.focus({ preventScroll });
    }
  }

  if (els.lesson) {
    els.lesson.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        closeLesson();
      }
    });
  }

  /** A state's lesson pause: show the cards this page still has to dismiss. */
  function takeLessonPause(pause) {
    shell.lessonPause = pause || null;
    if (!pause) return;
    const seat = mySeat();
    for (const moment of pause.moments || []) {
      const mine = role === "seat" ? (moment.waiting || []).includes(seat) : true;
      if (mine) showLesson({ ...moment, pause: true });
    }
  }

  function setBusy(busy) {
    shell.busy = busy;
    root.classList.toggle("is-busy", busy);
    els.board.setAttribute("aria-busy", busy ? "true" : "false");
    if (shell.renderer && shell.renderer.busy) shell.renderer.busy(busy);
    clearTimeout(shell.busyTimer);
    if (busy) shell.busyTimer = setTimeout(noAnswer, ANSWER_TIMEOUT_MS);
  }

  /** A move got neither a state nor an error: never let it vanish in silence. */
  function noAnswer() {
    setBusy(false);
    showError(
      gettext("The server did not answer: your move may not have been stored. Reconnecting to check…"),
    );
    connection.drop();
  }

  const connection = new TableConnection(
    socketUrl(root.dataset.wsPath),
    {
      status(state, detail, attempt = 1) {
        if (state === "open") setStatus(gettext("Connected."), "open");
        else if (state === "reconnecting") {
          setBusy(false);
          const seconds = Math.ceil(detail / 1000);
          const text =
            seconds === 0
              ? gettext("Reconnecting…")
              : attempt > UNREACHABLE_AFTER
              ? ngettext(
                  "The server cannot be reached. Trying again in %s second…",
                  "The server cannot be reached. Trying again in %s seconds…",
                  seconds,
                )
              : ngettext(
                  "Connection lost. Trying again in %s second…",
                  "Connection lost. Trying again in %s seconds…",
                  seconds,
                );
          setStatus(interpolate(text, [seconds]), "reconnecting");
        } else if (state === "closed") {
          shell.closed = true;
          if (shell.ended || shell.removed) {
            // the notice says why; "Disconnected." would only worry
            setStatus("", "open");
            return;
          }
          if (detail === 4403 || detail === 4429) {
            showNotice(gettext("This game cannot be opened from this device."), "alert");
          }
          setStatus(gettext("Disconnected."), "closed");
        }
      },
      hello(message) {
        if (!shell.hello || shell.hello.match !== message.match) log.reset();
        shell.hello = message;
        // A socket is sent the card catalogue once per deck (game, variant, kinds dealt): a resync's
        // hello leaves it out, and the one this page has stays right.
        if (message.catalogue) shell.catalogue = message.catalogue;
        const create = rendererFor(message.game);
        if (!create) {
          els.board.replaceChildren(
            h("p", {}, interpolate(gettext("This game (%s) cannot be shown here yet."), [message.game])),
          );
          shell.renderer = null;
          return;
        }
        shell.renderer = create(els.board, {
          role,
          seat: message.seat ?? null,
          players: message.players || [],
          catalogue: shell.catalogue,
          language: message.language || root.dataset.language || document.documentElement.lang,
          variant: message.variant,
          icons: root.dataset.icons,
          act,
          announce,
          summary,
          cue: sound.play,
          isBusy: () => shell.busy || shell.paused,
        });
        root.dataset.game = message.game;
        if (shell.last) shell.renderer.update(shell.last);
      },
      state(message) {
        setBusy(false);
        shell.last = message;
        shell.paused = Boolean(message.paused);
        takeLessonPause(message.lesson_pause);
        showPauseNotice();
        const over = Boolean(message.over || (message.view && message.view.over));
        if (over) closeInformingLesson();
        // the end screen first: a lesson card that comes with the last move sits below it
        root.classList.toggle("is-over", over);
        if (els.quiz) els.quiz.hidden = !(role === "seat" && over);
        shell.deadline = message.deadline || null;
        // A resync repeats the last action's lines: log each version once.
        log.take(message);
        if (shell.renderer) shell.renderer.update(message);
        tick();
      },
      error(message) {
        setBusy(false);
        if (message.code === "cannot_go_on") {
          // no board to draw, nor any to come: the reason takes the board's place
          els.board.replaceChildren(h("p", { class: "game-waiting" }, message.message));
          return;
        }
        showError(message.message || gettext("That move is not possible."));
      },
      notice(message) {
        switch (message.type) {
          case "waiting":
            els.board.replaceChildren(
              h(
                "p",
                { class: "game-waiting" },
                message.session_state === "finished"
                  ? gettext("This session is over.")
                  : gettext("Waiting for the teacher to start the game…"),
              ),
            );
            break;
          case "paused":
            shell.paused = true;
            showPauseNotice();
            break;
          case "lesson":
            showLesson(message);
            break;
          case "lesson_dismissed":
            if (shell.lessonPause) {
              shell.lessonPause = { ...shell.lessonPause, waiting: message.waiting || [] };
              showPauseNotice();
            }
            break;
          case "resumed":
            shell.paused = false;
            showPauseNotice();
            announce(gettext("The game goes on."));
            break;
          case "presence":
            if (shell.hello) {
              shell.hello.players = message.players || [];
              if (shell.renderer && shell.renderer.setPlayers) {
                shell.renderer.setPlayers(shell.hello.players);
                if (shell.last) shell.renderer.update(shell.last);
              }
              showPauseNotice();
            }
            break;
          case "removed":
            stopPlay();
            shell.removed = true;
            connection.stop();
            clearGame();
            showNotice(message.message || gettext("You have been removed from this session."), "alert");
            break;
          case "ended":
            stopPlay();
            connection.end(); // the server closes the socket (4000)
            showEnded(message.message || gettext("The teacher has ended the session."));
            break;
          default:
            break;
        }
      },
    },
    WebSocketImpl,
  );

  /** The game stops for this page without a "Game over": no move pending, no countdown,
   * no lesson pause to wait for; nothing more comes from the server. */
  function stopPlay() {
    shell.closed = true;
    setBusy(false);
    shell.deadline = null;
    shell.lessonPause = null;
    shell.paused = false;
    root.classList.remove("is-lesson-pause");
    showError("");
    tick();
  }

  /** Removed from the session: nothing of the game is left on the page (the board, whose
   * turn, the score, the countdown, the log, a lesson card), only the notice. */
  function clearGame() {
    shell.lessonQueue = [];
    if (shell.lesson) closeLesson({ silent: true });
    clearLessonChip();
    els.board.replaceChildren();
    if (els.turn) els.turn.hidden = true;
    if (els.score) els.score.hidden = true;
    els.countdown.hidden = true;
    if (els.logBox) els.logBox.hidden = true;
    if (els.quiz) els.quiz.hidden = true;
    root.classList.add("is-removed");
    document.title = document.title.replace(/^▶ /, "");
    remeasure();
  }

  /** The teacher ended the session mid-game (a game that ended by itself has its "Game
   * over" and the same invitation): the board stays as it was, with no control left
   * (inert) and every player offline; the sticky bar says the session is over; a seat is
   * invited to the quiz, which the session's end opened for every student who played.
   * The notice and the invitation come into view wherever the student had scrolled. */
  function showEnded(text) {
    shell.ended = true;
    const active = document.activeElement;
    const focusWasOnBoard = !active || active === document.body || els.board.contains(active)
      || Boolean(els.lesson && els.lesson.contains(active));
    // the quiz comes first: every lesson card is put away (the quiz asks about them)
    shell.lessonQueue = [];
    if (shell.lesson) closeLesson({ silent: true });
    clearLessonChip();
    if (shell.hello) {
      shell.hello.players = (shell.hello.players || []).map((p) => ({ ...p, connected: false }));
      if (shell.renderer && shell.renderer.setPlayers) shell.renderer.setPlayers(shell.hello.players);
    }
    if (shell.renderer && shell.last) {
      if (shell.renderer.putBack) shell.renderer.putBack();
      shell.last = { ...shell.last, legal_actions: [], deadline: null };
      shell.renderer.update(shell.last);
    } else {
      summary({});
    }
    els.board.inert = true;
    root.classList.add("is-ended");
    document.title = document.title.replace(/^▶ /, "");
    showNotice(text, "alert");
    const invite = role === "seat" ? els.quiz : null;
    if (invite) invite.hidden = false;
    remeasure();
    if (role === "seat") els.notice.scrollIntoView({ block: "start" }); // the projector never scrolls
    const link = invite && invite.querySelector("a");
    if (link && focusWasOnBoard) link.focus({ preventScroll: true });
  }

  function act(action) {
    if (shell.lessonPause) {
      showError(gettext("Waiting for everyone to read the lesson"));
      return false;
    }
    if (shell.paused) {
      showError(gettext("The game is paused."));
      return false;
    }
    if (shell.busy || shell.closed) return false;
    showError("");
    if (!connection.act(action)) {
      showError(gettext("Not connected: your move was not sent."));
      return false;
    }
    setBusy(true);
    return true;
  }

  function tick() {
    const deadline = shell.deadline;
    if (!deadline || !deadline.at || shell.closed || (shell.last && shell.last.view && shell.last.view.over)) {
      els.countdown.hidden = true;
      return;
    }
    const end = serverTimeMs(deadline.at);
    const left = Math.max(0, Math.ceil((end - connection.now()) / 1000));
    const total = deadline.seconds || left || 1;
    const label = shell.renderer ? shell.renderer.deadlineLabel(deadline) : gettext("Time left");
    drawCountdown(els.countdown, { left, total, label, icons: root.dataset.icons });
  }

  window.setInterval(tick, 500);
  setStatus(gettext("Connecting…"));
  connection.connect();
  return { connection, shell, closeLesson };
}
