"""Data Thief: one thief attacks the data that the data managers lay on their boards.

Each manager has two boards, paper and digital, of at most three cards: data cards face
up, security measures face down until they stop an attack. The thief, the last seat,
attacks one board at a time with the attack cards of their own pile; a measure on the
board (or in the manager's hand) that stops the attack counters it, else the thief
steals data or the manager misses turns. The rules as implemented, with every decision
the rule book leaves open, are in ``docs/rules/data_thief.md``.

Flow of a match: rounds of turns in seat order; rounds 1 and 2 are the managers' alone,
the thief plays from round 3. A ``counter`` window (the attacked manager may counter
from the hand) or a ``steal`` window (the thief picks the data to take) may interrupt
the thief's turn. The match ends after the last round.
"""

from games.data_thief import bots as _bots
from games.data_thief import debrief as _debrief
from games.data_thief import how_to_play as _how_to_play
from games.data_thief import search as _search
from games.data_thief import text as _text
from games.data_thief import views as _views
from games.data_thief.cards import (
    BY_ID,
    CATEGORIES,
    COUNTERED_POINTS,
    DATA,
    GENERAL,
    KIND,
    NATURES,
    THIEF_CARDS,
    fits,
    stops,
)
from games.data_thief.cards import cards as _cards
from games.engine import IllegalAction, Text, base, gettext_noop
from games.engine.rng import RandomSource
from games.engine.search import SearchBot

SLUG = "data_thief"
FORMAT = 1

MANAGER_HAND = 3  # cards a manager holds between turns (4 after drawing)
THIEF_HAND = 1  # cards the thief holds between turns (2 after drawing)
BOARD_SIZE = 3  # cards a board holds at most
OPENING_ROUNDS = 2  # rounds the managers play alone; the thief enters on the next one
# Rounds per variant, the two opening rounds included, balanced by simulation so that
# the heuristic thief wins 30 % to 45 % of games between heuristic bots at every table
# size (docs/rules/data_thief.md, "Balance"): the thief's loot grows every round while a
# manager's boards hold at most 6 cards, so the length decides the balance.
ROUNDS = {"standard": 8, "expert": 7}

OPTIONS = (
    base.Option(
        "rounds",
        gettext_noop("Rounds (0: the balanced number of the variant)"),
        0,
        0,
        60,
    ),
    base.Option(
        "answer_seconds",
        gettext_noop("Seconds to counter an attack or to choose the stolen data"),
        20,
        3,
        120,
    ),
    # Students take a table's first seats and bots the last ones: the thief's seat decides
    # who plays it at a table with bots (docs/rules/data_thief.md, "which seat is the thief").
    base.Option(
        "thief",
        gettext_noop("Who plays the thief at a table with bots"),
        "bot",
        choices=(
            ("bot", gettext_noop("A bot (the last seat)")),
            ("student", gettext_noop("A student (the first seat)")),
        ),
        help=gettext_noop(
            "Students take the first seats of a table and bots the others. At a table of "
            "students only, a student is the thief either way."
        ),
    ),
)
DEFAULT_OPTIONS = {option.key: option.default for option in OPTIONS}
TIE_BREAK = ("points", "data_cards", "shared")

NAME = DATA["name"]
VARIANTS = DATA["variant_names"]  # ordered: standard, expert
VARIANT_DESCRIPTIONS = DATA["variant_descriptions"]
ROLES = ("manager", "thief")
# The names of the kinds, and of a category's data cards, in the lesson library.
KIND_NAMES = {
    "data": gettext_noop("Data card"),
    "attack": gettext_noop("Attack card"),
    "measure": gettext_noop("Security measure"),
}
CATEGORY_CARDS = gettext_noop("Data cards: %(category)s")


class DataThief(base.Game["State"]):
    """The Data Thief game: static facts and the state factory."""

    state_class: type["State"]  # set below the State class

    slug = SLUG
    name = NAME
    min_players = 2
    max_players = 5
    variants = VARIANTS
    variant_descriptions = VARIANT_DESCRIPTIONS
    default_variant = "standard"
    # Its browser board is static/js/play/data_thief.js: offered on the session form.
    in_class = True
    bots = {"random": _bots.RandomBot, "heuristic": _bots.HeuristicBot, "search": SearchBot}
    how_to_play = _how_to_play.HOW_TO_PLAY
    options = OPTIONS
    score_columns = (
        base.ScoreColumn("points", gettext_noop("Points"), gettext_noop("points"), "line"),
        base.ScoreColumn("data_cards", gettext_noop("Data cards"), gettext_noop("data")),
        base.ScoreColumn(
            "attacks", gettext_noop("Attacks won or countered"), gettext_noop("attacks"), "step"
        ),
    )
    notable_events = _text.NOTABLE_EVENTS
    event_labels = _text.EVENT_LABELS
    seat_fields = ("seat", "target", "attacker")
    link_attributes = ("data", "attack", "measure", "category", "nature")
    seat_zones = _views.SEAT_ZONES
    table_zones = _views.TABLE_ZONES
    highlight = ""

    describe_event = staticmethod(_text.describe_event)

    def link_name(self, kind: str, attributes: dict[str, str]) -> Text | None:
        """Name every card of a kind ("Attack card"), and a category of data cards."""
        if not attributes and kind in KIND_NAMES:
            return Text(KIND_NAMES[kind])
        if kind == "data" and set(attributes) == {"category"}:
            names = DATA["categories"][attributes["category"]]["name"]
            return Text(CATEGORY_CARDS, {"category": names})
        return None

    def cards(self, variant: str, kinds: frozenset[str] | None = None) -> list[dict]:
        """Return the card dicts of ``variant`` (no card's text names another kind, so
        every deck of ``kinds`` reads the same)."""
        self.check_variant(variant)
        return _cards(variant)

    def seat_role(self, num_players: int, seat: int) -> str:
        """Return ``"thief"`` for the thief's seat with the default options (the last),
        ``"manager"`` for the others."""
        return "thief" if seat == thief_seat(num_players, DEFAULT_OPTIONS) else "manager"

    def sample_state(self, view: dict, rng: RandomSource) -> "State":
        """Return a state ``view`` could have come from: unseen cards dealt with ``rng``."""
        return State.from_json(self, _search.determinise(view, rng, DEFAULT_OPTIONS))

    def evaluate(self, state: "State") -> list[float]:
        """Return each seat's chance of winning, guessed from the points and rounds left."""
        return _search.evaluate(state)

    def rollout_action(
        self, state: "State", seat: int, legal: list[dict], rng: RandomSource
    ) -> dict:
        """Return a quick, greedy move for a search's playout."""
        return _search.rollout_action(state, seat, legal, rng)

    def seat_notes(self, data: dict, seat: int) -> list[Text]:
        """Return the replay's notes on a seat: its role, the turns it still misses."""
        return _views.seat_notes(data, seat)

    def card_groups(self, data: dict, seat: int) -> list[dict]:
        """Return a manager's boards for the replay, every card face up."""
        return _views.card_groups(data, seat)

    def debrief(self) -> base.Debrief:
        """Return the debrief's observer: attacks by type, and the prompts they raise."""
        return _debrief.DataThiefDebrief()


_FIELDS = (
    "variant",
    "seed",
    "options",
    "rounds",
    "thief",
    "deck",
    "thief_deck",
    "discard",
    "thief_discard",
    "loot",
    "hands",
    "boards",
    "revealed",
    "proofs",
    "skips",
    "successes",
    "round",
    "turn",
    "window",
    "serial",
    "over",
    "ply",
    "last_events",
)


class State(base.FieldsState):
    """One match of Data Thief."""

    __slots__ = _FIELDS
    slug, format, fields = SLUG, FORMAT, _FIELDS

    # The fields' types that the checker cannot infer from ``__init__``.
    discard: list[str]
    thief_discard: list[str]
    loot: list[str]
    hands: list[list[str]]
    boards: list[dict[str, list[str]]]
    revealed: list[str]
    proofs: list[list[str]]
    window: dict | None  # the open window: a counter or the thief's choice of data
    last_events: list[dict]

    def __init__(
        self, game: DataThief, num_players: int, seed: int, variant: str, options: dict | None
    ) -> None:
        self.start(game, num_players, seed, variant, options)
        n = num_players
        self.rounds = self.options["rounds"] or ROUNDS[variant]
        self.thief = thief_seat(n, self.options)
        self.deck, self.thief_deck = list(GENERAL), list(THIEF_CARDS)
        self.rng.shuffle(self.deck)
        self.rng.shuffle(self.thief_deck)
        self.discard, self.thief_discard, self.loot = [], [], []
        self.hands = [[] for _ in range(n)]
        self.boards = [{nature: [] for nature in NATURES} for _ in range(n)]
        self.revealed = []  # measures on a board that have stopped an attack: face up
        self.proofs = [[] for _ in range(n)]  # the attacks each manager countered
        self.skips, self.successes = [0] * n, 0
        self.round, self.turn, self.window, self.serial = 1, 0, None, 0
        self.over, self.ply = False, 0
        for s in self.managers():
            self.hands[s] = [self.deck.pop() for _ in range(MANAGER_HAND)]
        self.hands[self.thief] = [self.thief_deck.pop() for _ in range(THIEF_HAND)]
        self._emit("setup", thief=self.thief, rounds=self.rounds, deck=len(self.deck))
        self._start_turn(self.first_seat())
        self.last_events = self._events

    # ----------------------------------------------------------------- protocol

    def first_seat(self) -> int:
        """Return the seat that opens each round: the one after the thief's, so that the
        managers play first and the thief last whatever its seat."""
        return (self.thief + 1) % self.n

    def managers(self) -> list[int]:
        """Return the managers' seats: every seat but the thief's."""
        return [s for s in range(self.n) if s != self.thief]

    def to_move(self) -> list[int]:
        """Return the seat that may act: the open window's, or the turn player."""
        if self.over:
            return []
        return [self.window["seat"] if self.window else self.turn]

    def timers(self) -> list[dict]:
        """Return the open window's timer (countering, or choosing the stolen data)."""
        if self.over or not self.window:
            return []
        w = self.window
        return [{"id": w["id"], "seconds": w["seconds"], "action": _expiry(w["id"])}]

    def timer_info(self, timer_id: str) -> dict:
        """Return what the open window waits for; every seat may know of it."""
        if self.window and self.window["id"] == timer_id:
            return {"kind": self.window["kind"], "seat": self.window["seat"], "visible_to": None}
        return super().timer_info(timer_id)

    def legal_actions(self, seat: int | None) -> list[dict]:
        """Return the actions ``seat`` may take now (``None``: the referee's expiries)."""
        return [dict(action) for action in self._legal_list(seat)]

    def apply(self, seat: int | None, action: dict) -> list[dict]:
        """Apply ``action`` for ``seat`` and return the events; refuse anything not legal."""
        if action not in self._legal_list(seat):
            raise self._refusal(seat, action)
        self._legal_seat = base.UNASKED
        events: list[dict]
        self._events = events = []
        kind = action["type"]
        if seat is None:
            self._expire()
        elif kind == "lay":
            self._lay(seat, action["card"], action["board"])
        elif kind == "discard":
            self._discard(seat, action["card"])
        elif kind == "attack":
            self._attack(action["card"], action["target"], action["board"])
        elif kind in ("counter", "accept"):
            self._answer(action)
        else:
            self._steal(action)
        self.ply += 1
        self.last_events = events
        return list(events)

    def view(self, seat: int | None) -> dict:
        """Return what ``seat`` may see; ``None`` gives the public view."""
        return _views.view(self, seat)

    def private_cards(self, seat: int) -> list[str]:
        """Return the ids only ``seat`` sees: its hand and its face-down measures."""
        hidden = [c for nature in NATURES for c in self.boards[seat][nature] if self.face_down(c)]
        return list(self.hands[seat]) + hidden

    def face_down(self, card: str) -> bool:
        """Tell whether a card on a board is a measure not revealed yet."""
        return KIND[card] == "measure" and card not in self.revealed

    def zones(self) -> dict[str, list[str]]:
        """Return every zone's card ids."""
        z = {
            "deck": list(self.deck),
            "thief_deck": list(self.thief_deck),
            "discard": list(self.discard),
            "thief_discard": list(self.thief_discard),
            "loot": list(self.loot),
            # the attack card waiting for the attacked manager's answer
            "in_play": [self.window["attack"]]
            if self.window and self.window["kind"] == "counter"
            else [],
        }
        for s in range(self.n):
            z[f"hand:{s}"] = list(self.hands[s])
            z[f"proofs:{s}"] = list(self.proofs[s])
            for nature in NATURES:
                z[f"board:{s}:{nature}"] = list(self.boards[s][nature])
        return z

    def is_over(self) -> bool:
        """Return True once the last round is played."""
        return self.over

    def scores(self) -> list[dict]:
        """Return each seat's points, data cards, and attacks won (thief) or countered."""
        out = []
        for s in range(self.n):
            if s == self.thief:
                data, attacks, bonus = list(self.loot), self.successes, 0
            else:
                data = [c for c in self.board_cards(s) if KIND[c] == "data"]
                attacks = len(self.proofs[s])
                bonus = COUNTERED_POINTS * attacks
            points = sum(BY_ID[c]["points"] for c in data) + bonus
            out.append({"seat": s, "points": points, "data_cards": len(data), "attacks": attacks})
        return out

    def result(self) -> dict | None:
        """Return winners, ranking groups, scores and the tie-break level that decided."""
        if not self.over:
            return None
        scores = self.scores()
        keys = [(sc["points"], sc["data_cards"]) for sc in scores]
        ranking = base.ranking(keys)
        winners = ranking[0]
        if len(winners) > 1:
            decided_by = "shared"
        else:
            best, runner = keys[winners[0]], keys[ranking[1][0]]
            decided_by = "points" if best[0] != runner[0] else "data_cards"
        return {
            "winners": winners,
            "ranking": ranking,
            "scores": scores,
            "decided_by": decided_by,
            "thief": self.thief,
            "tie_break": list(TIE_BREAK),
        }

    # -------------------------------------------------------------- the boards

    def board_cards(self, s: int) -> list[str]:
        """Return every card on seat ``s``'s two boards."""
        return [c for nature in NATURES for c in self.boards[s][nature]]

    def board_data(self, s: int, nature: str) -> list[str]:
        """Return the data cards on one board."""
        return [c for c in self.boards[s][nature] if KIND[c] == "data"]

    def board_points(self, s: int, nature: str) -> int:
        """Return the points of the data cards on one board."""
        return sum(BY_ID[c]["points"] for c in self.board_data(s, nature))

    def lay_refusal(self, s: int, card: str, nature: str) -> IllegalAction | None:
        """Return why manager ``s`` may not lay ``card`` on its ``nature`` board, or None."""
        board = self.boards[s][nature]
        if KIND[card] == "measure" and self.round <= OPENING_ROUNDS:
            return _illegal(
                "opening_data",
                gettext_noop(
                    "In the first two rounds the managers lay data cards: security "
                    "measures come from the third round on."
                ),
            )
        if len(board) >= BOARD_SIZE:
            return _illegal("board_full", gettext_noop("A board holds at most 3 cards."))
        if KIND[card] == "measure" and not self.board_data(s, nature):
            return _illegal(
                "data_first", gettext_noop("The first card of a board must be a data card.")
            )
        if KIND[card] == "measure" and not fits(card, nature):
            return _illegal(
                "wrong_board", gettext_noop("This security measure belongs on your other board.")
            )
        return None

    def stopping_measures(self, s: int, nature: str, attack: str) -> list[str]:
        """Return the measures on one board that stop ``attack``, in the board's order."""
        return [c for c in self.boards[s][nature] if KIND[c] == "measure" and stops(c, attack)]

    # ------------------------------------------------------------ legal actions

    def _compute_legal(self, seat):
        """Compute the legal actions of ``seat``: the one source of legality."""
        if self.over:
            return []
        if seat is None:
            return [t["action"] for t in self.timers()]
        if seat not in self.to_move():
            return []
        w = self.window
        if w and w["kind"] == "counter":
            attack = w["attack"]
            counters = [
                {"type": "counter", "card": c}
                for c in self.hands[seat]
                if KIND[c] == "measure" and stops(c, attack)
            ]
            return [*counters, {"type": "accept"}]
        if w:
            return self._steal_choices()
        if seat == self.thief:
            return self._thief_actions()
        lays = [
            {"type": "lay", "card": c, "board": nature}
            for c in self.hands[seat]
            for nature in NATURES
            if self.lay_refusal(seat, c, nature) is None
        ]
        return lays or [{"type": "discard", "card": c} for c in self.hands[seat]]

    def _thief_actions(self):
        """Return the thief's attacks, or the discards when no attack fits."""
        attacks = [
            {"type": "attack", "card": c, "target": m, "board": BY_ID[c]["nature"]}
            for c in self.hands[self.thief]
            for m in self.managers()
            if self.board_data(m, BY_ID[c]["nature"])
        ]
        return attacks or [{"type": "discard", "card": c} for c in self.hands[self.thief]]

    def _steal_choices(self):
        """Return what the thief may take from the attacked board."""
        w: dict = self.window  # type: ignore[assignment]  # the thief's choice is open
        data = self.board_data(w["target"], w["board"])
        if self.variant == "expert":
            present = {BY_ID[c]["category"] for c in data}
            return [{"type": "steal", "category": cat} for cat in CATEGORIES if cat in present]
        return [{"type": "steal", "card": c} for c in data]

    def _refusal(self, seat, action):
        """Return the IllegalAction that explains why ``action`` is refused."""
        if self.over:
            return _illegal("game_over", gettext_noop("The game is over."))
        if seat is None:
            return _illegal("stale_timer", gettext_noop("This timer is not running (any more)."))
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            return IllegalAction(
                "bad_seat", gettext_noop("There is no seat %(seat)s."), {"seat": str(seat)}
            )
        if seat not in self.to_move():
            if seat == self.thief and self.round <= OPENING_ROUNDS:
                return _illegal(
                    "thief_waits",
                    gettext_noop("The thief enters the game on the third round. Please wait."),
                )
            return _illegal("not_your_turn", gettext_noop("Please wait: it is not your turn."))
        kind = action.get("type") if isinstance(action, dict) else None
        card = action.get("card") if isinstance(action, dict) else None
        reason = None
        if self.window:
            reason = self._window_refusal(seat, kind, card)
        elif kind == "lay":
            reason = self._lay_action_refusal(seat, card, action.get("board"))
        elif kind == "attack":
            reason = self._attack_refusal(seat, action)
        elif kind == "discard":
            reason = self._discard_refusal(seat, card)
        return reason or _illegal("illegal_action", gettext_noop("This move is not allowed now."))

    def _window_refusal(self, seat, kind, card):
        """Explain a refused answer to the open window."""
        if self.window["kind"] == "counter":  # type: ignore[index]  # asked with one open
            if kind == "counter" and card not in self.hands[seat]:
                return _illegal("card_not_held", gettext_noop("You do not hold this card."))
            if kind == "counter":
                return _illegal(
                    "does_not_stop",
                    gettext_noop("This security measure does not stop this attack."),
                )
            return _illegal(
                "answer_attack",
                gettext_noop("First answer the attack: counter it with a measure, or let it pass."),
            )
        return _illegal(
            "choose_loot", gettext_noop("First choose the data to take from the attacked board.")
        )

    def _lay_action_refusal(self, seat, card, nature):
        """Explain a refused lay."""
        if seat == self.thief:
            return _illegal(
                "thief_lays_nothing",
                gettext_noop("The thief lays no cards: attack a board, or discard."),
            )
        if card not in self.hands[seat]:
            return _illegal("card_not_held", gettext_noop("You do not hold this card."))
        if nature not in NATURES:
            return _illegal("bad_board", gettext_noop("Choose your paper or your digital board."))
        return self.lay_refusal(seat, card, nature)

    def _attack_refusal(self, seat, action):
        """Explain a refused attack."""
        card, target, nature = action.get("card"), action.get("target"), action.get("board")
        if seat != self.thief:
            return _illegal("not_the_thief", gettext_noop("Only the thief attacks."))
        if card not in self.hands[seat]:
            return _illegal("card_not_held", gettext_noop("You do not hold this card."))
        if target not in self.managers():
            return _illegal("bad_target", gettext_noop("Attack one of the data managers' boards."))
        if nature != BY_ID[card]["nature"]:
            return _illegal(
                "wrong_nature",
                gettext_noop(
                    "A paper attack targets a paper board; a digital attack a digital board."
                ),
            )
        if not self.board_data(target, nature):
            return _illegal("no_data", gettext_noop("There is no data to steal on this board."))
        return None

    def _discard_refusal(self, seat, card):
        """Explain a refused discard."""
        if card not in self.hands[seat]:
            return _illegal("card_not_held", gettext_noop("You do not hold this card."))
        if seat == self.thief:
            return _illegal(
                "must_attack",
                gettext_noop(
                    "You can attack, so you may not discard: discard only when no attack fits."
                ),
            )
        return _illegal(
            "must_lay",
            gettext_noop(
                "You can lay a card, so you may not discard: discard only when none fits."
            ),
        )

    # ------------------------------------------------------------------ actions

    def _lay(self, s, card, nature):
        """Lay a card from manager ``s``'s hand: data face up, a measure face down."""
        self.hands[s].remove(card)
        self.boards[s][nature].append(card)
        if KIND[card] == "data":
            self._emit("data_laid", seat=s, card=card, board=nature)
        else:  # face down: the event names no card
            self._emit("measure_laid", seat=s, board=nature)
        self._next_turn()

    def _discard(self, s, card):
        """Discard a card face up: the thief's to its own pile, a manager's to the general."""
        self.hands[s].remove(card)
        (self.thief_discard if s == self.thief else self.discard).append(card)
        self._emit("discard", seat=s, card=card)
        self._next_turn()

    def _attack(self, card, m, nature):
        """Play attack ``card`` on manager ``m``'s board: a measure there stops it at once."""
        t = self.thief
        self.hands[t].remove(card)
        attack = BY_ID[card]["attack"]
        self._emit("attack", seat=t, target=m, board=nature, card=card, attack=attack)
        on_board = self.stopping_measures(m, nature, card)
        if on_board:
            measure = on_board[0]
            if measure not in self.revealed:
                self.revealed.append(measure)
            self._countered(m, nature, card, measure, "board")
            self._next_turn()
            return
        if any(KIND[c] == "measure" and stops(c, card) for c in self.hands[m]):
            self._open("counter", m, target=m, board=nature, attack=card)
            return
        self._succeed(m, nature, card)

    def _countered(self, m, nature, card, measure, source):
        """Record a countered attack: the manager keeps the attack card (its points)."""
        self.proofs[m].append(card)
        self._emit(
            "countered",
            seat=m,
            attacker=self.thief,
            board=nature,
            card=card,
            attack=BY_ID[card]["attack"],
            measure=measure,
            kind=BY_ID[measure]["measure"],
            source=source,
        )

    def _answer(self, action):
        """Resolve the counter window: a measure from the hand, or the attack passes."""
        w: dict
        w, self.window = self.window, None  # type: ignore[assignment]  # the counter is open
        m, nature, card = w["target"], w["board"], w["attack"]
        if action["type"] == "accept":
            self._succeed(m, nature, card)
            return
        measure = action["card"]
        self.hands[m].remove(measure)
        self._countered(m, nature, card, measure, "hand")
        board = self.boards[m][nature]
        if len(board) < BOARD_SIZE:  # it is in place now: face up on the attacked board
            board.append(measure)
            self.revealed.append(measure)
            self._emit("measure_kept", seat=m, board=nature, card=measure)
        else:
            self.discard.append(measure)
            self._emit("measure_discarded", seat=m, board=nature, card=measure)
        self._next_turn()

    def _succeed(self, m, nature, card):
        """The attack passes: the thief steals data, or the manager will miss turns."""
        self.successes += 1
        self.thief_discard.append(card)
        entry = BY_ID[card]
        self._emit(
            "attack_succeeded",
            seat=self.thief,
            target=m,
            board=nature,
            card=card,
            attack=entry["attack"],
        )
        if not entry["steals"]:
            self.skips[m] += entry["skips"]
            self._emit("turns_lost", seat=m, attacker=self.thief, turns=entry["skips"])
            self._next_turn()
            return
        data = self.board_data(m, nature)
        left = entry["steals"]
        if self.variant == "expert":
            present = {BY_ID[c]["category"] for c in data}
            if len(present) == 1:
                self._take(m, nature, data)
                self._next_turn()
                return
        elif len(data) <= left:
            self._take(m, nature, data)
            self._next_turn()
            return
        self._open("steal", self.thief, target=m, board=nature, attack=card, left=left)

    def _steal(self, action):
        """Take the chosen data card (or, experts, the chosen category) from the board."""
        w: dict = self.window  # type: ignore[assignment]  # the thief's choice is open
        m, nature = w["target"], w["board"]
        data = self.board_data(m, nature)
        if "category" in action:
            taken = [c for c in data if BY_ID[c]["category"] == action["category"]]
        else:
            taken = [action["card"]]
        self._take(m, nature, taken)
        w["left"] -= 1
        if "category" in action or w["left"] == 0 or not self.board_data(m, nature):
            self.window = None
            self._next_turn()
        elif len(self.board_data(m, nature)) <= w["left"]:
            self.window = None
            self._take(m, nature, self.board_data(m, nature))
            self._next_turn()
        else:
            self._legal_seat = base.UNASKED

    def _take(self, m, nature, cards):
        """Move data ``cards`` from a board to the loot; clear a board left without data."""
        board = self.boards[m][nature]
        for c in cards:
            board.remove(c)
            self.loot.append(c)
        points = sum(BY_ID[c]["points"] for c in cards)
        self._emit(
            "stolen", seat=self.thief, target=m, board=nature, cards=list(cards), points=points
        )
        # The data left move to the front: a board's first card stays a data card.
        board.sort(key=lambda c: KIND[c] != "data")
        if board and not self.board_data(m, nature):
            # Nothing left to protect: the board's measures go face up to the discard pile,
            # so that a board always starts with a data card.
            cleared = list(board)
            board.clear()
            self.revealed = [c for c in self.revealed if c not in cleared]
            self.discard.extend(cleared)
            self._emit("board_cleared", seat=m, board=nature, cards=cleared)

    def _expire(self):
        """End the open window as the referee: no counter; the first data listed."""
        w: dict = self.window  # type: ignore[assignment]  # a timer runs: a window is open
        self._emit("timeout", seat=w["seat"], window=w["kind"])
        if w["kind"] == "counter":
            self._answer({"type": "accept"})
        else:
            self._steal(self._steal_choices()[0])

    # --------------------------------------------------------------- turn flow

    def _open(self, kind, seat, **fields):
        """Open a window for ``seat`` with its timer."""
        self.serial += 1
        seconds = self.options["answer_seconds"]
        self.window = {"id": f"w{self.serial}", "kind": kind, "seat": seat, "seconds": seconds}
        self.window.update(fields)

    def _next_turn(self):
        """Pass the turn to the next seat (a new round after the thief's seat)."""
        seat = (self.turn + 1) % self.n
        if seat == self.first_seat():
            self._emit("round_end", round=self.round)
            if self.round >= self.rounds:
                self._finish()
                return
            self.round += 1
        self._start_turn(seat)

    def _start_turn(self, seat):
        """Start ``seat``'s turn: skip it if it must, else draw."""
        self.turn = seat
        if seat == self.thief and self.round <= OPENING_ROUNDS:
            self._next_turn()  # the thief enters on the third round
            return
        if self.skips[seat]:
            self.skips[seat] -= 1
            self._emit("turn_skipped", seat=seat, left=self.skips[seat])
            self._next_turn()
            return
        if seat == self.thief:
            self._thief_draws()
        else:
            self._manager_draws(seat)
        if not self.hands[seat]:  # nothing to play: an exhausted thief's pile
            self._emit("turn_skipped", seat=seat, left=0)
            self._next_turn()
            return
        self._emit("turn", seat=seat, round=self.round)

    def _manager_draws(self, s):
        """Draw one card from the general pile (the discard pile reshuffled when empty)."""
        if not self.deck and self.discard:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
            self.revealed = [c for c in self.revealed if c not in self.deck]
            self._emit("reshuffle", pile="general", count=len(self.deck))
        if self.deck:
            self.hands[s].append(self.deck.pop())
            self._emit("draw", seat=s, deck=len(self.deck))

    def _thief_draws(self):
        """Draw one attack card from the thief's pile (its discard reshuffled when empty)."""
        if not self.thief_deck and self.thief_discard:
            self.thief_deck, self.thief_discard = self.thief_discard, []
            self.rng.shuffle(self.thief_deck)
            self._emit("reshuffle", pile="thief", count=len(self.thief_deck))
        if self.thief_deck:
            self.hands[self.thief].append(self.thief_deck.pop())
            self._emit("draw", seat=self.thief, deck=len(self.thief_deck))

    def _finish(self):
        """End the match after the last round."""
        self.over, self.window = True, None
        result: dict = self.result()  # type: ignore[assignment]  # over is set: a dict, not None
        self._emit("game_over", winners=result["winners"], thief=self.thief)

    def _emit(self, event_type, /, **fields):
        """Record an event of the current action (every event is public)."""
        self._events.append({"type": event_type, **fields})


def thief_seat(num_players: int, options: dict) -> int:
    """Return the thief's seat: the first (a student's) or the last (a bot's when the
    table has one), as the ``thief`` option says."""
    return 0 if options.get("thief") == "student" else num_players - 1


def _illegal(code, message):
    """Return an IllegalAction without parameters."""
    return IllegalAction(code, message)


def _expiry(timer_id):
    """Return the referee's action that ends timer ``timer_id``."""
    return {"type": "expire", "timer": timer_id}


DataThief.state_class = State
