"""Cards, suits and seats: the bowers' two functions, parsing."""

from __future__ import annotations

import pytest

from games.engine.cards import (
    ALL_CARDS,
    Bower,
    Card,
    Rank,
    Seat,
    Suit,
    Team,
    bower,
    effective_suit,
    format_card,
    parse_card,
    parse_card_or_unknown,
    parse_seat,
    parse_suit,
    power,
    sort_cards,
)
from games.engine.errors import CardError
from games.engine.hand import Call, HandState, Play
from games.engine.rules import Rules

H, D, S, C = Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS


def card(text: str) -> Card:
    return parse_card(text)


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def winner(trick: str, trump: Suit | None) -> str:
    """The card that wins a trick written as its cards in order."""
    played = cards(trick)
    led = effective_suit(played[0], trump)
    return str(max(played, key=lambda c: power(c, trump, led)))


# -- the left bower -------------------------------------------------------------------------


@pytest.mark.parametrize(("trump", "left"), [(H, "JD"), (D, "JH"), (S, "JC"), (C, "JS")])
def test_the_left_bower_is_the_jack_of_the_same_colour(trump: Suit, left: str) -> None:
    assert effective_suit(card(left), trump) is trump
    assert trump.same_colour is card(left).suit


def test_the_left_bower_follows_trump_and_not_its_printed_suit() -> None:
    assert effective_suit(card("JD"), H) is H
    assert effective_suit(card("JD"), D) is D  # the right bower is trump too
    assert effective_suit(card("JD"), S) is D  # a plain jack when black suits are trump
    assert effective_suit(card("JD"), C) is D


def test_the_other_jacks_keep_their_suits() -> None:
    assert [effective_suit(j, H) for j in cards("JS JC")] == [S, C]


def test_leading_the_left_bower_calls_for_trump() -> None:
    state = _playing(
        trump="H",
        hands={
            "N": "JD 9C KD AS TS",
            "E": "9H AD QD KS QS",
            "S": "TH AC KC JC 9S",
            "W": "QH TD 9D JS KH",
        },
    )
    state.apply(Play(card("JD")))
    # E holds diamonds (AD QD) but the led suit is hearts: E must play its heart.
    assert state.legal_cards(Seat.E) == [card("9H")]


def test_a_player_holding_only_the_left_bower_of_the_led_printed_suit_need_not_follow_it() -> None:
    state = _playing(
        trump="H",
        hands={
            "N": "AD 9C KC AS TS",
            "E": "JD AC QC KS QS",
            "S": "TH 9D KD JC 9S",
            "W": "QH TD QD JS KH",
        },
    )
    state.apply(Play(card("AD")))
    # E's only diamond is JD, which is a heart: E may play anything.
    assert sorted(map(str, state.legal_cards(Seat.E))) == ["AC", "JD", "KS", "QC", "QS"]


def test_the_left_bower_must_be_played_when_trump_is_led_and_it_is_the_only_trump() -> None:
    state = _playing(
        trump="H",
        hands={
            "N": "AH 9C KC AS TS",
            "E": "JD AC QC KS QS",
            "S": "TH 9D KD JC 9S",
            "W": "QH TD QD JS KH",
        },
    )
    state.apply(Play(card("AH")))
    assert state.legal_cards(Seat.E) == [card("JD")]


def test_the_left_bower_beats_the_trump_ace_and_loses_to_the_right() -> None:
    assert winner("AH JD KH", H) == "JD"
    assert winner("JD JH AH", H) == "JH"
    assert power(card("JH"), H, H) > power(card("JD"), H, H) > power(card("AH"), H, H)


def test_trumps_rank_right_left_ace_king_queen_ten_nine() -> None:
    order = cards("JS JC AS KS QS TS 9S")
    powers = [power(c, S, D) for c in order]
    assert powers == sorted(powers, reverse=True)
    assert len(set(powers)) == 7


def test_any_trump_beats_the_ace_of_the_led_suit() -> None:
    assert winner("AD KD 9H", H) == "9H"
    assert winner("AD KD JD", C) == "AD"  # JD is a plain diamond under clubs


def test_the_left_bower_led_is_beaten_by_a_higher_trump_but_not_by_its_printed_suit() -> None:
    assert winner("JD AD KD QH", H) == "JD"
    assert winner("JD AD KD JH", H) == "JH"


def test_a_card_of_neither_the_led_suit_nor_trump_cannot_win() -> None:
    assert winner("9C AS AD", H) == "9C"
    assert power(card("AS"), H, C) == 0


def test_plain_suits_rank_ace_king_queen_jack_ten_nine() -> None:
    order = cards("AC KC QC JC TC 9C")
    powers = [power(c, H, C) for c in order]
    assert powers == sorted(powers, reverse=True)
    assert len(set(powers)) == 6


@pytest.mark.parametrize("trump", list(Suit))
def test_there_are_seven_trumps_in_every_suit(trump: Suit) -> None:
    trumps = [c for c in ALL_CARDS if effective_suit(c, trump) is trump]
    assert len(trumps) == 7
    assert {str(c) for c in trumps if c.rank is Rank.JACK} == {
        "J" + trump.value,
        "J" + trump.same_colour.value,
    }


@pytest.mark.parametrize("trump", list(Suit))
def test_the_left_bowers_printed_suit_has_five_cards(trump: Suit) -> None:
    weak = [c for c in ALL_CARDS if effective_suit(c, trump) is trump.same_colour]
    assert len(weak) == 5
    others = [s for s in Suit if s not in (trump, trump.same_colour)]
    for suit in others:
        assert len([c for c in ALL_CARDS if effective_suit(c, trump) is suit]) == 6


def test_no_trump_has_no_bowers() -> None:
    assert all(effective_suit(c, None) is c.suit for c in ALL_CARDS)
    assert winner("JD AD QD", None) == "AD"
    assert winner("QH JH", None) == "QH"
    assert winner("9S AH AD AC", None) == "9S"  # nobody followed, nothing can ruff


def test_no_trump_ranks_every_suit_ace_king_queen_jack_ten_nine() -> None:
    order = cards("AH KH QH JH TH 9H")
    powers = [power(c, None, H) for c in order]
    assert powers == sorted(powers, reverse=True)
    assert len(set(powers)) == 6


# -- parsing and formatting ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("JH", "JH"),
        ("TD", "TD"),
        ("10D", "TD"),
        ("10♦", "TD"),
        ("jh", "JH"),
        ("as", "AS"),
        ("tc", "TC"),
        ("9s", "9S"),
        ("J♥", "JH"),
        ("J♥\ufe0f", "JH"),  # with the emoji variation selector
        ("A♠️", "AS"),
        ("K♣", "KC"),
        ("Q♦\ufe0f", "QD"),
        (" QS ", "QS"),
    ],
)
def test_it_reads_cards_written_many_ways(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["1H", "JX", "8S", "", "JHH", "10", "11H", "??"])
def test_it_rejects_what_is_not_a_card(text: str) -> None:
    with pytest.raises(CardError, match=f"unknown card {text!r}"):
        parse_card(text)


def test_it_rejects_a_card_that_is_not_text() -> None:
    with pytest.raises(CardError, match="expected a card such as 'JH', got 12"):
        parse_card(12)


def test_an_unknown_card_is_written_as_two_question_marks() -> None:
    assert parse_card_or_unknown("??") is None
    assert parse_card_or_unknown("jh") == card("JH")
    assert format_card(None) == "??"
    assert format_card(card("TS")) == "TS"


def test_every_card_formats_canonically_and_reads_back() -> None:
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 24
    for c in ALL_CARDS:
        text = format_card(c)
        assert len(text) == 2 and text[0] in "9TJQKA" and text[1] in "SHDC"
        assert parse_card(text) is c
        assert parse_card(text.lower()) is c


@pytest.mark.parametrize(
    ("text", "suit"),
    [("H", H), ("h", H), ("hearts", H), ("♥", H), ("♥\ufe0f", H), ("♤", S), ("Clubs", C)],
)
def test_it_reads_suits(text: str, suit: Suit) -> None:
    assert parse_suit(text) is suit


def test_it_rejects_an_unknown_suit() -> None:
    with pytest.raises(CardError, match=r"unknown suit 'X' \(expected S, H, D or C\)"):
        parse_suit("X")


def test_it_reads_seats_by_letter_or_word() -> None:
    assert [parse_seat(t) for t in ("n", "East", "S", "west")] == [Seat.N, Seat.E, Seat.S, Seat.W]
    with pytest.raises(CardError, match=r"unknown seat 'Q' \(expected N, E, S or W\)"):
        parse_seat("Q")


def test_seats_go_clockwise_and_partners_sit_opposite() -> None:
    assert [s.next for s in Seat] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert [s.partner for s in Seat] == [Seat.S, Seat.W, Seat.N, Seat.E]
    assert [s.team for s in Seat] == [Team.NS, Team.EW, Team.NS, Team.EW]
    assert Team.NS.other is Team.EW


def test_hands_sort_suit_by_suit_high_to_low_with_unknowns_last() -> None:
    hand: list[Card | None] = [None, card("9H"), card("AS"), card("JH"), card("TS")]
    assert [format_card(c) for c in sort_cards(hand)] == ["AS", "TS", "JH", "9H", "??"]


# -- helpers --------------------------------------------------------------------------------


def _playing(trump: str, hands: dict[str, str]) -> HandState:
    """A hand in play with ``trump`` named by N (W deals, N leads)."""
    dealt: dict[Seat, list[Card | None]] = {
        Seat(seat): [*cards(text)] for seat, text in hands.items()
    }
    used = {c for hand in dealt.values() for c in hand}
    rest = [c for c in ALL_CARDS if c not in used]
    upcard = next(c for c in rest if c.suit.value != trump and c.rank is not Rank.JACK)
    kitty: list[Card | None] = [c for c in rest if c != upcard]
    state = HandState(Rules(), Seat.W, dealt, upcard, kitty)
    for _ in range(4):
        state.apply(Call("pass"))
    state.apply(Call("name", parse_suit(trump)))
    assert state.current_seat is Seat.N
    return state


def test_bower_names_the_two_trump_jacks_and_nothing_else() -> None:
    for trump in Suit:
        found = {card: bower(card, trump) for card in ALL_CARDS if bower(card, trump)}
        assert found == {
            Card(Rank.JACK, trump): Bower.RIGHT,
            Card(Rank.JACK, trump.same_colour): Bower.LEFT,
        }
    assert all(bower(card, None) is None for card in ALL_CARDS)
