"""Data Monsters: Gather and Measure: run a data-science lab, complete shared challenges.

Each player draws from a laboratory deck (a starter set), hires monsters, installs lab
equipment, plays hacks, and plays tools whose TECH and SCI add up, within one turn, to
complete the challenges open on the market. A challenge on personal data needs a
safeguard, or scores fewer Big Data points. The rules as implemented, with every
decision the rule book leaves open, are in ``docs/rules/data_monsters.md``.

Flow of a match: turns in seat order from a random first player; a turn is the start
effects, the draw, a discard down to 6 if needed, then the main phase until
``end_turn``. Completing a challenge may open an interrupt window in which the other
seats may answer. The match ends when the last challenge is completed, or after
``ROUND_LIMIT`` rounds.
"""

from games.data_monsters import bots as _bots
from games.data_monsters import debrief as _debrief
from games.data_monsters import how_to_play as _how_to_play
from games.data_monsters import search as _search
from games.data_monsters import text as _text
from games.data_monsters import views as _views
from games.data_monsters.cards import (
    BASIC,
    BY_ID,
    DATA,
    HARD,
    KIND,
    LAB_CARDS,
    MONSTER_NAMES,
    PENALTY,
    SET_INTERRUPTS,
    SETS,
    allowed_copies,
    check_deck,
    deck_ids,
    has,
    interrupt_kinds,
    key,
    starter,
    starter_keys,
)
from games.data_monsters.cards import cards as _cards
from games.engine import IllegalAction, Text, base, gettext_noop
from games.engine.rng import RandomSource

SLUG = "data_monsters"
FORMAT = 1

HAND_LIMIT = 6  # cards a hand keeps after the draw
ROUND_LIMIT = 30  # a class lesson ends even if the last challenge is never completed
MARKET = {2: 3, 3: 4, 4: 5}  # open challenges by player count
DRAW = {2: 2, 3: 3, 4: 3}  # cards drawn each turn by player count
CHALLENGE_DECK = {2: (6, 4), 3: (7, 6), 4: (8, 7)}  # (basic, hard) by player count
DECK_CHOICES = {
    "alternate": ("startup", "enterprise"),
    "alternate_enterprise": ("enterprise", "startup"),
    "startup": ("startup",),
    "enterprise": ("enterprise",),
}
OPTIONS = (
    base.Option(
        "decks",
        gettext_noop("Laboratory decks"),
        "alternate",
        choices=(
            ("alternate", gettext_noop("Startup and Enterprise in turn, Startup first")),
            ("alternate_enterprise", gettext_noop("Enterprise and Startup in turn")),
            ("startup", gettext_noop("Everyone plays the Startup set")),
            ("enterprise", gettext_noop("Everyone plays the Enterprise set")),
        ),
    ),
    base.Option(
        "interrupt_seconds",
        gettext_noop("Seconds the other players have to interrupt"),
        15,
        3,
        120,
    ),
)
DEFAULT_OPTIONS = {option.key: option.default for option in OPTIONS}
TIE_BREAK = ("points", "hardest", "shared")
NAME = DATA["name"]
VARIANTS = DATA["variant_names"]  # ordered: standard, quick, office
ZERO = {"tech": 0, "sci": 0}
OFFICE_NO_BUILT_DECK = gettext_noop(
    "The office game shares one big deck of starter sets: a built deck cannot be played in it."
)
# The names of the kinds, and of one monster's every level, in the lesson library.
KIND_NAMES = {
    "challenge": gettext_noop("Challenge"),
    "monster": gettext_noop("Monster"),
    "equipment": gettext_noop("Lab equipment"),
    "tool": gettext_noop("Tool"),
    "hack": gettext_noop("Hack"),
}
EVERY_LEVEL = gettext_noop("%(monster)s, every level")
# Why a card with a requirement is refused, one sentence per monster class.
NEEDS_CLASS = {
    "engineer": gettext_noop("This card needs an Engineer monster in your lab."),
    "designer": gettext_noop("This card needs a Designer monster in your lab."),
    "scientist": gettext_noop("This card needs a Scientist monster in your lab."),
    "guardian": gettext_noop("This card needs a Guardian monster in your lab."),
}


class DataMonsters(base.Game["State"]):
    """The Data Monsters game: static facts and the state factory."""

    state_class: type["State"]  # set below the State class

    slug = SLUG
    name = NAME
    min_players = 2
    max_players = 4
    variants = VARIANTS
    variant_descriptions = DATA["variant_descriptions"]
    default_variant = "standard"
    # Its browser board is static/js/play/data_monsters.js: offered on the session form.
    in_class = True
    bots = {"random": _bots.RandomBot, "heuristic": _bots.HeuristicBot, "search": _search.StrongBot}
    how_to_play = _how_to_play.HOW_TO_PLAY
    options = OPTIONS
    score_columns = (
        base.ScoreColumn("points", gettext_noop("Big Data points"), gettext_noop("points"), "line"),
        base.ScoreColumn("hardest", gettext_noop("Hardest challenge"), gettext_noop("hardest")),
        base.ScoreColumn(
            "challenges", gettext_noop("Challenges completed"), gettext_noop("challenges"), "step"
        ),
    )
    notable_events = _text.NOTABLE_EVENTS
    event_labels = _text.EVENT_LABELS
    seat_fields = ("seat", "target")
    link_attributes = ("key", "monster", "class")
    seat_zones = _views.SEAT_ZONES
    table_zones = _views.TABLE_ZONES
    highlight = "safeguard"
    highlight_label = gettext_noop("safeguards, which protect personal data")
    describe_event = staticmethod(_text.describe_event)
    deck_option = "lab_decks"

    def deck_catalogue(self) -> list[dict]:
        """Return every laboratory card a built deck may hold, set by set."""
        return [
            {
                "key": e["key"],
                "name": e["name"],
                "kind": e["kind"],
                "set": e["set"],
                "allowed": allowed_copies(e),
            }
            for e in DATA["lab"]
        ]

    def starter_decks(self) -> dict[str, dict]:
        """Return the two starter sets, the decks the rule book starts from."""
        return {k: {"label": _views.SET_NAMES[k], "cards": starter_keys(k)} for k in SETS}

    def check_deck(self, keys: list[str], variant: str, num_players: int) -> list[Text]:
        """Return the deck-building rules a seat's built deck breaks; the office game
        plays its one shared deck of starter sets and takes no built deck."""
        if variant == "office":
            return [Text(OFFICE_NO_BUILT_DECK)]
        return check_deck(list(keys))

    def cards(self, variant: str, kinds: frozenset[str] | None = None) -> list[dict]:
        """Return the card dicts of ``variant`` (no card's text names another kind, so
        every deck of ``kinds`` reads the same)."""
        self.check_variant(variant)
        return _cards(variant)

    def link_name(self, kind: str, attributes: dict[str, str]) -> Text | None:
        """Name every card of a kind ("Tool"), and one monster at every level."""
        if not attributes and kind in KIND_NAMES:
            return Text(KIND_NAMES[kind])
        if set(attributes) == {"monster"} and attributes["monster"] in MONSTER_NAMES:
            return Text(EVERY_LEVEL, {"monster": MONSTER_NAMES[attributes["monster"]]})
        return None

    def seat_notes(self, data: dict, seat: int) -> list[Text]:
        """Return the replay's notes on a seat: its starter set."""
        return _views.seat_notes(data, seat)

    def debrief(self) -> base.Debrief:
        """Return the debrief's observer: completions by safeguard, safeguards, interrupts."""
        return _debrief.DataMonstersDebrief()

    def sample_state(self, view: dict, rng: RandomSource) -> "State":
        """Return a state ``view`` could have come from: unseen cards dealt with ``rng``."""
        dealt = challenges_dealt(view["variant"], view["num_players"])
        return State.from_json(self, _search.determinise(view, rng, dealt, DEFAULT_OPTIONS))

    def evaluate(self, state: "State") -> list[float]:
        """Return each seat's chance of winning, guessed from the points and the labs."""
        return _search.evaluate(state)

    def rollout_action(
        self, state: "State", seat: int, legal: list[dict], rng: RandomSource
    ) -> dict:
        """Return the friendly bot's move for a search's playout."""
        return _search.rollout_action(state, seat, legal, rng)


_FIELDS = (
    "variant",
    "seed",
    "options",
    "sets",
    "pile",
    "decks",
    "recycle",
    "box",
    "hands",
    "labs",
    "build",
    "globals",
    "challenge_deck",
    "market",
    "completed",
    "unsafe",
    "first",
    "turn",
    "round",
    "phase",
    "pool",
    "limit_used",
    "safe_turn",
    "blocked",
    "window",
    "serial",
    "over",
    "ply",
    "last_events",
)


class State(base.FieldsState):
    """One match of Data Monsters."""

    __slots__ = _FIELDS
    slug, format, fields = SLUG, FORMAT, _FIELDS

    # The fields' types that the checker cannot infer from ``__init__``.
    recycle: list[list[str]]
    hands: list[list[str]]
    labs: list[list[str]]
    build: list[str]
    globals: list[dict]  # {"card", "owner"}
    completed: list[list[str]]
    unsafe: list[list[str]]
    blocked: list[str]
    window: dict | None  # the interrupt window of a completion
    last_events: list[dict]

    def __init__(
        self, game: DataMonsters, num_players: int, seed: int, variant: str, options: dict | None
    ) -> None:
        self.start(game, num_players, seed, variant, options)
        n = num_players
        self._deal_labs()
        self._deal_challenges()
        self.hands = [[] for _ in range(n)]
        self.labs = [[] for _ in range(n)]
        self.completed = [[] for _ in range(n)]
        self.unsafe = [[] for _ in range(n)]
        self.build, self.globals = [], []
        self.pool, self.limit_used, self.safe_turn = dict(ZERO), False, False
        self.blocked = []  # challenges a Scope Creep kept from the turn player this turn
        self.window, self.serial, self.over, self.ply = None, 0, False, 0
        self.first = self.rng.below(n)
        self.round, self.turn, self.phase = 1, self.first, "main"
        for s in range(n):
            self._draw(s, 3 if s == self.first else 4)
        self._emit("setup", seat=self.first, sets=list(self.sets), market=list(self.market))
        self._start_turn(self.first)
        self.last_events = self._events

    def _deal_labs(self):
        """Shuffle each seat's laboratory deck (one shared deck in the office game)."""
        order = DECK_CHOICES[self.options["decks"]]
        self.sets = [order[s % len(order)] for s in range(self.n)]
        built = self.options.get(self.game.deck_option)
        used = []
        if built:
            for deck in built:
                problems = self.game.check_deck(deck, self.variant, self.n)
                if problems:
                    raise ValueError(f"a built deck breaks the rules: {problems[0].message}")
            self.decks = [deck_ids(built[s % len(built)], s + 1) for s in range(self.n)]
            self.pile = list(range(self.n))
            self.sets = ["built"] * self.n
            used = [c for deck in self.decks for c in deck]
        elif self.variant == "office":
            shared = [
                c for slot in (1, 2) for st in ("startup", "enterprise") for c in starter(st, slot)
            ]
            self.decks, self.pile = [shared], [0] * self.n
            self.sets = ["office"] * self.n
            used = shared
        else:
            self.decks = [starter(self.sets[s], s + 1) for s in range(self.n)]
            self.pile = list(range(self.n))
            used = [c for deck in self.decks for c in deck]
        for deck in self.decks:
            self.rng.shuffle(deck)
        self.recycle = [[] for _ in self.decks]
        taken = set(used)
        self.box = [c["id"] for c in LAB_CARDS if c["id"] not in taken]

    def _deal_challenges(self):
        """Draw the challenge deck for the table size and open the market."""
        basic, hard = list(BASIC), list(HARD)
        self.rng.shuffle(basic)
        self.rng.shuffle(hard)
        nb, nh = challenges_dealt(self.variant, self.n)
        self.challenge_deck = basic[:nb] + hard[:nh]
        self.rng.shuffle(self.challenge_deck)
        self.box.extend(basic[nb:] + hard[nh:])
        self.market = []
        self._refill_market()

    # ----------------------------------------------------------------- protocol

    def to_move(self) -> list[int]:
        """Return the seats that may act: the window's waiting seats, or the turn player."""
        if self.over:
            return []
        if self.window:
            return list(self.window["waiting"])
        return [self.turn]

    def timers(self) -> list[dict]:
        """Return the interrupt window's timer, if one is open."""
        if self.over or not self.window:
            return []
        w = self.window
        return [{"id": w["id"], "seconds": w["seconds"], "action": _expiry(w["id"])}]

    def timer_info(self, timer_id: str) -> dict:
        """Return what the interrupt window waits for; every seat may know of it."""
        if self.window and self.window["id"] == timer_id:
            return {"kind": "interrupt", "seat": self.window["seat"], "visible_to": None}
        return super().timer_info(timer_id)

    def legal_actions(self, seat: int | None) -> list[dict]:
        """Return the actions ``seat`` may take now (``None``: the referee's expiry)."""
        return [dict(action) for action in self._legal_list(seat)]

    def apply(self, seat: int | None, action: dict) -> list[dict]:
        """Apply ``action`` for ``seat`` and return the events; refuse anything not legal."""
        if action not in self._legal_list(seat):
            raise self._refusal(seat, action)
        self._legal_seat = base.UNASKED
        events: list[dict]
        self._events = events = []
        handler = {
            "expire": self._expire,
            "discard": lambda: self._discard(seat, action["card"]),
            "play": lambda: self._play(seat, action["card"]),
            "complete": lambda: self._complete(seat, action["challenge"]),
            "end_turn": self._end_turn,
            "interrupt": lambda: self._close_window(seat, action["card"]),
            "pass": lambda: self._pass(seat),
        }[action["type"]]
        handler()
        self.ply += 1
        self.last_events = events
        return list(events)

    def view(self, seat: int | None) -> dict:
        """Return what ``seat`` may see; ``None`` gives the public view."""
        return _views.view(self, seat)

    def private_cards(self, seat: int) -> list[str]:
        """Return the ids only ``seat`` sees: its hand."""
        return list(self.hands[seat])

    def zones(self) -> dict[str, list[str]]:
        """Return every zone's card ids (``deck``: every face-down pile and the box)."""
        hidden = [c for deck in self.decks for c in deck] + self.challenge_deck + self.box
        z = {"deck": hidden, "build": list(self.build), "market": list(self.market)}
        z["globals"] = [g["card"] for g in self.globals]
        for p, bin_ in enumerate(self.recycle):
            z[f"recycle:{p}"] = list(bin_)
        for s in range(self.n):
            z[f"hand:{s}"] = list(self.hands[s])
            z[f"lab:{s}"] = list(self.labs[s])
            z[f"completed:{s}"] = list(self.completed[s])
        return z

    def is_over(self) -> bool:
        """Return True once the last challenge is completed or the rounds ran out."""
        return self.over

    def scores(self) -> list[dict]:
        """Return each seat's Big Data points, its hardest challenge and its count."""
        out = []
        for s in range(self.n):
            done = self.completed[s]
            points = sum(BY_ID[c]["points"] for c in done) - PENALTY * len(self.unsafe[s])
            # the hardest challenge's points as its card prints them (5 + its circles):
            # the number a player finds on the card; 0 when none is completed
            hardest = max((BY_ID[c]["points"] for c in done), default=0)
            out.append({"seat": s, "points": points, "hardest": hardest, "challenges": len(done)})
        return out

    def result(self) -> dict | None:
        """Return winners, ranking groups, scores and the tie-break level that decided."""
        if not self.over:
            return None
        scores = self.scores()
        keys = [(sc["points"], sc["hardest"]) for sc in scores]
        ranking = base.ranking(keys)
        winners = ranking[0]
        if len(winners) > 1:
            decided_by = "shared"
        else:
            best, runner = keys[winners[0]], keys[ranking[1][0]]
            decided_by = "points" if best[0] != runner[0] else "hardest"
        return {
            "winners": winners,
            "ranking": ranking,
            "scores": scores,
            "decided_by": decided_by,
            "tie_break": list(TIE_BREAK),
        }

    # ----------------------------------------------------------- the laboratory

    def lab_classes(self, s: int) -> set[str]:
        """Return the classes of the monsters in seat ``s``'s lab."""
        return {BY_ID[c]["class"] for c in self.labs[s] if KIND[c] == "monster"}

    def lab_monster(self, s: int, name: str) -> str | None:
        """Return the monster of ``name`` in seat ``s``'s lab, if any."""
        return next((c for c in self.labs[s] if BY_ID[c]["monster"] == name), None)

    def safeguarded(self, s: int) -> bool:
        """Tell whether seat ``s``'s challenges this turn have a safeguard."""
        return self.safe_turn or any(BY_ID[c]["safeguard"] for c in self.build + self.labs[s])

    def cost(self, challenge: str) -> dict:
        """Return the TECH and SCI a challenge needs now, global tools counted."""
        card = BY_ID[challenge]
        tech, sci = card["tech"], card["sci"]
        for g in self.globals:
            effect = BY_ID[g["card"]]["global"]
            if effect.get("personal") and not card["personal"]:
                continue
            tech += effect.get("tech", 0)
            sci += effect.get("sci", 0)
        return {"tech": max(tech, 0), "sci": max(sci, 0)}

    def affords(self, cost: dict) -> bool:
        """Tell whether this turn's pool covers ``cost``."""
        return self.pool["tech"] >= cost["tech"] and self.pool["sci"] >= cost["sci"]

    def play_refusal(self, s: int, card: str) -> IllegalAction | None:
        """Return why seat ``s`` may not play ``card`` in its main phase now, or None."""
        entry = BY_ID[card]
        if has(card, "interrupt"):
            return _illegal(
                "interrupt_only",
                gettext_noop(
                    "An interrupt is played only when another player completes a challenge."
                ),
            )
        if has(card, "limit") and self.limit_used:
            return _illegal(
                "limit_used", gettext_noop("You already played a limit card this turn.")
            )
        missing = [c for c in entry["requires"] if c not in self.lab_classes(s)]
        if missing:
            return _illegal("requirement", NEEDS_CLASS[missing[0]])
        if entry["kind"] == "monster":
            return self._hire_refusal(s, card)
        if entry["kind"] == "equipment" and any(key(c) == entry["key"] for c in self.labs[s]):
            return _illegal("equipped", gettext_noop("This equipment is already in your lab."))
        if has(card, "stack"):
            built = {key(c) for c in self.build}
            if not set(entry["recipe"]) <= built:
                return _illegal(
                    "recipe",
                    gettext_noop("Play every component of the stack's recipe in this build first."),
                )
        return None

    def _hire_refusal(self, s, card):
        """Explain why a monster may not join the lab (promotion by name and level)."""
        entry = BY_ID[card]
        current = self.lab_monster(s, entry["monster"])
        level = BY_ID[current]["level"] if current else 0
        if entry["level"] > level + 1:
            return _illegal(
                "promotion",
                gettext_noop(
                    "Promote step by step: this monster needs its previous level in your lab."
                ),
            )
        return None

    # ------------------------------------------------------------ legal actions

    def _compute_legal(self, seat):
        """Compute the legal actions of ``seat``: the one source of legality."""
        if self.over:
            return []
        if seat is None:
            return [t["action"] for t in self.timers()]
        if seat not in self.to_move():
            return []
        if self.window:
            w = self.window
            fits = [
                c for c in self.hands[seat] if self._interrupt_fits(c, w["challenge"], w["safe"])
            ]
            return [*({"type": "interrupt", "card": c} for c in fits), {"type": "pass"}]
        if self.phase == "discard":
            return [{"type": "discard", "card": c} for c in self.hands[seat]]
        plays = [
            {"type": "play", "card": c}
            for c in self.hands[seat]
            if self.play_refusal(seat, c) is None
        ]
        completes = [
            {"type": "complete", "challenge": c}
            for c in self.market
            if c not in self.blocked and self.affords(self.cost(c))
        ]
        return [*plays, *completes, {"type": "end_turn"}]

    def _interrupt_fits(self, card, challenge, safe):
        """Tell whether interrupt ``card`` answers the completion of ``challenge``."""
        return _fits(BY_ID[card]["interrupt"], challenge, safe)

    def may_interrupt(self, s: int, challenge: str, safe: bool) -> bool:
        """Tell whether seat ``s`` might hold an interrupt that answers the completion of
        ``challenge``, judged only by what the whole table knows: the seat holds a card,
        and its laboratory deck's card list (public: its set, or its built deck's list)
        holds a fitting interrupt. An interrupt never lies face up (it goes from a hand
        straight to the recycle bin), so no public zone can rule a copy out."""
        if not self.hands[s]:
            return False
        if self.sets[s] == "built":
            built = self.options[self.game.deck_option]
            kinds = interrupt_kinds(built[s % len(built)])
        else:
            kinds = SET_INTERRUPTS[self.sets[s]]
        return any(_fits(kind, challenge, safe) for kind in kinds)

    def _refusal(self, seat, action):
        """Return the IllegalAction that explains why ``action`` is refused."""
        if self.over:
            return _illegal("game_over", gettext_noop("The game is over."))
        if seat is None:
            return _illegal("stale_timer", gettext_noop("This timer is not running (any more)."))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            return IllegalAction(
                "bad_seat", gettext_noop("There is no seat %(seat)s."), {"seat": str(seat)}
            )
        kind = action.get("type") if isinstance(action, dict) else None
        card = action.get("card") if isinstance(action, dict) else None
        if self.window and seat not in self.to_move():
            return _illegal(
                "window_open", gettext_noop("Please wait: the other players may interrupt.")
            )
        if seat not in self.to_move():
            return _illegal("not_your_turn", gettext_noop("Please wait: it is not your turn."))
        reason = None
        if kind in ("play", "discard", "interrupt") and card not in self.hands[seat]:
            reason = _illegal("card_not_held", gettext_noop("You do not hold this card."))
        elif self.phase == "discard" and not self.window and kind != "discard":
            reason = _illegal(
                "discard_first", gettext_noop("First discard down to 6 cards in your hand.")
            )
        elif kind == "play" and not self.window and self.phase == "main":
            # the card is held (the first test): a card id, not None
            reason = self.play_refusal(seat, card)  # type: ignore[arg-type]
        elif kind == "complete" and action.get("challenge") in self.blocked:
            reason = _illegal(
                "blocked",
                gettext_noop("Scope Creep: you cannot complete this challenge this turn."),
            )
        elif kind == "complete" and action.get("challenge") in self.market:
            reason = _illegal(
                "not_enough",
                gettext_noop("Your build does not have enough TECH and SCI for this challenge."),
            )
        return reason or _illegal("illegal_action", gettext_noop("This move is not allowed now."))

    # ------------------------------------------------------------------ actions

    def _discard(self, s, card):
        """Discard a card face down into the recycle bin (down to 6 in hand)."""
        self.hands[s].remove(card)
        self.recycle[self.pile[s]].append(card)
        self._emit("discard", seat=s, hand=len(self.hands[s]))
        if len(self.hands[s]) <= HAND_LIMIT:
            self.phase = "main"

    def _play(self, s, card):
        """Play a card from the hand: a monster, equipment, hack, tool or global tool."""
        self.hands[s].remove(card)
        if has(card, "limit"):
            self.limit_used = True
        kind = KIND[card]
        if kind == "monster":
            self._hire(s, card)
        elif kind == "equipment":
            self.labs[s].append(card)
            self._emit("equipped", seat=s, card=card)
        elif kind == "hack":
            self._emit("hack", seat=s, card=card)
            self._gain(s, BY_ID[card])
            # after its draw: a reshuffle never hides the card the event names
            self.recycle[self.pile[s]].append(card)
            if BY_ID[card]["safeguard"]:
                self.safe_turn = True
        elif has(card, "global"):
            self.globals.append({"card": card, "owner": s})
            self._emit("global_on", seat=s, card=card)
        else:
            self._tool(s, card)

    def _hire(self, s, card):
        """Put a monster in the lab; one of its name already there goes to the recycle bin."""
        entry = BY_ID[card]
        old = self.lab_monster(s, entry["monster"])
        if old:
            self.labs[s].remove(old)
            self.recycle[self.pile[s]].append(old)
        self.labs[s].append(card)
        level = BY_ID[old]["level"] if old else 0
        event = "promoted" if entry["level"] > level and old else "hired"
        self._emit(event, seat=s, card=card, replaced=old)

    def _tool(self, s, card):
        """Add a tool to the build: its TECH and SCI join the pool (components in pairs)."""
        entry = BY_ID[card]
        components = [c for c in self.build if has(c, "component")]
        self.build.append(card)
        gain = {"tech": entry["tech"], "sci": entry["sci"], "draw": entry["draw"]}
        if has(card, "component"):
            if not components:
                gain = {"draw": entry["draw"]}  # alone it gives nothing, yet
            elif len(components) == 1:  # the pair is made: the first one counts now too
                gain["tech"] += BY_ID[components[0]]["tech"]
                gain["sci"] += BY_ID[components[0]]["sci"]
        bonus = entry["bonus"]
        if bonus and bonus["class"] in self.lab_classes(s):
            gain["tech"] = gain.get("tech", 0) + bonus.get("tech", 0)
            gain["sci"] = gain.get("sci", 0) + bonus.get("sci", 0)
        self._emit("tool", seat=s, card=card, tech=gain.get("tech", 0), sci=gain.get("sci", 0))
        self._gain(s, gain)

    def _gain(self, s, gain):
        """Add TECH and SCI to the pool and draw the cards an effect gives."""
        self.pool["tech"] += gain.get("tech", 0)
        self.pool["sci"] += gain.get("sci", 0)
        if gain.get("draw"):
            self._draw(s, gain["draw"])

    def _complete(self, s, challenge):
        """Complete a market challenge, or open an interrupt window first."""
        safe = self.safeguarded(s)
        cost = self.cost(challenge)
        others = [o for o in range(self.n) if o != s]
        # Whether the window opens must tell nobody what a hand holds: it opens when public
        # information leaves an answer possible, and then for every other seat alike.
        if not any(self.may_interrupt(o, challenge, safe) for o in others):
            self._take(s, challenge, cost, safe)
            return
        self.serial += 1
        self.window = {"id": f"w{self.serial}", "seconds": self.options["interrupt_seconds"]}
        self.window.update(challenge=challenge, seat=s, safe=safe, cost=cost, waiting=others)
        self._emit("window", seat=s, challenge=challenge, waiting=list(others))

    def _expire(self):
        """End the window as the referee: nobody interrupted in time."""
        w: dict = self.window  # type: ignore[assignment]  # a timer runs: a window is open
        self._emit("timeout", seat=w["seat"], waiting=list(w["waiting"]))
        self._close_window(None)

    def _pass(self, seat):
        """Let the completion go on for this seat; the last pass closes the window."""
        w: dict = self.window  # type: ignore[assignment]  # a pass answers the open window
        w["waiting"].remove(seat)
        self._emit("passed", seat=seat)
        if not w["waiting"]:
            self._close_window(None)

    def _close_window(self, seat, card=None):
        """Close the window: with ``card``, ``seat``'s interrupt; else the completion."""
        w: dict
        w, self.window = self.window, None  # type: ignore[assignment]  # closes the open one
        s, challenge, cost = w["seat"], w["challenge"], dict(w["cost"])
        if seat is None:
            self._take(s, challenge, cost, w["safe"])
            return
        self.hands[seat].remove(card)
        self.recycle[self.pile[seat]].append(card)
        kind = BY_ID[card]["interrupt"]
        self._emit("interrupted", seat=seat, target=s, card=card, challenge=challenge)
        if kind == "scope_creep":
            cost = {"tech": cost["tech"] + 1, "sci": cost["sci"] + 1}
            if self.affords(cost):
                self._take(s, challenge, cost, w["safe"])
            else:
                self.blocked.append(challenge)
        else:  # a complaint: the work is spent, the challenge stays
            self.pool["tech"] -= cost["tech"]
            self.pool["sci"] -= cost["sci"]

    def _take(self, s, challenge, cost, safe):
        """Pay the cost, take the challenge from the market, and end the game if last."""
        self.pool["tech"] -= cost["tech"]
        self.pool["sci"] -= cost["sci"]
        self.market.remove(challenge)
        self.completed[s].append(challenge)
        unsafe = BY_ID[challenge]["personal"] and not safe
        if unsafe:
            self.unsafe[s].append(challenge)
        points = BY_ID[challenge]["points"] - (PENALTY if unsafe else 0)
        self._emit("completed", seat=s, challenge=challenge, points=points, safe=not unsafe)
        self._refill_market()
        if not self.market:
            self._finish()

    def _refill_market(self):
        """Open challenges from the deck until the market is full or the deck is empty."""
        while len(self.market) < MARKET[self.n] and self.challenge_deck:
            card = self.challenge_deck.pop()
            self.market.append(card)
            self._emit("market", challenge=card)

    # --------------------------------------------------------------- turn flow

    def _start_turn(self, s):
        """Start ``s``'s turn: its globals leave, start effects, the draw, maybe a discard."""
        self.turn, self.pool = s, dict(ZERO)
        self.limit_used = self.safe_turn = False
        self.blocked = []
        for g in [g for g in self.globals if g["owner"] == s]:
            self.globals.remove(g)
            self.recycle[self.pile[s]].append(g["card"])
            self._emit("global_off", seat=s, card=g["card"])
        self._emit("turn", seat=s, round=self.round)
        for card in list(self.labs[s]):
            self._gain(s, BY_ID[card]["start"])
        self._draw(s, DRAW[self.n])
        self.phase = "discard" if len(self.hands[s]) > HAND_LIMIT else "main"

    def _end_turn(self):
        """End the turn: end effects, the build to the recycle bin, the next seat."""
        s = self.turn
        for card in list(self.labs[s]):
            self._gain(s, BY_ID[card]["end"])
        self.recycle[self.pile[s]].extend(self.build)
        self.build = []
        self._emit("turn_end", seat=s)
        nxt = (s + 1) % self.n
        if nxt == self.first:
            if self.round >= ROUND_LIMIT:
                self._finish()
                return
            self.round += 1
        self._start_turn(nxt)

    def _draw(self, s, count):
        """Draw ``count`` cards from seat ``s``'s laboratory deck (recycled when empty)."""
        p = self.pile[s]
        drawn = 0
        for _ in range(count):
            if not self.decks[p] and self.recycle[p]:
                self.decks[p], self.recycle[p] = self.recycle[p], []
                self.rng.shuffle(self.decks[p])
                self._emit("reshuffle", seat=s, count=len(self.decks[p]))
            if not self.decks[p]:
                break
            self.hands[s].append(self.decks[p].pop())
            drawn += 1
        if drawn:
            self._emit("draw", seat=s, count=drawn)

    def _finish(self):
        """End the match: the tools still in the build go to their recycle bin."""
        self.recycle[self.pile[self.turn]].extend(self.build)
        self.build, self.over, self.window = [], True, None
        # over is set: result() is a dict, not None
        self._emit("game_over", winners=self.result()["winners"])  # type: ignore[index]

    def _emit(self, event_type, /, **fields):
        """Record an event of the current action (every event is public)."""
        self._events.append({"type": event_type, **fields})


def challenges_dealt(variant: str, num_players: int) -> tuple[int, int]:
    """Return how many basic and hard challenges a match deals (the quick game: basic only)."""
    return (8, 0) if variant == "quick" else CHALLENGE_DECK[num_players]


def _fits(kind, challenge, safe):
    """Tell whether an interrupt of ``kind`` answers the completion of ``challenge``."""
    if kind == "complaint":
        return BY_ID[challenge]["personal"] and not safe
    return kind == "scope_creep"


def _illegal(code, message):
    """Return an IllegalAction without parameters."""
    return IllegalAction(code, message)


def _expiry(timer_id):
    """Return the referee's action that ends timer ``timer_id``."""
    return {"type": "expire", "timer": timer_id}


DataMonsters.state_class = State
