"""Conspiranoia: duels of Attack and Defence between the characters of a conspiracy.

A player acts with three cards of one kind, taken from their hand and the table,
maybe doubled by an Avatar card of their own character; an attacked player may
block out of turn with a Defence; whoever is left with life points wins. The
rules as implemented, with every decision the rule book leaves open, are in
``docs/rules/conspiranoia.md``.

Flow of a match: ``stage`` walks ``choose`` (each player picks a character) ->
``play`` (turns; a ``defence`` window may interrupt one) -> ``round_end`` (a pause
the referee ends with the next deal) -> ``play`` -> ... -> ``over``.
"""

from collections import namedtuple

from games.conspiranoia import bots as _bots
from games.conspiranoia import debrief as _debrief
from games.conspiranoia import how_to_play as _how_to_play
from games.conspiranoia import text as _text
from games.conspiranoia import views as _views
from games.conspiranoia.cards import AVATARS, CHARACTER, CHARACTERS, DATA, IDENTITY, KIND
from games.conspiranoia.cards import card_ids as _card_ids
from games.conspiranoia.cards import cards as _cards
from games.engine import IllegalAction, Text, base, gettext_noop

SLUG = "conspiranoia"
FORMAT = 1

SET_SIZE = 3  # cards of one kind that make an action
HAND_SIZE = 3  # cards dealt to each player per round
TABLE_DEAL = 4  # cards laid face up on the table per round
AVATAR_FACTOR = 2  # an Avatar card doubles an action
HEAL_POINTS = 1  # life points the alternative Defence restores

# The options a teacher may set per session (validated by ``game.clean_options``);
# a variant may change their defaults (``VARIANT_OPTIONS``).
OPTIONS = (
    base.Option(
        "life_points",
        gettext_noop("Life points of each player"),
        23,  # the rule book suggests 23
        5,
        50,
    ),
    base.Option(
        "max_rounds",
        gettext_noop("Round limit (then the most life points wins)"),
        50,  # the safe end: see "The end" in the rules doc
        5,
        200,
    ),
    base.Option("choose_seconds", gettext_noop("Seconds to choose a character"), 30, 5, 300),
    base.Option("defence_seconds", gettext_noop("Seconds to defend an attack"), 15, 3, 120),
    base.Option("round_pause_seconds", gettext_noop("Seconds between two rounds"), 3, 1, 60),
)
DEFAULT_OPTIONS = {option.key: option.default for option in OPTIONS}
VARIANT_OPTIONS = {
    "standard": {},
    "quick": {"life_points": 15, "max_rounds": 30},
}
TIE_BREAK = ("last_standing", "life", "rounds", "damage_dealt", "blocks", "shared")

# The declarative card table: what each action is made of.
#   cards     -- {card kind: the points one card of that kind is worth in the action};
#                a set of three counts at its weakest card (a Bonus lowers it)
#   avatar    -- whether an Avatar card of one's own character doubles it, and whether
#                three Avatar cards plus one card of the action make it too
#   blockable -- whether the target gets a defence window (attacks only)
Play = namedtuple("Play", "cards avatar blockable")
PLAYS = {
    "attack": Play(cards={"attack": 3, "bonus": 2}, avatar=True, blockable=True),
    "special_attack": Play(cards={"special_attack": 6}, avatar=True, blockable=False),
    "defend": Play(cards={"defence": 3, "bonus": 1}, avatar=True, blockable=False),
    "heal": Play(cards={"defence": HEAL_POINTS}, avatar=False, blockable=False),
}
ATTACKS = ("attack", "special_attack")
SET_ACTIONS = (*ATTACKS, "heal", "defend")

NAME = DATA["name"]
VARIANTS = DATA["variant_names"]  # ordered: standard, quick
VARIANT_DESCRIPTIONS = DATA["variant_descriptions"]


class Conspiranoia(base.Game["State"]):
    """The Conspiranoia game: static facts and the state factory."""

    state_class: type["State"]  # set below the State class

    slug = SLUG
    name = NAME
    min_players = 2
    max_players = 4
    variants = VARIANTS
    variant_descriptions = VARIANT_DESCRIPTIONS
    default_variant = "standard"
    bots = {"random": _bots.RandomBot, "heuristic": _bots.HeuristicBot}
    how_to_play = _how_to_play.HOW_TO_PLAY
    options = OPTIONS
    # In ranking order: a player out of the game has 0 life; among them, the later out
    # has more rounds in the game.
    score_columns = (
        base.ScoreColumn("life", gettext_noop("Life points"), gettext_noop("life"), "line"),
        base.ScoreColumn("rounds", gettext_noop("Rounds in the game"), gettext_noop("rounds")),
        base.ScoreColumn(
            "damage_dealt", gettext_noop("Damage dealt"), gettext_noop("damage"), "step"
        ),
        base.ScoreColumn("blocks", gettext_noop("Attacks defended"), gettext_noop("defences")),
    )
    notable_events = _text.NOTABLE_EVENTS
    event_labels = _text.EVENT_LABELS
    link_attributes = ("character",)
    seat_zones = _views.SEAT_ZONES
    table_zones = _views.TABLE_ZONES

    variant_options = VARIANT_OPTIONS
    describe_event = staticmethod(_text.describe_event)

    def cards(self, variant: str, kinds: frozenset[str] | None = None) -> list[dict]:
        """Return the card dicts of ``variant`` (no card's text names another kind, so
        every deck of ``kinds`` reads the same)."""
        self.check_variant(variant)
        return _cards(variant)

    def debrief(self) -> base.Debrief:
        """Return a fresh observer of one table's replay for the debrief."""
        return _debrief.ConspiranoiaDebrief()

    def seat_notes(self, data: dict, seat: int) -> list[Text]:
        """Return the replay's notes on a seat: the dealer, a player out of the game."""
        return _views.seat_notes(data, seat)


_FIELDS = (
    "variant",
    "seed",
    "options",
    "deck",
    "table",
    "pile",
    "box",
    "hands",
    "identity",
    "character",
    "life",
    "rounds",
    "damage_dealt",
    "blocks",
    "out",
    "dealer",
    "turn",
    "round",
    "stage",
    "window",
    "serial",
    "over",
    "ended_by",
    "ply",
    "last_events",
)


class State(base.FieldsState):
    """One match of Conspiranoia."""

    __slots__ = _FIELDS
    slug, format, fields = SLUG, FORMAT, _FIELDS

    # The fields' types that the checker cannot infer from ``__init__``.
    table: list[str]
    pile: list[str]
    box: list[str]
    hands: list[list[str]]
    identity: list[list[str]]
    character: list[str | None]  # None until the seat has chosen
    out: list[int]
    window: dict | None  # the one timed window: a choice, a defence or the round's pause
    ended_by: str | None
    last_events: list[dict]

    def __init__(
        self,
        game: Conspiranoia,
        num_players: int,
        seed: int,
        variant: str,
        options: dict | None = None,
    ) -> None:
        self.start(game, num_players, seed, variant, options)
        n = num_players
        self.deck = list(_card_ids(variant))  # shuffled once the characters are chosen
        self.table, self.pile, self.box = [], [], []
        self.hands, self.identity = [[] for _ in range(n)], [[] for _ in range(n)]
        self.character = [None] * n
        self.life = [self.options["life_points"]] * n
        self.rounds, self.damage_dealt, self.blocks = [0] * n, [0] * n, [0] * n
        self.out = []  # seats in the order they were knocked out
        self.dealer = n - 1  # so that seat 0, on the dealer's right, plays first
        self.turn, self.round, self.stage = 0, 0, "choose"
        self.window, self.serial, self.over, self.ended_by, self.ply = None, 0, False, None, 0
        self._emit("setup", dealer=self.dealer, life=self.options["life_points"])
        self._open("choose", self._right_of(self.dealer), self.options["choose_seconds"])
        self.last_events = self._events

    # ----------------------------------------------------------------- protocol

    def to_move(self) -> list[int]:
        """Return the seats that may act now: the window's actor, or the turn player."""
        if self.over or self.stage == "round_end":
            return []
        if self.window:
            return [self.window["seat"]]
        return [self.turn]

    def timers(self) -> list[dict]:
        """Return the running timer: the open window's (choice, defence or round pause)."""
        if self.over or not self.window:
            return []
        w = self.window
        return [{"id": w["id"], "seconds": w["seconds"], "action": _expiry(w["id"])}]

    def timer_info(self, timer_id: str) -> dict:
        """Return what the open window's timer waits for; every seat may know of it."""
        if self.window and self.window["id"] == timer_id:
            return {"kind": self.window["kind"], "seat": self.window["seat"], "visible_to": None}
        return super().timer_info(timer_id)

    def legal_actions(self, seat: int | None) -> list[dict]:
        """Return the actions ``seat`` may take now (``None``: the referee's expiries)."""
        return [dict(action) for action in self._legal_list(seat)]  # callers may mutate them

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
        elif kind == "choose":
            self._choose(seat, action["character"])
        elif kind in ("defend", "take"):
            self._answer(seat, action)
        else:
            self._turn_action(seat, action)
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
        """Return every zone's card ids."""
        z = {
            "deck": list(self.deck),
            "table": list(self.table),
            "pile": list(self.pile),
            "box": list(self.box),
        }
        for s in range(self.n):
            z[f"hand:{s}"] = list(self.hands[s])
            z[f"identity:{s}"] = list(self.identity[s])
        return z

    def is_over(self) -> bool:
        """Return True once one player is left, or the round limit is reached."""
        return self.over

    def scores(self) -> list[dict]:
        """Return each seat's life, rounds in the game, damage dealt and attacks defended."""
        return [
            {
                "seat": s,
                "life": self.life[s],
                "rounds": self.rounds[s],
                "damage_dealt": self.damage_dealt[s],
                "blocks": self.blocks[s],
            }
            for s in range(self.n)
        ]

    def result(self) -> dict | None:
        """Return winners, ranking groups, scores and the tie-break level that decided."""
        if not self.over:
            return None
        scores = self.scores()
        keys = [(sc["life"], sc["rounds"], sc["damage_dealt"], sc["blocks"]) for sc in scores]
        ranking = base.ranking(keys)
        winners = ranking[0]
        if self.ended_by == "last_standing":
            decided_by = "last_standing"
        elif len(winners) > 1:
            decided_by = "shared"
        else:
            best, runner = keys[winners[0]], keys[ranking[1][0]]
            decided_by = next(TIE_BREAK[1 + i] for i in range(4) if best[i] != runner[i])
        return {
            "winners": winners,
            "ranking": ranking,
            "scores": scores,
            "decided_by": decided_by,
            "ended_by": self.ended_by,
            "tie_break": list(TIE_BREAK),
        }

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
        if w and w["kind"] == "choose":
            return [{"type": "choose", "character": c} for c in self.free_characters()]
        if w and w["kind"] == "defence":
            defences = [
                {"type": "defend", "cards": cards, "points": points}
                for cards, points in self._sets(seat, "defend")
            ]
            return [*defences, {"type": "take"}]
        return self._turn_actions(seat)

    def _turn_actions(self, s):
        """Return the turn player's actions: attacks, heals, or else discards."""
        attacks: list[dict] = []
        for t in self._opponents(s):
            for play in ATTACKS:
                attacks.extend(
                    {"type": play, "target": t, "cards": cards, "points": points}
                    for cards, points in self._sets(s, play)
                )
        heals = []
        if self.life[s] < self.options["life_points"]:
            heals = [{"type": "heal", "cards": cards} for cards, _ in self._sets(s, "heal")]
        if attacks:
            return attacks + heals
        return heals + [{"type": "discard", "card": c} for c in self.hands[s]]

    def _sets(self, s, play):
        """Return ``[(card ids, points)]``: every distinct way ``s`` can make ``play``."""
        return _sets(PLAYS[play], self.hands[s], self.table, self.character[s])

    def _opponents(self, s):
        """Return the seats ``s`` may attack: every other player still in the game."""
        return [t for t in range(self.n) if t != s and self.life[t] > 0]

    def free_characters(self) -> list[str]:
        """Return the characters nobody has chosen yet, in catalogue order."""
        return [c for c in CHARACTERS if c not in self.character]

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
            return _illegal("not_your_turn", gettext_noop("Please wait: it is not your turn."))
        kind = action.get("type") if isinstance(action, dict) else None
        chosen = action.get("character") if kind == "choose" else None
        if chosen in CHARACTERS and chosen in self.character:
            return _illegal(
                "character_taken", gettext_noop("Another player has chosen this character.")
            )
        if kind == "discard" and not self.window and "discard" not in self._kinds(seat):
            return _illegal(
                "must_act",
                gettext_noop(
                    "You can attack, so you may not discard: a player discards only when "
                    "no attack is possible."
                ),
            )
        if kind == "discard" and action.get("card") not in self.hands[seat]:
            return _illegal("card_not_held", gettext_noop("You do not hold this card."))
        if kind in SET_ACTIONS and isinstance(action.get("cards"), list):
            reason = self._set_refusal(seat, kind, action)
            if reason is not None:
                return reason
        return _illegal("illegal_action", gettext_noop("This move is not allowed now."))

    def _kinds(self, seat):
        """Return the action types open to ``seat``."""
        return {a["type"] for a in self._legal_list(seat)}

    def _set_refusal(self, seat, kind, action):
        """Return why a set of cards cannot make action ``kind``, or None if unexplained."""
        cards = action["cards"]
        if not all(isinstance(c, str) for c in cards):
            return None
        hand = self.hands[seat]
        if any(c not in hand and c not in self.table for c in cards):
            return _illegal(
                "card_not_held", gettext_noop("Use only cards from your hand and from the table.")
            )
        if not any(c in hand for c in cards):
            return _illegal(
                "no_hand_card", gettext_noop("An action needs at least one card from your hand.")
            )
        own = self.character[seat]
        if any(KIND[c] == "avatar" and CHARACTER[c] != own for c in cards):
            return _illegal(
                "not_your_avatar", gettext_noop("Only your own character's Avatar cards help you.")
            )
        if kind in ("special_attack", "heal") and any(KIND[c] == "bonus" for c in cards):
            return _illegal(
                "bonus_not_allowed",
                gettext_noop(
                    "A Bonus card counts only as an Attack or a Defence: never in a Special "
                    "Attack, nor to heal."
                ),
            )
        if kind in ATTACKS and action.get("target") not in self._opponents(seat):
            return _illegal("bad_target", gettext_noop("You cannot attack this player."))
        if kind not in self._kinds(seat):
            return _illegal(*_ACTION_REFUSALS[kind])
        return _illegal(
            "not_a_set",
            gettext_noop(
                "An action needs three cards of one kind, plus at most one of your Avatar "
                "cards; or three of your Avatar cards and one card of that kind."
            ),
        )

    # ------------------------------------------------------------------ actions

    def _choose(self, s, character):
        """Give ``s`` the character ``character``; start the game once everyone has one."""
        self.window = None
        card = IDENTITY[character]
        self.deck.remove(card)
        self.identity[s] = [card]
        self.character[s] = character
        self._emit("character_chosen", seat=s, character=character, card=card)
        waiting = [
            t for t in self._seats_from(self._right_of(self.dealer)) if not self.character[t]
        ]
        if waiting:
            self._open("choose", waiting[0], self.options["choose_seconds"])
            return
        # The Avatar cards of characters nobody plays would be dead cards: out of the game.
        unused = [card for free in self.free_characters() for card in AVATARS[free]]
        for card in unused:
            self.deck.remove(card)
        self.box = unused
        if unused:
            self._emit("avatars_boxed", count=len(unused))
        self.rng.shuffle(self.deck)
        self._deal()

    def _turn_action(self, s, a):
        """Apply the turn player's action: an attack, a heal or a discard."""
        kind = a["type"]
        if kind == "discard":
            self.hands[s].remove(a["card"])
            self.table.append(a["card"])
            self._emit("discard", seat=s, card=a["card"])
        elif kind == "heal":
            self._spend(s, a["cards"])
            self.life[s] += HEAL_POINTS
            self._emit("heal", seat=s, cards=a["cards"], points=HEAL_POINTS, life=self.life[s])
        else:
            self._spend(s, a["cards"])
            t, points = a["target"], a["points"]
            doubled = any(KIND[c] == "avatar" for c in a["cards"])
            self._emit(kind, seat=s, target=t, cards=a["cards"], points=points, doubled=doubled)
            if PLAYS[kind].blockable and self.hands[t]:
                self._open(
                    "defence",
                    t,
                    self.options["defence_seconds"],
                    attacker=s,
                    attack=kind,
                    points=points,
                    cards=list(a["cards"]),
                )
                return
            self._hit(s, t, points)
        self._next_turn()

    def _answer(self, s, a):
        """Resolve the open attack on ``s``: its points minus the Defence's hit ``s``."""
        w: dict
        w, self.window = self.window, None  # type: ignore[assignment]  # the defence is open
        points = w["points"]
        if a["type"] == "defend":
            self._spend(s, a["cards"])
            self.blocks[s] += 1
            doubled = any(KIND[c] == "avatar" for c in a["cards"])
            self._emit(
                "defend",
                seat=s,
                attacker=w["attacker"],
                cards=a["cards"],
                points=a["points"],
                doubled=doubled,
            )
            points = max(0, points - a["points"])
        self._hit(w["attacker"], s, points)
        self._next_turn()

    def _expire(self):
        """End the open window as the referee: a random character, no defence, the next deal."""
        w: dict = self.window  # type: ignore[assignment]  # a timer runs: a window is open
        if w["kind"] == "choose":
            self._emit("timeout", seat=w["seat"], window="choose")
            free = self.free_characters()
            self._choose(w["seat"], free[self.rng.below(len(free))])
        elif w["kind"] == "defence":
            self._emit("timeout", seat=w["seat"], window="defence")
            self._answer(w["seat"], {"type": "take"})
        else:
            self.window = None
            self._deal()

    # ------------------------------------------------------------------ effects

    def _spend(self, s, cards):
        """Move ``cards`` (from ``s``'s hand and the table) to the played pile."""
        for c in cards:
            (self.hands[s] if c in self.hands[s] else self.table).remove(c)
            self.pile.append(c)

    def _hit(self, attacker, t, points):
        """Take ``points`` life points from ``t``; knock ``t`` out at zero."""
        if points <= 0:
            self._emit("blocked", seat=t, attacker=attacker)
            return
        lost = min(points, self.life[t])
        self.life[t] -= lost
        self.damage_dealt[attacker] += lost
        self._emit("damage", seat=t, attacker=attacker, points=lost, life=self.life[t])
        if self.life[t] == 0:
            self._knock_out(t, attacker)

    def _knock_out(self, t, attacker):
        """Take ``t`` out of the game: its hand goes to the played pile."""
        count = len(self.hands[t])
        self.pile += self.hands[t]
        self.hands[t] = []
        self.out.append(t)
        self._emit("knocked_out", seat=t, attacker=attacker, count=count)
        if len(self._living()) == 1:
            self._finish("last_standing")
        elif t == self.dealer:  # a player who is out deals no more
            self.dealer = self._right_of(t)
            self._emit("dealer", seat=self.dealer)

    # --------------------------------------------------------------- turn flow

    def _next_turn(self):
        """Pass the turn to the next player who still holds cards; else end the round."""
        if self.over:
            return
        holders = [s for s in self._seats_from(self._right_of(self.turn)) if self.hands[s]]
        if not holders:
            self._end_round()
            return
        self.turn = holders[0]
        self._emit("turn", seat=self.turn)

    def _end_round(self):
        """Close the round: finish at the round limit, else pause before the next deal."""
        self._emit("round_end", round=self.round)
        if self.round >= self.options["max_rounds"]:
            self._emit("round_limit", rounds=self.round)
            self._finish("round_limit")
            return
        self.stage = "round_end"
        self._open("deal", None, self.options["round_pause_seconds"])

    def _deal(self):
        """Start a round: the table goes to the pile, 3 cards each, 4 on the table."""
        if self.table:
            self._emit("table_cleared", count=len(self.table))
            self.pile += self.table
            self.table = []
        living = self._living()
        if len(self.deck) < HAND_SIZE * len(living) + TABLE_DEAL:
            self._reshuffle()
        self.round += 1
        first = self._right_of(self.dealer)
        for s in self._seats_from(first):
            self.hands[s] = self._draw(HAND_SIZE)
            self.rounds[s] = self.round
        self.table = self._draw(TABLE_DEAL)
        self._emit(
            "deal",
            round=self.round,
            dealer=self.dealer,
            counts=[len(h) for h in self.hands],
            table=list(self.table),
            deck=len(self.deck),
        )
        self.stage, self.turn = "play", first
        self._emit("turn", seat=first)

    def _reshuffle(self):
        """Shuffle the played pile under the rest of the deck; the next player deals."""
        pile, self.pile = self.pile, []
        self.rng.shuffle(pile)
        self.deck = pile + self.deck  # the deck is drawn from its end: old cards first
        self.dealer = self._right_of(self.dealer)
        self._emit("reshuffle", count=len(pile), dealer=self.dealer, deck=len(self.deck))

    def _draw(self, k):
        """Remove and return up to ``k`` cards from the top of the deck."""
        k = min(k, len(self.deck))
        drawn = self.deck[len(self.deck) - k :][::-1]
        del self.deck[len(self.deck) - k :]
        return drawn

    def _finish(self, ended_by):
        """End the game and announce the result."""
        self.over, self.stage, self.window, self.ended_by = True, "over", None, ended_by
        res: dict = self.result()  # type: ignore[assignment]  # over is set: a dict, not None
        self._emit("game_over", winners=res["winners"], decided_by=res["decided_by"])

    def _open(self, kind, seat, seconds, **extra):
        """Open the one timed window: a choice, a defence, or the pause before a deal."""
        self.serial += 1
        self.window = {"id": f"w{self.serial}", "kind": kind, "seat": seat, "seconds": seconds}
        self.window.update(extra)

    def _living(self):
        """Return the seats still in the game."""
        return [s for s in range(self.n) if self.life[s] > 0]

    def _right_of(self, s):
        """Return the next seat in play order after ``s`` that is still in the game."""
        for i in range(1, self.n + 1):
            t = (s + i) % self.n
            if self.life[t] > 0:
                return t
        return s

    def _seats_from(self, first):
        """Return the living seats in play order, starting at ``first``."""
        return [t for i in range(self.n) for t in [(first + i) % self.n] if self.life[t] > 0]

    def _emit(self, event_type, /, **fields):
        """Record an event of the current action (every event is public)."""
        self._events.append({"type": event_type, **fields})


# Why an action type is refused when none of its kind is open to the seat now.
_ACTION_REFUSALS = {
    "attack": ("no_attack", gettext_noop("You cannot make an Attack now.")),
    "special_attack": ("no_attack", gettext_noop("You cannot make a Special Attack now.")),
    "heal": (
        "no_heal",
        gettext_noop(
            "You can heal only on your turn, below your starting life points, "
            "with three Defence cards."
        ),
    ),
    "defend": ("no_defence", gettext_noop("You can defend only when you are attacked.")),
}


def _illegal(code, message):
    """Return an IllegalAction without parameters."""
    return IllegalAction(code, message)


def _expiry(timer_id):
    """Return the referee's action that ends timer ``timer_id``."""
    return {"type": "expire", "timer": timer_id}


def _splits(total, caps):
    """Yield every tuple of counts, each at most its cap, that adds up to ``total``."""
    if not caps:
        if total == 0:
            yield ()
        return
    for k in range(min(total, caps[0]), -1, -1):
        for rest in _splits(total - k, caps[1:]):
            yield (k, *rest)


def _sets(rule, hand, table, character):
    """Return ``[(card ids, points)]``: every distinct way to make an action of ``rule``.

    Cards of one kind in one zone are interchangeable, so one way is listed per choice
    of how many cards of each kind come from the hand and from the table (always at
    least one from the hand); the ids are the first ones of each zone, hand first.
    """
    zones = (hand, table)
    pools = [  # (zone, points, ids)
        (z, points, [c for c in zones[z] if KIND[c] == kind])
        for z in (0, 1)
        for kind, points in rule.cards.items()
    ]
    pools = [p for p in pools if p[2]]
    avatars = []
    if rule.avatar and character:
        avatars = [(z, [c for c in zones[z] if CHARACTER[c] == character]) for z in (0, 1)]
        avatars = [a for a in avatars if a[1]]
    found = []  # (ids, points, cards from the hand)
    for counts in _splits(SET_SIZE, [len(ids) for _z, _p, ids in pools]):
        used = [(pool, k) for pool, k in zip(pools, counts, strict=True) if k]
        cards = [c for (_z, _p, ids), k in used for c in ids[:k]]
        points = min(p for (_z, p, _ids), _k in used)
        from_hand = sum(k for (z, _p, _ids), k in used if z == 0)
        found.append((cards, points, from_hand))
        for z, ids in avatars:  # the set doubled by one Avatar card
            found.append(([*cards, ids[0]], points * AVATAR_FACTOR, from_hand + (z == 0)))
    for counts in _splits(SET_SIZE, [len(ids) for _z, ids in avatars]):
        three = [c for (_z, ids), k in zip(avatars, counts, strict=True) for c in ids[:k]]
        three_from_hand = sum(k for (z, _ids), k in zip(avatars, counts, strict=True) if z == 0)
        for z, points, ids in pools:  # three Avatar cards and one card of the action
            found.append(([*three, ids[0]], points * AVATAR_FACTOR, three_from_hand + (z == 0)))
    place = {c: (0, i) for i, c in enumerate(hand)} | {c: (1, i) for i, c in enumerate(table)}
    return [
        (sorted(cards, key=place.__getitem__), points)
        for cards, points, from_hand in found
        if from_hand
    ]


Conspiranoia.state_class = State
