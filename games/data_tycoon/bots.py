"""Data-Tycoon bots: they see one seat's view and its legal actions, never the state.

The heuristic ("friendly") bot is greedy and looks one move ahead only: it rates every
legal action by the named rules below and plays the best. One measure, ``_Context.loss``
(what an attack would cost a player, in the unit where a Data-Treasure is worth
``TREASURE``), says both whom to attack and whether an attack on the bot is worth one
of its counter cards.
"""

from __future__ import annotations

from games.data_tycoon.cards import (
    CARD_RULES,
    COLOUR,
    COLOURS,
    COMPLAINT_COUNT,
    FREEZE_COUNT,
    KIND,
    LOSS_COUNT,
    SENSITIVE,
    TREASURE_SIZE,
    card_ids,
    matches,
)
from games.engine.bots import RandomBot, ScoringBot

__all__ = ["HeuristicBot", "RandomBot"]

# Fixed preferences, by action type (higher is better; a capture scores about 30 to 60).
CALL_SCORE = 1000  # always call DATA! and DATABREACH!: a missed call only costs
BUILD_SCORE = 300  # build a treasure as soon as possible: treasures decide the game
SPLIT_SCORE = 290
KEEP_PURPOSE = 60  # a Purpose I can use soon beats any capture: there are only 9
SPARE_PURPOSE = 15  # one I cannot use soon is kept only when nothing better is on
KEEP_CONSENT = 20
SET_ASIDE = {
    "lawyer": 14,
    "cybersecurity": 14,
    "consent": 13,
    "minimization": 10,
    "time": 10,
    "transparency": 12,
}

# What an attack costs its victim, in one unit.
TREASURE = 100  # a Data-Treasure: the first thing the ranking counts
LOOSE_CARD = 5  # a loose Dataset card: a step toward a treasure and a point in the tally
FROZEN_CARD = 2  # a frozen card can no longer join a treasure: it only counts in the tally
SENSITIVE_EXTRA = 3  # a sensitive card also breaks ties
LOST_TURN = 15  # a turn lost to a Databreach: about one capture
OPEN_HAND = 10  # three turns with an open hand: the others see its counters and captures
TIME_BITES = 0.6  # a new Purpose or Consent lifts a Time deadline: it often never bites

# The Purpose freeze: it hurts only a player close to a treasure.
NEAR = 4  # cards of one colour (or sensitive ones) from which a treasure is close
FREEZE_NEAR_CARD = 12  # each card of a close treasure the freeze takes away
FREEZE_FAR_CARD = 2  # a card frozen far from any treasure hardly matters
FREEZE_READY = 15  # more when the victim holds a Purpose waiting for that treasure

# Spending a counter: weigh the attack against keeping the card for a worse one.
KEEP_SHARE = 0.5  # a kept counter is worth half the worst attack it may stop later
KEEP_FLOOR = 8  # and never less: a harmless attack is not worth a counter card
SPARE_COUNTER = 3  # a second card of the kind keeps the protection: spend the first

# Guessing whether a target can counter, and reading an open hand (Transparency).
HIDDEN_HAND_COUNTER = 0.15  # a hidden hand of 3 cards now and then holds the counter
RESERVE_COUNTER = 0.3  # a reserve often does: counters are what reserves are for
DENY = 4  # capturing a card an open hand would capture next
FEED = 6  # laying a card on the table that an open hand can capture gives it away
LEADER_BONUS = 10  # hit the strongest opponent first: that is how one catches up


class HeuristicBot(ScoringBot):
    """Play greedily: call, build, capture sensitive cards, weigh attacks and counters."""

    name = "heuristic"
    level = "friendly"

    def context(self, view: dict) -> _Context:
        """Return what the heuristic derives once from ``view`` to score each action."""
        return _Context(view)


def _best_basis(cards):
    """Return the size of the largest treasure basis in ``cards``: one colour, or sensitive."""
    counts = dict.fromkeys(COLOURS, 0)
    for c in cards:
        counts[COLOUR[c]] += 1
    return max(*counts.values(), sum(SENSITIVE[c] for c in cards))


def _near_bases(cards):
    """Return how many treasure bases in ``cards`` are close to a treasure (NEAR cards)."""
    counts = dict.fromkeys(COLOURS, 0)
    for c in cards:
        counts[COLOUR[c]] += 1
    near = sum(1 for n in counts.values() if n >= NEAR)
    return near + (sum(SENSITIVE[c] for c in cards) >= NEAR)


def _value(loose, frozen=()):
    """Return what losing these loose and frozen Dataset cards costs their owner."""
    cards = [(c, LOOSE_CARD) for c in loose] + [(c, FROZEN_CARD) for c in frozen]
    return sum(worth + SENSITIVE_EXTRA * SENSITIVE[c] for c, worth in cards)


def _cheapest(player, k):
    """Return the value of the ``k`` loose cards the rules take first: frozen, then simple."""
    frozen = player["frozen"][:k]
    loose = sorted(player["collection"], key=lambda c: SENSITIVE[c])[: k - len(frozen)]
    return _value(loose, frozen)


class _Context:
    """What the heuristic derives once from a view to score each action."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.me = view["seat"]
        self.players = players = view["players"]
        self.mine = players[self.me]
        self.collection = self.mine["collection"]
        self.colour_count: dict[str, int] = {}
        self.sensitive_count = 0
        for c in self.collection:
            self.colour_count[COLOUR[c]] = self.colour_count.get(COLOUR[c], 0) + 1
            self.sensitive_count += SENSITIVE[c]
        self.held = view["hand"] + view["reserve"]  # my possible counters
        self.strength = {
            sc["seat"]: sc["treasures"] * 20 + sc["sensitive"] + sc["datasets"] * 0.5
            for sc in view["scores"]
        }
        others = [s for s in self.strength if s != self.me]
        self.leader = max(others, key=lambda s: self.strength[s]) if others else None
        # Transparency: the Dataset cards others must play open, and what they capture.
        self.open_datasets = [
            c
            for p in players
            if p["seat"] != self.me
            for c in p.get("hand", ())
            if KIND[c] == "dataset"
        ]
        self.wanted = {t for t in view["table"] for c in self.open_datasets if matches(c, t)}
        self.unseen = self._unseen()

    def _unseen(self):
        """Return, by kind, how many cards may still come: not in the pile nor seen."""
        seen = list(self.view["pile"]) + self.held
        for p in self.players:
            seen += p["purposes"] + p["consents"] + [tr["label"] for tr in p["treasures"]]
            if p["seat"] != self.me:
                seen += p.get("hand", [])
        unseen = dict.fromkeys(CARD_RULES, 0)
        for c in set(card_ids(self.view["variant"])) - set(seen):
            if KIND[c] in unseen:
                unseen[KIND[c]] += 1
        return unseen

    # ------------------------------------------------------------------ scoring

    def score(self, a: dict) -> float:
        """Return the value of action ``a``."""
        kind = a["type"]
        if kind in ("call_data", "call_databreach"):
            return CALL_SCORE
        if kind == "counter":
            return self.loss(self.me, self.view["window"]["attack"]) - self.keep_value(a["kind"])
        if kind in ("accept", "end_turn"):
            return 0
        if kind == "build":
            return BUILD_SCORE + (1 if a["basis"] != "sensitive" else 0)
        if kind == "split":
            return SPLIT_SCORE
        if kind == "freeze":  # I am the victim: freeze what I collect least
            c = a["card"]
            return -self.colour_count.get(COLOUR[c], 0) - 3 * SENSITIVE[c]
        if kind == "lose":
            return 10 if a["what"] == "datasets" else 0
        if kind == "play":
            c = a["card"]
            if "capture" in a:
                t = a["capture"]
                gain = 30 + 6 * (SENSITIVE[c] + SENSITIVE[t]) + self.progress(c) + self.progress(t)
                return gain + (DENY if t in self.wanted else 0)
            fed = any(matches(o, c) for o in self.open_datasets)
            return -10 - 3 * SENSITIVE[c] - self.progress(c) - (FEED if fed else 0)
        if kind == "keep":
            if KIND[a["card"]] == "purpose":
                return KEEP_PURPOSE if self.needs_purpose() else SPARE_PURPOSE
            return KEEP_CONSENT
        if kind == "set_aside":
            return SET_ASIDE.get(KIND[a["card"]], 5)
        if kind == "discard":
            return -5
        return self.attack_score(a)

    def attack_score(self, a: dict) -> float:
        """Return the value of attacking ``a["target"]`` with ``a["card"]``: the harm it
        does, if the target cannot counter it, plus a bonus for hitting the leader."""
        target, kind = a["target"], KIND[a["card"]]
        harm = self.loss(target, kind) * (1 - self.counter_chance(target, kind))
        return harm + self.target_bonus(target)

    # --------------------------------------------------------------- the rules

    def progress(self, card: str) -> int:
        """Return how much owning ``card`` brings me closer to a treasure."""
        best = self.colour_count.get(COLOUR[card], 0)
        if SENSITIVE[card]:
            best = max(best, self.sensitive_count)
        return min(best, TREASURE_SIZE - 1) + 2 * SENSITIVE[card]

    def target_bonus(self, target: int) -> int:
        """Return a bonus for hitting ``target`` (the leader most of all)."""
        return LEADER_BONUS if target == self.leader else 0

    def loss(self, seat: int, attack: str) -> float:
        """Return what ``attack`` would cost ``seat`` if it is not countered."""
        p = self.players[seat]
        if attack == "sanction":
            return TREASURE * len(p["treasures"])
        if attack == "complaint":
            return _cheapest(p, COMPLAINT_COUNT)
        if attack == "minimization":
            return _value(p["collection"], p["frozen"])
        if attack == "time":
            return TIME_BITES * self.deadline_loss(p)
        if attack == "hidden_breach":
            return self.deadline_loss(p)
        if attack == "databreach":
            return LOST_TURN
        if attack == "transparency":
            return OPEN_HAND
        return self.freeze_loss(seat)  # a Purpose

    def deadline_loss(self, player: dict) -> int:
        """Return what a Time deadline or a hidden breach costs: 6 loose cards or a treasure,
        whichever the player gives up more cheaply (all loose cards when neither is there)."""
        choices = [TREASURE] if player["treasures"] else []
        if len(player["collection"]) + len(player["frozen"]) >= LOSS_COUNT:
            choices.append(_cheapest(player, LOSS_COUNT))
        return min(choices, default=_value(player["collection"], player["frozen"]))

    def freeze_loss(self, seat: int) -> int:
        """Return what freezing 3 of ``seat``'s cards costs them. They choose, so they
        freeze spare cards first; only the cards of their closest treasure count."""
        p = self.players[seat]
        coll = p["collection"]
        best = _best_basis(coll)
        taken = max(0, min(FREEZE_COUNT, len(coll)) - (len(coll) - best))
        if best < NEAR:
            return FREEZE_FAR_CARD * taken
        ready = self.waiting_purposes(seat) and taken
        return FREEZE_NEAR_CARD * taken + (FREEZE_READY if ready else 0)

    def waiting_purposes(self, seat: int) -> int:
        """Return the Purpose cards ``seat`` visibly holds for a treasure: kept face up,
        or in a hand that Transparency opened."""
        p = self.players[seat]
        return len(p["purposes"]) + sum(KIND[c] == "purpose" for c in p.get("hand", ()))

    def needs_purpose(self) -> bool:
        """Return whether a new Purpose would serve me soon: no kept Purpose waits for my
        closest treasures yet, and the cards still to come can fill one."""
        if len(self.mine["purposes"]) >= max(1, _near_bases(self.collection)):
            return False
        cards_left = self.view["deck_count"] + sum(p["hand_count"] for p in self.players)
        my_plays = cards_left / len(self.players)
        return _best_basis(self.collection) + 2 * my_plays >= TREASURE_SIZE  # 2 per capture

    def counter_chance(self, target: int, attack: str) -> float:
        """Return how likely ``target`` is to counter ``attack``: certain or impossible
        when Transparency shows its hand, else a guess from its reserve."""
        counters = CARD_RULES[attack].counters
        p = self.players[target]
        if any(KIND[c] in counters for c in p.get("hand", ())):
            return 1.0
        if not any(self.unseen[k] for k in counters):
            return 0.0
        in_hand = 0.0 if "hand" in p else HIDDEN_HAND_COUNTER
        return in_hand + (RESERVE_COUNTER if p["reserve_count"] else 0.0)

    def keep_value(self, kind: str) -> float:
        """Return what keeping one counter card of ``kind`` is worth to me: a share of the
        worst attack it could still stop, never below KEEP_FLOOR, and little when I hold
        a second one. A Sanction counts at least the treasure I am about to build."""
        if sum(KIND[c] == kind for c in self.held) >= 2:
            return SPARE_COUNTER
        worst: float = 0
        for attack, rule in CARD_RULES.items():
            if kind in rule.counters and self.unseen[attack]:
                loss = self.loss(self.me, attack)
                if attack == "sanction" and self.about_to_build():
                    loss = max(loss, TREASURE)
                worst = max(worst, loss)
        return max(KEEP_FLOOR, KEEP_SHARE * worst)

    def about_to_build(self) -> bool:
        """Return whether I hold a kept Purpose and a treasure basis close to full."""
        return bool(self.mine["purposes"]) and _best_basis(self.collection) >= NEAR
