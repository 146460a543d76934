"""Hand records written as Trickster's PTN, the way its hands read (for the reader's tests).

Only what a Trickster table can hold: its options ``stickTheDealer``, ``allowNotrump``,
``defendAlone``, ``goUnder`` (the mixed farmer's hand) and ``gameOverScore``.
"""

from __future__ import annotations

import json
from typing import Any

from games.engine.cards import Card, Seat, Suit, parse_card
from games.engine.hand import Play
from games.engine.record import parse_record

_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_RANKS = "AKQJT9"
_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}
_SIDES = (Seat.S, Seat.W, Seat.N, Seat.E)


def suit_first(card: Card) -> str:
    text = str(card)
    return text[1] + text[0]


def hand_text(cards: list[Card | None]) -> str:
    if any(c is None for c in cards):
        return "-"
    groups = []
    for suit in _SUIT_ORDER:
        ranks = sorted(
            (str(c)[0] for c in cards if c is not None and c.suit is suit), key=_RANKS.index
        )
        groups.append("".join(ranks))
    return ".".join(groups)


def to_ptn(
    record: dict[str, Any],
    *,
    event: str = "A hand",
    names: dict[str, str] | None = None,
    scores: tuple[int, int] | None = None,
    comments: dict[int, str] | None = None,
) -> str:
    """``record`` as a PTN hand; ``comments`` puts ``{…}`` after the card played at each index."""
    parsed = parse_record(record)
    state = parsed.state
    rules = parsed.rules
    options: dict[str, Any] = {}
    if rules.stick_the_dealer:
        options["stickTheDealer"] = True
    if rules.no_trump:
        options["allowNotrump"] = True
    if rules.defend_alone:
        options["defendAlone"] = True
    if rules.farmers_hand != "off":
        options["goUnder"] = True
    if rules.target != 10:
        options["gameOverScore"] = rules.target
    lines = [f"[Event {json.dumps(event)}]", '[GameCode "Euchre"]']
    lines.append(f"[GameOptionsJson {json.dumps(json.dumps(options, separators=(',', ':')))}]")
    if scores is not None:
        ns, ew = scores
        lines.append(f'[GameScores "S:{ns} {ew} {ns} {ew}"]')
    for seat in (Seat.W, Seat.N, Seat.E, Seat.S):
        if names and seat.value in names:
            lines.append(f"[{seat.word} {json.dumps(names[seat.value])}]")
    dealer = parsed.dealer
    lines.append(f'[Dealer "{dealer.value}"]')
    order = [dealer]
    while len(order) < 4:
        order.append(order[-1].next)
    hands = " ".join(hand_text(parsed.hands[seat]) for seat in order)
    lines.append(f'[Deal "{dealer.value}:{hands}"]')
    undealt = [parsed.upcard, *parsed.kitty]
    if None not in undealt:
        lines.append(f'[Undealt "{"".join(suit_first(c) for c in undealt if c is not None)}"]')
    lines.append(f'[Auction "{dealer.next.value}"]')
    bids: list[str] = []
    seat = dealer.next
    for who, call in parsed.auction:
        if call.kind == "defend_alone":
            while seat is not who:
                bids.append("-")
                seat = seat.next
            bids.append("Defend")
            seat = seat.next
            continue
        if call.kind == "pass":
            word = "Pass"
        elif call.kind == "order_up":
            word = _SYMBOLS[parsed.upcard.suit.value]
        else:
            word = _SYMBOLS[str(call.suit)]
        bids.append(word + (" alone" if call.alone else ""))
        seat = seat.next
    lines.append(" ".join(bids))
    if parsed.farmer is not None and parsed.farmer.cards is not None:
        kitty = "".join(suit_first(c) for c in parsed.kitty if c is not None)
        lines.append(f'[CardsAdded "{parsed.farmer.seat.value}:{kitty}"]')
        gave = "".join(suit_first(c) for c in parsed.farmer.cards)
        lines.append(f'[CardsRemoved "{parsed.farmer.seat.value}:{gave}"]')
    if state.picked_up and parsed.discard is not None:
        lines.append(f'[CardsAdded "{dealer.value}:{suit_first(parsed.upcard)}"]')
        lines.append(f'[CardsRemoved "{dealer.value}:{suit_first(parsed.discard)}"]')
    plays = [(who, a.card) for who, a in state.history if isinstance(a, Play)]
    if plays:
        first = plays[0][0]
        lines.append(f'[Play "{first.value}"]')
        columns = [first]
        while len(columns) < 4:
            columns.append(columns[-1].next)
        active = len(state.active_seats)
        for t in range(0, len(plays), active):
            trick = dict(plays[t : t + active])
            row = []
            for column in columns:
                card = trick.get(column)
                if card is None:
                    row.append("-")
                    continue
                text = suit_first(card)
                index = t + list(trick).index(column)
                if comments and index in comments:
                    text += " {" + comments[index] + "}"
                row.append(text)
            lines.append(" ".join(row))
    return "\n".join(lines) + "\n"


def card(text: str) -> Card:
    return parse_card(text)
