"""The computer acting for a person: the lone legal action, the timeout's lowest card."""

from __future__ import annotations

from games.bots.timeouts import card_strength, lone_action, lowest_card, timeout_action
from games.engine.cards import Suit, parse_card
from games.engine.game import Game
from games.engine.hand import Call, Discard, Phase, Play
from games.engine.rules import Rules


def cards(text: str) -> list:
    return [parse_card(c) for c in text.split()]


def test_the_lowest_card_follows_power_under_trump() -> None:
    # Hearts trump: the left bower (JD) is a trump, above the ace of clubs.
    assert lowest_card(cards("JD AC 9H"), Suit.HEARTS, None) == parse_card("AC")
    # Spades led: a spade is above any off-suit card, the nine of clubs the lowest.
    assert lowest_card(cards("9S AD 9C"), Suit.HEARTS, Suit.SPADES) == parse_card("9C")
    # Trumps: nine under the left bower under the right bower.
    assert lowest_card(cards("JH JD 9H"), Suit.HEARTS, Suit.SPADES) == parse_card("9H")
    # Equal strength off-suit: the rank decides, then the suit.
    assert card_strength(parse_card("TC"), Suit.HEARTS, Suit.SPADES) > card_strength(
        parse_card("9D"), Suit.HEARTS, Suit.SPADES
    )


def _hand_in(phase: Phase, seed: int = 1):
    game = Game(Rules(), seed=seed)
    state = game.new_hand()
    while state.phase is not phase:
        assert not state.is_terminal
        legal = state.legal_actions()
        orders = [a for a in legal if isinstance(a, Call) and a.kind == "order_up" and not a.alone]
        state.apply(orders[0] if orders else legal[0])
    return state


def test_a_timeout_plays_the_lowest_legal_card() -> None:
    state = _hand_in(Phase.PLAY)
    action = timeout_action(state, "normal")
    assert isinstance(action, Play)
    legal = state.legal_cards(state.current_seat)
    trick = state.current_trick
    led = trick.led if trick is not None else None
    assert action.card == min(legal, key=lambda c: card_strength(c, state.trump, led))


def test_a_timeout_discards_the_lowest_card() -> None:
    state = _hand_in(Phase.DISCARD)
    action = timeout_action(state, "normal")
    assert isinstance(action, Discard)
    held = [c for c in state.hands[state.current_seat] if c is not None]
    assert action.card == lowest_card(held, state.trump, None)


def test_a_timeout_in_the_auction_is_the_computer_players_choice() -> None:
    state = Game(Rules(), seed=5).new_hand()
    action = timeout_action(state, "normal")
    assert action in state.legal_actions()
    assert isinstance(action, Call)


def test_the_lone_action_is_the_only_legal_one() -> None:
    state = _hand_in(Phase.PLAY)
    assert lone_action(state) is None or len(state.legal_actions()) == 1
    # Play until some seat has one card left: its play is the lone action.
    while not state.is_terminal and len(state.legal_actions()) > 1:
        state.apply(state.legal_actions()[0])
    if not state.is_terminal:
        assert lone_action(state) == state.legal_actions()[0]
