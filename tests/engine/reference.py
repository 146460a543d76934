"""A second, deliberately simple implementation of replaying and scoring a hand record.

Written from ``shared/spec/hand-record.md``, ``shared/spec/commands.md`` and the
seeds' rule tables, not from the engine: plain dicts and strings, its own
bower logic, its own preset table. It trusts the record to be legal (the tests
feed it records played through the engine) and only works out what the record
comes to: the ``score_hand`` JSON.

The engine must agree with it on every record; when they disagree, the spec
decides which of the two is wrong.
"""

from __future__ import annotations

from typing import Any

SEATS = "NESW"
"""Clockwise: the seat after ``SEATS[i]`` is ``SEATS[(i + 1) % 4]``."""

SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
PLAIN_ORDER = "AKQJT9"
"""Ranks of a non-trump suit, high to low (also every suit in no-trump)."""
TRUMP_ORDER_AFTER_BOWERS = "AKQT9"

DEFAULT_OPTIONS: dict[str, Any] = {
    "target": 10,
    "stick_the_dealer": True,
    "defend_alone": False,
    "canadian_loner": False,
    "sitting_out_dealer_picks_up": False,
    "no_trump": False,
    "farmers_hand": "off",
    "farmers_turn_card_rule": False,
    "farmers_redeal": False,
    "lone_lead": "left_of_dealer",
    "points": {
        "make": 1,
        "march": 2,
        "lone_march": 4,
        "euchre": 2,
        "lone_maker_euchred": 2,
        "lone_defender_euchre": 4,
        "no_trump_make": 1,
    },
}

# The brief's presets: standard = seed 003, canadian-loner = its table option,
# defend-alone = seed 000, redeal = seed 004, farmers-hand and no-trump = seed 002.
PRESET_CHANGES: dict[str, dict[str, Any]] = {
    "standard": {},
    "canadian-loner": {"canadian_loner": True},
    "defend-alone": {"defend_alone": True},
    "redeal": {"stick_the_dealer": False, "sitting_out_dealer_picks_up": True},
    "farmers-hand": {"farmers_hand": "clean"},
    "no-trump": {"no_trump": True},
}


def options_of(rules: Any) -> dict[str, Any]:
    """The full option dict of a record's ``rules`` field."""
    options = dict(DEFAULT_OPTIONS)
    options["points"] = dict(DEFAULT_OPTIONS["points"])
    if rules is None:
        return options
    if isinstance(rules, str):
        rules = {"preset": rules}
    options.update(PRESET_CHANGES[rules.get("preset", "standard")])
    for name, value in rules.items():
        if name == "points":
            options["points"].update(value)
        elif name != "preset":
            options[name] = value
    return options


def left_of(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def partner_of(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def team_of(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


def other_team(team: str) -> str:
    return "EW" if team == "NS" else "NS"


def is_left_bower(card: str, trump: str | None) -> bool:
    return trump is not None and card[0] == "J" and card[1] == SAME_COLOUR[trump]


def effective_suit(card: str, trump: str | None) -> str:
    """Spec: the left bower is a trump for every purpose; ``trump`` is None in no-trump."""
    if trump is not None and is_left_bower(card, trump):
        return trump
    return card[1]


def trump_rank(card: str, trump: str) -> int:
    """0 for the right bower, 1 for the left, then A K Q T 9 (lower is stronger)."""
    if card == "J" + trump:
        return 0
    if is_left_bower(card, trump):
        return 1
    return 2 + TRUMP_ORDER_AFTER_BOWERS.index(card[0])


def trick_winner(plays: list[tuple[str, str]], trump: str | None) -> str:
    """The seat that wins a trick of (seat, card) pairs, in the order played."""
    led = effective_suit(plays[0][1], trump)
    if trump is not None:
        trumps = [(seat, card) for seat, card in plays if effective_suit(card, trump) == trump]
        if trumps:
            return min(trumps, key=lambda sc: trump_rank(sc[1], trump))[0]
    followers = [(seat, card) for seat, card in plays if effective_suit(card, trump) == led]
    return min(followers, key=lambda sc: PLAIN_ORDER.index(sc[1][0]))[0]


def must_follow(hand: list[str], led: str, trump: str | None) -> list[str]:
    """The cards of ``hand`` a player may play to a trick whose led suit is ``led``."""
    following = [c for c in hand if effective_suit(c, trump) == led]
    return following or list(hand)


def points_for(
    options: dict[str, Any], *, strain: str, alone: bool, lone_defender: bool, maker_tricks: int
) -> tuple[str, int]:
    """(who scores: 'makers' or 'defenders', how many), by the seeds' scoring tables."""
    table = options["points"]
    if maker_tricks == 5:
        return "makers", table["lone_march"] if alone else table["march"]
    if maker_tricks >= 3:
        return "makers", table["no_trump_make"] if strain == "NT" else table["make"]
    if lone_defender:
        return "defenders", table["lone_defender_euchre"]
    if alone:
        return "defenders", table["lone_maker_euchred"]
    return "defenders", table["euchre"]


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """What a legal record comes to: the contract, who sits out, and every trick as
    (seat, card) pairs in the order played (the last one possibly unfinished).
    """
    options = options_of(record.get("rules"))
    dealer = record["dealer"]
    upcard_suit = record["upcard"][-1]

    strain: str | None = None
    maker: str | None = None
    alone = False
    lone_defender: str | None = None
    passes = 0
    for call in record.get("auction") or []:
        kind = call["call"]
        if kind == "pass":
            if maker is None:
                passes += 1
        elif kind == "order_up":
            strain, maker, alone = upcard_suit, call["seat"], bool(call.get("alone"))
        elif kind == "name":
            strain, maker, alone = call["suit"], call["seat"], bool(call.get("alone"))
        elif kind == "defend_alone":
            lone_defender = call["seat"]

    farmer = record.get("farmer")
    thrown_in = bool(farmer and farmer.get("redeal")) or (
        passes == 8 and not options["stick_the_dealer"]
    )

    sitting_out = set()
    if maker is not None and alone:
        sitting_out.add(partner_of(maker))
    if lone_defender is not None:
        sitting_out.add(partner_of(lone_defender))
    players = 4 - len(sitting_out)

    trump = None if strain == "NT" else strain
    tricks: list[list[tuple[str, str]]] = []
    cards = list(record.get("play") or [])
    if cards:
        assert maker is not None
        leader = left_of(dealer)
        if alone and options["lone_lead"] == "left_of_maker":
            leader = left_of(maker)
        while leader in sitting_out:
            leader = left_of(leader)
        for start in range(0, len(cards), players):
            seat, trick = leader, []
            for card in cards[start : start + players]:
                while seat in sitting_out:
                    seat = left_of(seat)
                trick.append((seat, card))
                seat = left_of(seat)
            tricks.append(trick)
            if len(trick) == players:
                leader = trick_winner(trick, trump)

    return {
        "options": options,
        "strain": strain,
        "trump": trump,
        "maker": maker,
        "alone": alone,
        "lone_defender": lone_defender,
        "sitting_out": sitting_out,
        "players": players,
        "thrown_in": thrown_in,
        "tricks": tricks,
    }


def score_record(record: dict[str, Any]) -> dict[str, Any]:
    """The ``score_hand`` JSON of a legal record whose auction calls all name their seats."""
    hand = replay(record)
    maker, strain = hand["maker"], hand["strain"]
    tricks = {"NS": 0, "EW": 0}
    for trick in hand["tricks"]:
        if len(trick) == hand["players"]:
            tricks[team_of(trick_winner(trick, hand["trump"]))] += 1

    points: dict[str, int] | None = None
    if hand["thrown_in"]:
        points = {"NS": 0, "EW": 0}
    elif maker is not None and tricks["NS"] + tricks["EW"] == 5:
        makers = team_of(maker)
        who, value = points_for(
            hand["options"],
            strain=strain,
            alone=hand["alone"],
            lone_defender=hand["lone_defender"] is not None,
            maker_tricks=tricks[makers],
        )
        winner = makers if who == "makers" else other_team(makers)
        points = {winner: value, other_team(winner): 0}

    return {
        "trump": strain,
        "maker": maker,
        "alone": hand["alone"],
        "defender_alone": hand["lone_defender"],
        "tricks": tricks,
        "points": points,
    }
