"""A plain minimax over every legal card, with no pruning, tables or shortcuts:
the reference the solver is checked against. It uses the engine's own card
rules on Card objects, not the solver's bit tables, and remembers only the value
of each whole-trick position (no bounds, no ordering, no equivalent cards)."""

from __future__ import annotations

from games.engine.cards import ALL_CARDS, Card, Suit, effective_suit, power

SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def brute_force(
    strain: int,
    hands: tuple[int, int, int, int],
    leader: int,
    trick: tuple[int, ...] = (),
    active: tuple[bool, bool, bool, bool] = (True, True, True, True),
) -> int:
    """North-South's tricks from the position on, by exhaustive minimax."""
    trump = None if strain == 4 else SUITS[strain]
    held = [{ALL_CARDS[i] for i in range(24) if h >> i & 1} for h in hands]
    players = sum(active)

    def nxt(seat: int) -> int:
        seat = (seat + 1) % 4
        while not active[seat]:
            seat = (seat + 1) % 4
        return seat

    memo: dict[
        tuple[int, frozenset[Card], frozenset[Card], frozenset[Card], frozenset[Card]], int
    ] = {}

    def go(leader: int, played: list[tuple[int, Card]]) -> int:
        if not played:
            key = (
                leader,
                frozenset(held[0]),
                frozenset(held[1]),
                frozenset(held[2]),
                frozenset(held[3]),
            )
            if key not in memo:
                memo[key] = go_trick(leader, played)
            return memo[key]
        return go_trick(leader, played)

    def go_trick(leader: int, played: list[tuple[int, Card]]) -> int:
        if len(played) == players:
            led = effective_suit(played[0][1], trump)
            winner = max(played, key=lambda sc: power(sc[1], trump, led))[0]
            won = 1 if winner % 2 == 0 else 0
            if not held[winner]:
                return won
            return won + go(winner, [])
        seat = leader
        for _ in played:
            seat = nxt(seat)
        cards = sorted(held[seat], key=lambda c: c.index)
        if played:
            led = effective_suit(played[0][1], trump)
            follow = [c for c in cards if effective_suit(c, trump) is led]
            cards = follow or cards
        values = []
        for card in cards:
            held[seat].remove(card)
            played.append((seat, card))
            values.append(go(leader, played))
            played.pop()
            held[seat].add(card)
        return max(values) if seat % 2 == 0 else min(values)

    start: list[tuple[int, Card]] = []
    seat = leader
    for i in trick:
        start.append((seat, ALL_CARDS[i]))
        seat = nxt(seat)
    return go(leader, start)
