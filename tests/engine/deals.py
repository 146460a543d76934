"""Hand-built deals whose outcome can be read off the cards, for the scoring and rules tests.

``ONE_SUIT_EACH`` gives every seat one suit, so nobody can follow anybody else's
lead and a trick goes to whoever holds trump, or else to the leader::

    N: JH JD AH KH QH    (hearts, and the jack of diamonds)
    E: AS KS QS TS 9S    S: AC KC QC TC 9C    W: AD KD QD TD 9D
    upcard JS, kitty JC TH 9H

- hearts trump: N holds the five top trumps and wins every trick;
- diamonds trump: N holds both bowers (JD right, JH left) and wins two tricks,
  W holds five trumps and wins the other three;
- spades trump, dealer N picks up JS: N wins one trick with the right bower,
  E holds five trumps and wins four;
- no-trump: N wins every heart it leads, and W every diamond.
"""

from __future__ import annotations

from typing import Any

ONE_SUIT_EACH = {
    "N": ["JH", "JD", "AH", "KH", "QH"],
    "E": ["AS", "KS", "QS", "TS", "9S"],
    "S": ["AC", "KC", "QC", "TC", "9C"],
    "W": ["AD", "KD", "QD", "TD", "9D"],
}
UPCARD = "JS"

SEATS = "NESW"


def seats_from(first: str) -> list[str]:
    i = SEATS.index(first)
    return [SEATS[(i + k) % 4] for k in range(4)]


def passes(dealer: str, count: int) -> list[dict[str, Any]]:
    """``count`` passes, starting left of ``dealer``."""
    order = seats_from(SEATS[(SEATS.index(dealer) + 1) % 4])
    return [{"seat": order[k % 4], "call": "pass"} for k in range(count)]


def record(
    *,
    dealer: str,
    auction: list[dict[str, Any]],
    play: list[str],
    rules: Any = None,
    discard: str | None = None,
    hands: dict[str, list[str]] | None = None,
    upcard: str = UPCARD,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": "euchre-hand/1",
        "dealer": dealer,
        "hands": {seat: list(cards) for seat, cards in (hands or ONE_SUIT_EACH).items()},
        "upcard": upcard,
        "auction": auction,
        "discard": discard,
        "play": play,
    }
    if rules is not None:
        out["rules"] = rules
    return out


def name(seat: str, suit: str, *, alone: bool = False) -> dict[str, Any]:
    return {"seat": seat, "call": "name", "suit": suit, "alone": alone}


def order_up(seat: str, *, alone: bool = False) -> dict[str, Any]:
    return {"seat": seat, "call": "order_up", "alone": alone}


# -- one builder per outcome: the makers' tricks in the name ---------------------------------


def hearts_march(rules: Any = None, *, alone: bool = False) -> dict[str, Any]:
    """N names hearts (W deals) and leads its five top trumps: the makers take 5."""
    if alone:
        play = "JH 9S 9D  JD TS TD  AH QS QD  KH KS KD  QH AS AD"
    else:
        play = "JH 9S 9C 9D  JD TS TC TD  AH QS QC QD  KH KS KC KD  QH AS AC AD"
    return record(
        dealer="W",
        auction=[*passes("W", 4), name("N", "H", alone=alone)],
        play=cards(play),
        rules=rules,
    )


def spades_four(rules: Any = None, *, alone: bool = False) -> dict[str, Any]:
    """E orders up spades; N deals, picks up JS and throws QH: E's five trumps take 4,
    N's right bower takes 1. Alone, E's partner W sits out.
    """
    if alone:
        play = "AS 9C JS  JH 9S TC  KS QC JD  QS KC AH  TS AC KH"
    else:
        play = "AS 9C 9D JS  JH 9S TC TD  KS QC QD JD  QS KC KD AH  TS AC AD KH"
    return record(
        dealer="N",
        auction=[order_up("E", alone=alone)],
        discard="QH",
        play=cards(play),
        rules=rules,
    )


def spades_one_for_dealer(rules: Any = None) -> dict[str, Any]:
    """N deals and picks up spades itself: its right bower takes 1 trick, E takes 4."""
    return record(
        dealer="N",
        auction=[*passes("N", 3), order_up("N")],
        discard="QH",
        play=cards("AS 9C 9D JS  JH 9S TC TD  KS QC QD JD  QS KC KD AH  TS AC AD KH"),
        rules=rules,
    )


def diamonds(maker: str, rules: Any = None, *, alone: bool = False) -> dict[str, Any]:
    """``maker`` names diamonds (W deals): N's two bowers take 2 tricks, W's trumps 3.
    Alone, the maker's partner sits out.
    """
    sitting_out = SEATS[(SEATS.index(maker) + 2) % 4] if alone else None
    tricks = [
        "N:JD E:9S S:9C W:9D",
        "N:JH E:TS S:TC W:TD",
        "N:AH E:QS S:QC W:QD",
        "W:KD N:KH E:KS S:KC",
        "W:AD N:QH E:AS S:AC",
    ]
    return record(
        dealer="W",
        auction=[*passes("W", 4 + SEATS.index(maker)), name(maker, "D", alone=alone)],
        play=_cards(tricks, sitting_out),
        rules=rules,
    )


def diamonds_defended_alone(
    rules: Any = None, *, maker: str = "N", defender: str = "W"
) -> dict[str, Any]:
    """``maker`` names diamonds and ``defender`` defends alone: N's bowers take 2, W's trumps 3."""
    tricks = [
        "N:JD E:9S S:9C W:9D",
        "N:JH E:TS S:TC W:TD",
        "N:AH E:QS S:QC W:QD",
        "W:KD N:KH E:KS S:KC",
        "W:AD N:QH E:AS S:AC",
    ]
    return record(
        dealer="W",
        auction=[
            *passes("W", 4 + SEATS.index(maker)),
            name(maker, "D"),
            {"seat": defender, "call": "defend_alone"},
        ],
        play=_cards(tricks, SEATS[(SEATS.index(defender) + 2) % 4]),
        rules=rules,
    )


def hearts_for_the_defenders(rules: Any = None) -> dict[str, Any]:
    """E names hearts (N deals) but N holds the five top trumps: the makers take 0."""
    return record(
        dealer="N",
        auction=[*passes("N", 4), name("E", "H")],
        play=cards("9S 9C 9D QH  JH TS TC TD  JD QS QC QD  AH KS KC KD  KH AS AC AD"),
        rules=rules,
    )


def no_trump_four(rules: Any = None, *, alone: bool = False) -> dict[str, Any]:
    """N names no-trump (W deals) and cashes four hearts; its JD then loses to W's AD."""
    tricks = [
        "N:JH E:9S S:9C W:9D",
        "N:AH E:TS S:TC W:TD",
        "N:KH E:QS S:QC W:QD",
        "N:QH E:KS S:KC W:KD",
        "N:JD E:AS S:AC W:AD",
    ]
    return record(
        dealer="W",
        auction=[*passes("W", 4), name("N", "NT", alone=alone)],
        play=_cards(tricks, "S" if alone else None),
        rules=rules,
    )


def no_trump_march(rules: Any = None, *, alone: bool = False) -> dict[str, Any]:
    """S names no-trump (E deals), leads its five clubs and nobody can follow: 5 tricks."""
    tricks = [
        "S:AC W:9D N:QH E:9S",
        "S:KC W:TD N:KH E:TS",
        "S:QC W:QD N:AH E:QS",
        "S:TC W:KD N:JD E:KS",
        "S:9C W:AD N:JH E:AS",
    ]
    return record(
        dealer="E",
        auction=[*passes("E", 4), name("S", "NT", alone=alone)],
        play=_cards(tricks, "N" if alone else None),
        rules=rules,
    )


def no_trump_euchred(rules: Any = None) -> dict[str, Any]:
    """N names no-trump but leads JD first: W wins it with AD and runs its diamonds."""
    return record(
        dealer="W",
        auction=[*passes("W", 4), name("N", "NT")],
        play=cards("JD 9S 9C AD  KD JH TS TC  QD AH QS QC  TD KH KS KC  9D QH AS AC"),
        rules=rules,
    )


def cards(text: str) -> list[str]:
    """Cards written with spaces (two between tricks, for the eye)."""
    return text.split()


def _cards(tricks: list[str], sitting_out: str | None) -> list[str]:
    out = []
    for trick in tricks:
        for entry in trick.split():
            seat, card = entry.split(":")
            if seat != sitting_out:
                out.append(card)
    return out
