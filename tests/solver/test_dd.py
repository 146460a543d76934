"""The double-dummy solver against a plain brute-force minimax, like perft."""

from __future__ import annotations

import copy
import random

import pytest

from analysis.solver import dd
from analysis.solver.dd import Position, Solver
from analysis.solver.tables import NO_TRUMP, SUITS, card_mask, tables_for
from games.engine.cards import ALL_CARDS, Card, Suit, effective_suit, parse_card, power

from .brute import brute_force


def random_position(rng: random.Random, cards_each: int) -> tuple[Solver, Position]:
    strain = rng.randrange(5)
    active = [True, True, True, True]
    roll = rng.random()
    if roll < 0.25:
        active[rng.randrange(4)] = False  # a lone hand: three active seats
    elif roll < 0.35:
        seat = rng.randrange(4)
        active[seat] = active[(seat + 1) % 4] = False  # lone maker against a lone defender
    deck = list(range(24))
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    for seat in range(4):
        if active[seat]:
            for card in deck[:cards_each]:
                hands[seat] |= 1 << card
            deck = deck[cards_each:]
    act = (active[0], active[1], active[2], active[3])
    solver = Solver(strain, act)
    leader = rng.choice([s for s in range(4) if act[s]])
    position = Position(strain, (hands[0], hands[1], hands[2], hands[3]), leader, (), act)
    for _ in range(rng.randrange(sum(act))):
        card = rng.choice(solver.legal(position))
        played = list(position.hands)
        played[position.to_move] ^= 1 << card
        position = Position(
            strain,
            (played[0], played[1], played[2], played[3]),
            leader,
            (*position.trick, card),
            act,
        )
    return solver, position


@pytest.mark.parametrize("cards_each", [1, 2, 3, 4])
def test_the_solver_agrees_with_brute_force_on_random_positions(cards_each: int) -> None:
    rng = random.Random(1000 + cards_each)
    for _ in range(1000 if cards_each < 4 else 250):
        solver, position = random_position(rng, cards_each)
        expected = brute_force(
            position.strain, position.hands, position.leader, position.trick, position.active
        )
        assert solver.solve(position) == expected, position


def test_every_option_value_agrees_with_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(300):
        solver, position = random_position(rng, rng.randint(1, 4))
        for card, value in solver.options(position).items():
            hands = list(position.hands)
            hands[position.to_move] ^= 1 << card
            trick = (*position.trick, card)
            if len(trick) == position.players:
                continue  # a finished trick is checked through solve() on the next lead
            expected = brute_force(
                position.strain,
                (hands[0], hands[1], hands[2], hands[3]),
                position.leader,
                trick,
                position.active,
            )
            assert value == expected, (position, card)


def test_options_given_the_position_value_are_the_options_found_without_it() -> None:
    rng = random.Random(8)
    for _ in range(300):
        solver, position = random_position(rng, rng.randint(1, 5))
        value = Solver(position.strain, position.active).solve(position)
        fresh = Solver(position.strain, position.active).options(position)
        assert solver.options(position, value) == fresh, position


def test_known_bounds_that_settle_the_value_need_no_search() -> None:
    rng = random.Random(9)
    for _ in range(100):
        solver, position = random_position(rng, rng.randint(2, 5))
        value = Solver(position.strain, position.active).solve(position)
        nodes = solver.nodes
        assert solver.solve(position, at_least=value, at_most=value) == value
        assert solver.nodes == nodes
        assert solver.solve(position, at_least=value) == value
        assert solver.solve(position, at_most=value) == value


def test_full_deals_agree_with_brute_force() -> None:
    rng = random.Random(99)
    for _ in range(6):
        solver, position = random_position(rng, 5)
        expected = brute_force(
            position.strain, position.hands, position.leader, position.trick, position.active
        )
        assert solver.solve(position) == expected


def hand(text: str) -> int:
    return card_mask([parse_card(c) for c in text.split()])


HEARTS, SPADES = 1, 0


def test_the_left_bower_is_a_trump_in_the_search() -> None:
    # Hearts trump, one card each: N leads the ace of diamonds; E's jack of diamonds is the
    # left bower, a heart, and trumps it; S and W follow with diamonds.
    position = Position(HEARTS, (hand("AD"), hand("JD"), hand("9D"), hand("KD")), leader=0)
    assert Solver(HEARTS).solve(position) == 0


def test_a_hand_verified_endgame_where_cashing_the_ace_is_right() -> None:
    # Spades trump, two cards each, N to lead. N: A♥ 9♥; E: K♥ J♠ (the right bower);
    # S: Q♦ T♦; W: A♦ 9♦. Cashing A♥ wins (E must follow with K♥), then E's bower takes
    # the last trick: NS 1. Leading 9♥ loses both: E's K♥ wins, then the bower: NS 0.
    position = Position(
        SPADES, (hand("AH 9H"), hand("KH JS"), hand("QD TD"), hand("AD 9D")), leader=0
    )
    assert Solver(SPADES).solve(position) == 1
    assert Solver(SPADES).options(position) == {
        parse_card("9H").index: 0,
        parse_card("AH").index: 1,
    }


def test_no_trump_has_no_bowers() -> None:
    # No-trump: the jack of diamonds is just a diamond and cannot beat the ace of hearts led.
    position = Position(NO_TRUMP, (hand("AH"), hand("JD"), hand("9H"), hand("JH")), leader=0)
    assert Solver(NO_TRUMP).solve(position) == 1


def test_a_lone_maker_plays_against_two_defenders() -> None:
    # S sits out; N alone with the two bowers (hearts trump) against E and W.
    active = (True, True, False, True)
    position = Position(HEARTS, (hand("JH JD"), hand("AH 9S"), 0, hand("KH TS")), 0, (), active)
    assert Solver(HEARTS, active).solve(position) == 2


def test_a_solver_shared_across_deals_keeps_their_positions_apart() -> None:
    """The foresight review shares one solver across its sampled layouts, so the table's
    key must tell apart positions of different deals. Here all seven spades are out and
    only the ten and the nine change hands between North and West: North's spade ranks
    (6th or 7th of seven) were once lost under the suit's card count in the key."""
    first = Position(
        SPADES, (hand("TS JS JH"), hand("9D QD TC"), hand("QS KS KD"), hand("9S AS JC")), 0
    )
    second = Position(
        SPADES, (hand("9S JS JH"), hand("9D QD TC"), hand("QS KS KD"), hand("TS AS JC")), 0
    )
    shared = Solver(SPADES)
    assert shared.solve(first) == brute_force(SPADES, first.hands, 0) == 2
    assert shared.solve(second) == brute_force(SPADES, second.hands, 0) == 1
    # Many deals through one solver per strain and seats, against a fresh solver each.
    rng = random.Random(12)
    solvers: dict[tuple[int, tuple[bool, bool, bool, bool]], Solver] = {}
    for _ in range(600):
        fresh, position = random_position(rng, rng.randint(3, 5))
        key = (position.strain, position.active)
        shared = solvers.setdefault(key, Solver(*key))
        assert shared.solve(position) == fresh.solve(position), position


def test_a_tests_answer_is_a_true_bound_whichever_side_of_the_threshold() -> None:
    """``test(k)`` answers with what the search proved (the review settles a second
    threshold with it): ``v >= k`` means at least ``v``, ``v < k`` at most ``v``. One solver
    per strain and seats, so that what earlier tests kept is used."""
    rng = random.Random(31)
    solvers: dict[tuple[int, tuple[bool, bool, bool, bool]], Solver] = {}
    for _ in range(400):
        fresh, position = random_position(rng, rng.randint(2, 5))
        value = fresh.solve(position)
        key = (position.strain, position.active)
        shared = solvers.setdefault(key, Solver(*key))
        for k in range(position.tricks_left + 1):
            answer = shared.test(position, k)
            if answer >= k:
                assert value >= answer, (position, k, answer)
            else:
                assert value <= answer, (position, k, answer)


def test_a_card_beats_another_exactly_when_the_search_says_so() -> None:
    """The search's masks put each effective suit in seven bits, weakest lowest, trumps
    at the top: a card played to a trick beats the one winning it exactly when it is of
    the suit led or a trump and its bit is higher. Checked against the engine's power()
    for every strain, every pair of cards and every suit led."""
    for strain in range(5):
        trump = None if strain == NO_TRUMP else SUITS[strain]
        layout = dd._layout(strain)
        trumps = layout.trump_mask
        for winning in ALL_CARDS:
            led = effective_suit(winning, trump)
            w = 1 << layout.position[winning.index]
            led_mask = dd._suit_mask_of(1 << layout.position[_first_of(led, trump).index])
            for card in ALL_CARDS:
                if card is winning:
                    continue
                bit = 1 << layout.position[card.index]
                search = bool(bit & (led_mask | trumps)) and bit > w
                engine = power(card, trump, led) > power(winning, trump, led)
                assert search == engine, (strain, winning, card)
                # The card's suit in the search is its effective suit.
                suit = layout.suits[dd._suit_mask_of(bit).bit_length() // dd._W - 1]
                assert SUITS[suit] is effective_suit(card, trump)


def _first_of(suit: Suit, trump: Suit | None) -> Card:
    return next(c for c in ALL_CARDS if effective_suit(c, trump) is suit)


def test_the_search_masks_hold_the_same_cards() -> None:
    rng = random.Random(5)
    for strain in range(5):
        layout = dd._layout(strain)
        for _ in range(300):
            cards = rng.getrandbits(24)
            mask = layout.mask(cards)
            back = sum(1 << layout.card[i] for i in range(28) if mask >> i & 1)
            assert back == cards
            assert mask.bit_count() == cards.bit_count()


def _squeezed(strain: int, hands: tuple[int, int, int, int], leader: int) -> tuple[object, ...]:
    """What the table's key must tell apart, worked out the slow way: for each suit, who
    holds each card still out, strongest first (the cards already played squeezed out)."""
    tables = tables_for(strain)
    suits = []
    for order in tables.order:
        suits.append(tuple(seat for card in order for seat in range(4) if hands[seat] >> card & 1))
    return (leader, *suits)


def test_the_tables_key_tells_apart_exactly_the_positions_that_differ() -> None:
    """Both ways of making the key (small integers, compiled; look-ups of big ones, in
    Python) give one key to positions whose hands agree once the cards played are
    squeezed out, and different keys to all others."""
    rng = random.Random(11)
    for strain in range(5):
        layout = dd._layout(strain)
        search = dd._Search(layout, dd._seating((True, True, True, True)))
        search.key_table = dd._key_table()
        keys: dict[tuple[object, ...], tuple[int, int]] = {}
        seen_key: dict[int, tuple[object, ...]] = {}
        seen_wide: dict[int, tuple[object, ...]] = {}
        for _ in range(3000):
            # Few cards out, so that many positions squeeze to the same one.
            deck = rng.sample(range(24), 24)
            left = rng.randint(1, 3)
            hands = [0, 0, 0, 0]
            for seat in range(4):
                for card in deck[seat * left : (seat + 1) * left]:
                    hands[seat] |= 1 << card
            leader = rng.randrange(4)
            h = (hands[0], hands[1], hands[2], hands[3])
            ref = _squeezed(strain, h, leader)
            seats = [(leader + i) % 4 for i in range(4)]
            a, b, c, d = (layout.mask(h[s]) for s in seats)
            key = search.key(a, b, c, d, leader)
            wide = search.wide_key(((d << 28 | c) << 28 | b) << 28 | a, leader)
            assert keys.setdefault(ref, (key, wide)) == (key, wide), ref
            assert seen_key.setdefault(key, ref) == ref
            assert seen_wide.setdefault(wide, ref) == ref
            assert key < 1 << 62
        assert len(keys) < 3000  # some positions did squeeze together


def test_the_sure_trump_tricks_are_those_worked_out_card_by_card() -> None:
    """The sure-trick bounds by look-up against the slow way: each side is sure of the
    most trumps one of its hands holds above every trump of the other side, and the leader
    of its trumps in an unbroken run from the top of those still out."""
    rng = random.Random(21)
    for _ in range(400):
        solver, position = random_position(rng, rng.randint(1, 5))
        if position.strain == NO_TRUMP or position.trick:
            continue
        trump = SUITS[position.strain]
        search = dd._Search(dd._layout(position.strain), dd._seating(position.active))
        seats = search.seats[position.leader]
        hands = [position.hands[s] if s >= 0 else 0 for s in seats]
        layout = dd._layout(position.strain)
        a, b, c, d = (layout.mask(h) for h in hands)
        found = search.trump_sure(a, b, c, d, position.leader)

        def trumps(cards: int, trump: Suit = trump) -> list[int]:
            held = [ALL_CARDS[i] for i in range(24) if cards >> i & 1]
            return [power(c, trump, trump) for c in held if effective_suit(c, trump) is trump]

        ns = [trumps(h) for s, h in zip(seats, hands, strict=True) if s >= 0 and s % 2 == 0]
        ew = [trumps(h) for s, h in zip(seats, hands, strict=True) if s >= 0 and s % 2 == 1]

        def sure(mine: list[list[int]], theirs: list[list[int]]) -> int:
            best = max((t for hand in theirs for t in hand), default=-1)
            return max((sum(1 for t in hand if t > best) for hand in mine), default=0)

        everyone = sorted((t for hand in ns + ew for t in hand), reverse=True)
        leads = trumps(hands[0])
        run = 0
        for t in everyone:
            if t not in leads:
                break
            run += 1
        assert found == sure(ns, ew) | sure(ew, ns) << 3 | run << 6, position


def _runs(layout: dd._Layout, hand: int, out: int) -> list[int]:
    """One card (bit number) of each run of ``hand``'s cards adjacent among those ``out``,
    its strongest, suit by suit in the search's order, strongest first: the slow way."""
    reps = []
    for suit in range(4):
        in_run = False
        for bit in range(suit * dd._W + dd._W - 1, suit * dd._W - 1, -1):
            if not out >> bit & 1:
                continue
            if hand >> bit & 1:
                if not in_run:
                    reps.append(bit)
                in_run = True
            else:
                in_run = False
    return reps


def test_the_moves_come_in_the_order_of_their_strength() -> None:
    """A void follower's cards weakest first by the engine's strength (ties in suit order),
    and a leader's: those that win at once (trumps first), then the rest from the weakest.
    Asked twice: compiled, the second answer is a kept one."""
    rng = random.Random(41)
    for strain in range(5):
        layout = dd._layout(strain)
        search = dd._Search(layout, dd._seating((True, True, True, True)))
        for _ in range(300):
            deck = rng.sample(range(24), rng.randint(4, 20))
            out = layout.mask(sum(1 << c for c in deck))
            hand = layout.mask(sum(1 << c for c in deck[: rng.randint(1, min(5, len(deck)))]))
            reps = _runs(layout, hand, out)
            by_suit_order = sorted(reps, key=lambda bit: (bit // dd._W, bit))
            void = sorted(by_suit_order, key=lambda bit: layout.strength[bit])
            top = [
                max(b for b in range(s * dd._W, (s + 1) * dd._W) if out >> b & 1)
                for s in range(4)
                if out >> (s * dd._W) & 127
            ]
            winners = [b for b in reps if b in top]
            winners.sort(key=lambda bit: (bit // dd._W != 3 or layout.trump < 0, bit // dd._W))
            rest = [b for b in reps if b not in winners]
            rest.sort(key=lambda bit: (bit // dd._W + (1 if layout.trump >= 0 else 0)) % 4)
            rest.sort(key=lambda bit: layout.strength[bit])
            for _ in range(2):
                assert search.void_list(hand, out) == tuple(1 << b for b in void)
                assert search.lead_moves(hand, out, -1) == winners + rest
                if len(reps) > 1:
                    hint = rng.choice(reps)
                    expected = [hint] + [b for b in winners + rest if b != hint]
                    assert search.lead_moves(hand, out, hint) == expected
            # Without a hint, the leads that were best before come first (ties as they were).
            for card in range(4 * dd._W):
                search.history[card] = -rng.choice((0, 4, 8, 16))
            by_history = sorted(winners + rest, key=lambda bit: search.history[bit])
            assert search.lead_moves(hand, out, -1) == by_history
            for card in range(4 * dd._W):
                search.history[card] = 0


def test_a_prepared_position_tests_as_its_position_does() -> None:
    """The foresight review tests prepared positions (no Position made for each layout):
    the same answers as test() of the position, for any threshold, mid-trick too."""
    rng = random.Random(51)
    for _ in range(300):
        solver, position = random_position(rng, rng.randint(1, 5))
        fresh = Solver(position.strain, position.active)
        prepared = solver.prepare(position.hands, position.leader, position.trick)
        assert prepared.left == position.tricks_left
        for k in range(-1, position.tricks_left + 2):
            assert solver.test_prepared(prepared, k) == fresh.test(position, k), (position, k)
            assert solver.at_least_prepared(prepared, k) == fresh.at_least(position, k)


CACHES = ("_SUIT_TABLES", "_LAYOUTS", "_SEATINGS")


def test_prepare_makes_every_strains_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker makes the tables as it starts: afterwards no search has one to make."""
    for name in CACHES:
        monkeypatch.setattr(dd, name, type(getattr(dd, name))())
    dd.prepare()
    assert len(dd._SUIT_TABLES) == 1
    assert sorted(dd._LAYOUTS) == [0, 1, 2, 3, 4]
    # Made by prepare, they are the ones a new solver uses: nothing is made twice.
    made = {name: copy.copy(getattr(dd, name)) for name in CACHES}
    for strain in range(5):
        Solver(strain).solve(Position(strain, (0b11, 0b1100, 0b110000, 0b11000000), 0))
    for name in CACHES:
        assert getattr(dd, name) == made[name], name
    if not dd._NATIVE:
        assert dd._KEY_TABLE  # the pure-Python search's key needs it


def test_a_starting_worker_prepares_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    from celery.signals import worker_init

    from euchre_site.celery import prepare_solver

    assert prepare_solver in [ref() for _, ref in worker_init.receivers]
    monkeypatch.setattr(dd, "_LAYOUTS", {})
    prepare_solver(sender=None)
    assert sorted(dd._LAYOUTS) == [0, 1, 2, 3, 4]
