"""Questions about cards in play: the suit a card belongs to, the trumps of a hand, the cards
that may be played, the card that wins a trick.

Each kind has one answer, worked out here from the engine's ``effective_suit`` and
``power`` (:func:`trick_winner`, :func:`trumps_in`, :func:`playable`), for the quiz's
questions and the course's exercises alike, and one explanation of it
(:func:`explain_trick`, :func:`explain_trumps`, :func:`explain_legal`,
:func:`explain_effective_suit`), which the questions and ``lessons.content`` both use.

The quiz's positions come from real hands: dealt by the engine, trump named, cards played
by its rules (with the players favouring the cards a skill is about), so every trick could
have happened.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from games.engine.cards import (
    ALL_CARDS,
    Bower,
    Card,
    Rank,
    Seat,
    Suit,
    bower,
    effective_suit,
    power,
    sort_cards,
)
from games.engine.game import deal
from games.engine.hand import NT, Call, HandState, Phase, Play
from games.engine.rules import PRESETS, Rules
from games.engine.words import (
    capital,
    the,
    the_cards,
    trick_text,
    trump_sentence,
    what_it_is,
)

from .question import Draft, Explanation, Grading

__all__ = [
    "effective_suit_question",
    "explain_effective_suit",
    "explain_legal",
    "explain_trick",
    "explain_trumps",
    "fixed_deal",
    "legal_question",
    "playable",
    "skip_farmers",
    "start_hand",
    "trick_winner",
    "trumps_in",
    "trumps_question",
    "winner_question",
]

PASS = Call("pass")
ATTEMPTS = 500
"""Deals tried for a situation before giving up; the situations asked for are common enough
that a few dozen always do."""

Trick = list[tuple[Seat, Card]]


def _is_left(card: Card, trump: Suit | None) -> bool:
    return bower(card, trump) is Bower.LEFT


# -- the answers ---------------------------------------------------------------------------


def trick_winner(trick: Trick, trump: Suit | None) -> Card:
    """The card that takes ``trick`` (its cards in the order played) under ``trump``."""
    led = effective_suit(trick[0][1], trump)
    return max(trick, key=lambda play: power(play[1], trump, led))[1]


def trumps_in(hand: list[Card], trump: Suit) -> list[Card]:
    """The trumps of ``hand``, in its order: the left bower among them."""
    return [c for c in hand if effective_suit(c, trump) is trump]


def playable(hand: list[Card], trick: Trick, trump: Suit | None) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick``: those that follow the suit
    led, or any card when none does (and any card to lead)."""
    if not trick:
        return list(hand)
    led = effective_suit(trick[0][1], trump)
    following = [c for c in hand if effective_suit(c, trump) is led]
    return following or list(hand)


# -- positions -----------------------------------------------------------------------------


def fixed_deal(
    rules: Rules,
    dealer: Seat,
    upcard: Card | None = None,
    fixed: Mapping[Seat, list[Card]] | None = None,
) -> HandState:
    """A deal in which ``fixed`` seats hold the given cards; the rest is filled in order."""
    fixed = fixed or {}
    used = {c for cards in fixed.values() for c in cards}
    spare = [c for c in ALL_CARDS if c not in used and c != upcard]
    if upcard is None:
        upcard = spare.pop()
    hands: dict[Seat, list[Card | None]] = {}
    for seat in Seat:
        if seat in fixed:
            hands[seat] = list(fixed[seat])
        else:
            hands[seat], spare = list(spare[:5]), spare[5:]
    return HandState(rules, dealer, hands, upcard, list(spare[:3]))


def skip_farmers(state: HandState) -> None:
    """Let every seat keep its hand where the table plays the farmer's hand."""
    while state.phase is Phase.FARMER:
        state.apply(PASS)


def start_hand(
    rng: random.Random,
    rules: Rules,
    trump: Suit | None,
    maker: Seat,
    *,
    alone: bool = False,
    dealer: Seat | None = None,
    defender_alone: Seat | None = None,
) -> HandState:
    """A freshly dealt hand in which ``maker`` names ``trump`` (``None``: no-trump) in the
    second round, ready for the first lead."""
    dealer = dealer if dealer is not None else rng.choice(list(Seat))
    while True:
        dealt = deal(rng, dealer)
        upcard, kitty = dealt.upcard, list(dealt.kitty)
        if trump is not None and upcard.suit is trump:
            # The named suit cannot be the turned-down one: turn up a kitty card instead.
            others = [c for c in kitty if c is not None and c.suit is not trump]
            if not others:
                continue
            kitty[kitty.index(others[0])] = upcard
            upcard = others[0]
        break
    state = HandState(rules, dealer, dealt.hands, upcard, kitty)
    while state.passes < 4 or state.current_seat is not maker:
        state.apply(PASS)
    state.apply(Call("name", NT if trump is None else trump, alone))
    while state.phase is Phase.DEFEND:
        seat = state.current_seat
        state.apply(Call("defend_alone") if seat is defender_alone else PASS)
    return state


Favour = Callable[[Card], bool]


def _play_one(state: HandState, rng: random.Random, favour: Favour) -> None:
    seat = state.current_seat
    assert seat is not None
    legal = state.legal_cards(seat)
    liked = [c for c in legal if favour(c)]
    card = rng.choice(liked) if liked and rng.random() < 0.75 else rng.choice(legal)
    state.apply(Play(card))


# -- effective suit ------------------------------------------------------------------------


def explain_effective_suit(card: Card, trump: Suit | None) -> Explanation:
    """Which suit ``card`` belongs to in play under ``trump``, and why; its printed suit,
    where that is wrong, is told so."""
    feedback = {}
    if trump is not None and effective_suit(card, trump) is not card.suit:
        feedback[card.suit.value] = f"Not {card.suit.plural}."
    return Explanation(_why_suit(card, trump), feedback)


def _why_suit(card: Card, trump: Suit | None) -> str:
    if trump is None:
        return f"At no-trump there are no bowers: {the(card)} is simply a {card.suit.plural[:-1]}."
    which = bower(card, trump)
    if which is Bower.LEFT:
        return (
            f"With {trump.plural} trump, {the(card)} is the left bower: it belongs to "
            f"{trump.plural}, the trump suit, not to {card.suit.plural}."
        )
    if which is Bower.RIGHT:
        return f"{capital(the(card))} is the right bower, the highest trump: it stays a trump."
    if card.rank is Rank.JACK:
        return (
            f"Only the two jacks of the trump colour are bowers: with {trump.plural} trump "
            f"{the(card)} is an ordinary {card.suit.plural[:-1]}."
        )
    return f"Only a jack can change suit: {the(card)} stays a {card.suit.plural[:-1]}."


def effective_suit_question(rng: random.Random, level: int, *, focus_left: bool) -> Draft:
    """Which suit does this card belong to? Mostly jacks; the left bower above all."""
    no_trump = level == 3 and rng.random() < 0.2
    trump = None if no_trump else rng.choice(list(Suit))
    jacks = [c for c in ALL_CARDS if c.rank is Rank.JACK]
    roll = rng.random()
    left_share = {1: 0.6, 2: 0.5, 3: 0.4}[level] if focus_left else 0.25
    if trump is not None and roll < left_share:
        card = next(c for c in jacks if c.suit is trump.same_colour)
    elif level >= 2 or roll < 0.7:
        card = rng.choice(jacks)
    else:
        card = rng.choice(ALL_CARDS)
    suit = effective_suit(card, trump)
    why = explain_effective_suit(card, trump)
    position: dict[str, object] = {"trump": "NT" if trump is None else trump.value}
    position["card"] = str(card)
    if trump is None:
        position["rules"] = {"preset": "no-trump"}
    prompt = f"{trump_sentence(trump)} Which suit does {the(card)} belong to in play?"
    return Draft(
        kind="effective_suit",
        prompt=prompt,
        position=position,
        choices=[s.value for s in Suit],
        multiple=False,
        grading=Grading(
            answer=[suit.value], accepted=[suit.value], explanation=why.text, feedback=why.feedback
        ),
    )


# -- trumps in a hand ----------------------------------------------------------------------


def trumps_question(rng: random.Random, level: int, *, focus_left: bool) -> Draft:
    """Which of these cards are trump? The left bower is the one to count."""
    trump = rng.choice(list(Suit))
    left = next(c for c in ALL_CARDS if bower(c, trump) is Bower.LEFT)
    right = next(c for c in ALL_CARDS if bower(c, trump) is Bower.RIGHT)
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    hand = deck[:5]
    wanted: list[Card] = []
    if focus_left or level >= 2:
        wanted.append(left)
    if level == 3:
        wanted.append(right)
        same = [c for c in ALL_CARDS if c.suit is trump.same_colour and c is not left]
        wanted.append(rng.choice(same))
    for card in wanted:
        if card not in hand:
            hand[next(i for i, c in enumerate(hand) if c not in wanted)] = card
    hand = [c for c in sort_cards(list(hand)) if c is not None]
    trumps = trumps_in(hand, trump)
    why = explain_trumps(hand, trump)
    return Draft(
        kind="trumps",
        prompt=f"{trump_sentence(trump)} Which cards of this hand are trumps? Choose every one.",
        position={"trump": trump.value, "hand": [str(c) for c in hand]},
        choices=[str(c) for c in hand],
        multiple=True,
        grading=Grading(
            answer=[str(c) for c in trumps],
            accepted=[str(c) for c in trumps],
            explanation=why.text,
            feedback=why.feedback,
        ),
    )


def explain_trumps(hand: list[Card], trump: Suit) -> Explanation:
    """Which cards of ``hand`` are trump (:func:`trumps_in`), and of each card why it is
    or is not."""
    trumps = trumps_in(hand, trump)
    left = next(c for c in ALL_CARDS if bower(c, trump) is Bower.LEFT)
    feedback = {}
    for card in hand:
        if effective_suit(card, trump) is trump:
            feedback[str(card)] = f"{capital(what_it_is(card, trump))} is a trump."
        else:
            feedback[str(card)] = f"{capital(the(card))} is not a trump: it is a " + (
                f"{card.suit.plural[:-1]}."
            )
    if trumps:
        count = "one trump" if len(trumps) == 1 else f"{len(trumps)} trumps"
        explanation = (
            f"With {trump.plural} trump, the trumps are the {trump.plural}, the jack of "
            f"{trump.same_colour.plural} (the left bower) included. This hand holds {count}: "
            f"{the_cards(trumps)}."
        )
    else:
        explanation = (
            f"With {trump.plural} trump, the trumps are the {trump.plural} and the jack of "
            f"{trump.same_colour.plural} (the left bower). This hand holds none."
        )
    if left in hand:
        explanation += f" {capital(the(left))} counts as a {trump.plural[:-1]}."
    return Explanation(explanation, feedback)


# -- tricks in play ------------------------------------------------------------------------


def _situation(rng: random.Random, *, lone: bool, no_trump: bool) -> tuple[Suit | None, HandState]:
    """A hand dealt and bid, ready for the first lead: a random trump and maker."""
    rules = PRESETS["no-trump"] if no_trump else PRESETS["standard"]
    trump = None if no_trump else rng.choice(list(Suit))
    maker = rng.choice(list(Seat))
    return trump, start_hand(rng, rules, trump, maker, alone=lone)


def _favour(trump: Suit | None, *, focus_left: bool, level: int) -> Favour:
    if focus_left:
        return lambda c: bower(c, trump) is not None
    if level >= 2:
        return lambda c: trump is not None and effective_suit(c, trump) is trump
    return lambda c: False


def _base_position(state: HandState, trump: Suit | None) -> dict[str, object]:
    position: dict[str, object] = {"trump": "NT" if trump is None else trump.value}
    if trump is None:
        position["rules"] = {"preset": "no-trump"}
    if state.alone:
        assert state.maker is not None
        position["alone"] = state.maker.value
    return position


def _lone_sentence(state: HandState) -> str:
    if not state.alone:
        return ""
    assert state.maker is not None
    return f" {state.maker.word} is going alone, so {state.maker.partner.word} sits out."


def _led_sentence(trick: Trick, trump: Suit | None) -> str:
    seat, lead = trick[0]
    led = effective_suit(lead, trump)
    if _is_left(lead, trump):
        assert trump is not None
        return (
            f"{seat.word} led {the(lead)}, the left bower: it is a {trump.plural[:-1]}, "
            f"so trump was led, not {lead.suit.plural}."
        )
    return f"{seat.word} led {the(lead)}, so {led.plural} were led."


def _wants_winner(trick: Trick, trump: Suit | None, level: int, focus_left: bool) -> bool:
    cards = [c for _, c in trick]
    if focus_left:
        if not any(_is_left(c, trump) for c in cards):
            return False
        if level == 3:
            return any(bower(c, trump) is Bower.RIGHT for c in cards) or (
                trump is not None and any(c.suit is trump.same_colour for c in cards[:1])
            )
        return True
    trumps = [c for c in cards if trump is not None and effective_suit(c, trump) is trump]
    if level == 2:
        return len(trumps) >= 1 and effective_suit(cards[0], trump) is not trump
    return True


def winner_question(rng: random.Random, level: int, *, focus_left: bool) -> Draft:
    """Which card wins this trick? Left-bower tricks, tricks with trumps, lone hands and
    no-trump as the level rises."""
    lone = level == 3 and rng.random() < 0.5
    no_trump = level == 3 and not focus_left and not lone and rng.random() < 0.5
    for _ in range(ATTEMPTS):
        trump, state = _situation(rng, lone=lone, no_trump=no_trump)
        favour = _favour(trump, focus_left=focus_left, level=level)
        last = 1 if level == 1 else 3
        for number in range(last):
            while len(state.tricks) == number + 1 and state.phase is Phase.PLAY:
                _play_one(state, rng, favour)
            done = state.tricks[number]
            if _wants_winner(list(done.cards), trump, level, focus_left):
                return _winner_draft(state, number, trump)
    raise RuntimeError("no trick of the kind wanted was dealt")  # pragma: no cover


def _winner_draft(state: HandState, number: int, trump: Suit | None) -> Draft:
    trick = list(state.tricks[number].cards)
    winner = trick_winner(trick, trump)
    why = explain_trick(trick, trump)
    position = _base_position(state, trump)
    position["trick"] = [[seat.value, str(card)] for seat, card in trick]
    prompt = (
        f"{trump_sentence(trump)}{_lone_sentence(state)} The trick, in the order played: "
        f"{trick_text(trick)}. Which card wins the trick?"
    )
    return Draft(
        kind="winner",
        prompt=prompt,
        position=position,
        choices=[str(card) for _, card in trick],
        multiple=False,
        grading=Grading(
            answer=[str(winner)],
            accepted=[str(winner)],
            explanation=why.text,
            feedback=why.feedback,
        ),
    )


def explain_trick(trick: Trick, trump: Suit | None) -> Explanation:
    """Why :func:`trick_winner` takes ``trick``, and of each other card why it loses."""
    led = effective_suit(trick[0][1], trump)
    winner = trick_winner(trick, trump)
    trumps = [c for _, c in trick if trump is not None and effective_suit(c, trump) is trump]
    sentences = [_led_sentence(trick, trump)]
    if winner in trumps:
        others = [c for c in trumps if c != winner]
        if others:
            names = [what_it_is(c, trump) for c in others]
            listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            sentences.append(f"The highest trump wins: {what_it_is(winner, trump)} beats {listed}.")
        else:
            sentences.append(f"{capital(what_it_is(winner, trump))} is the only trump, so it wins.")
        if _is_left(winner, trump):
            beaten = [c for _, c in trick if c.suit is winner.suit and c != winner]
            if beaten:
                sentences.append(
                    f"It beats {the_cards(beaten)}, which {'is' if len(beaten) == 1 else 'are'} "
                    "not trump."
                )
    else:
        opening = (
            "At no-trump the highest card of the suit led wins"
            if trump is None
            else "No trump was played, so the highest card of the suit led wins"
        )
        sentences.append(f"{opening}: {the(winner)}.")
    feedback: dict[str, str] = {}
    for _, card in trick:
        if card == winner:
            continue
        suit = effective_suit(card, trump)
        if trump is not None and suit is trump:
            why = f"{capital(what_it_is(card, trump))} is a trump, but a lower one."
        elif suit is led:
            why = f"{capital(the(card))} follows suit, but " + (
                f"{what_it_is(winner, trump)} is a trump."
                if winner in trumps
                else f"{the(winner)} ranks higher."
            )
        elif trump is None:
            why = (
                f"{capital(the(card))} does not follow {led.plural}, and at no-trump no "
                "other suit can win the trick."
            )
        else:
            why = (
                f"{capital(the(card))} neither follows {led.plural} nor is a trump, "
                "so it cannot win."
            )
        feedback[str(card)] = why
    return Explanation(" ".join(sentences), feedback)


def _wants_legal(state: HandState, level: int, focus_left: bool) -> bool:
    seat = state.current_seat
    trick = state.current_trick
    if seat is None or trick is None or not trick.cards:
        return False
    trump = state.trump
    hand = [c for c in state.hands[seat] if c is not None]
    lead = trick.cards[0][1]
    left_held = any(_is_left(c, trump) for c in hand)
    if focus_left or level >= 2:
        # The left bower held when its own printed suit is led, or led itself.
        return (left_held and (lead.suit is _left_suit(trump) or trick.led is trump)) or (
            _is_left(lead, trump)
        )
    return True


def _left_suit(trump: Suit | None) -> Suit | None:
    return None if trump is None else trump.same_colour


def legal_question(rng: random.Random, level: int, *, focus_left: bool) -> Draft:
    """Which of your cards may you play to this trick?"""
    lone = level == 3 and rng.random() < 0.3
    for _ in range(ATTEMPTS):
        trump, state = _situation(rng, lone=lone, no_trump=False)
        favour = _favour(trump, focus_left=True, level=level)
        last_card = 4 * (1 if level == 1 else 3)
        while state.phase is Phase.PLAY and state.cards_played < last_card:
            if _wants_legal(state, level, focus_left) and rng.random() < 0.8:
                return _legal_draft(state, trump)
            _play_one(state, rng, favour)
    raise RuntimeError("no position of the kind wanted was dealt")  # pragma: no cover


def _legal_draft(state: HandState, trump: Suit | None) -> Draft:
    seat = state.current_seat
    trick = state.current_trick
    assert seat is not None and trick is not None
    hand = [c for c in sort_cards(list(state.hands[seat])) if c is not None]
    cards = list(trick.cards)
    why = explain_legal(hand, cards, trump)
    position = _base_position(state, trump)
    position["seat"] = seat.value
    position["hand"] = [str(c) for c in hand]
    position["trick"] = [[s.value, str(c)] for s, c in cards]
    prompt = (
        f"{trump_sentence(trump)}{_lone_sentence(state)} You are {seat.word}. The trick so "
        f"far: {trick_text(cards)}. Which of your cards may you play? Choose every one."
    )
    legal = playable(hand, cards, trump)
    answer = [str(c) for c in hand if c in legal]
    return Draft(
        kind="legal",
        prompt=prompt,
        position=position,
        choices=[str(c) for c in hand],
        multiple=True,
        grading=Grading(
            answer=answer, accepted=answer, explanation=why.text, feedback=why.feedback
        ),
    )


def explain_legal(
    hand: list[Card], trick: Trick, trump: Suit | None, seat: Seat | None = None
) -> Explanation:
    """Which cards of ``hand`` may be played to ``trick`` (:func:`playable`), and of each
    card why it may or may not; ``seat`` holds the hand (``None``: the learner, "you")."""
    if not trick:
        return Explanation("Whoever leads may lead any card.")
    who = "you" if seat is None else seat.word
    holds = "hold" if seat is None else "holds"
    led = effective_suit(trick[0][1], trump)
    legal = playable(hand, trick, trump)
    following = [c for c in hand if effective_suit(c, trump) is led]
    sentences = [_led_sentence(trick, trump)]
    if following:
        sentences.append(
            f"{capital(who)} can follow suit with {the_cards(following)}, so {who} must play "
            + ("it." if len(following) == 1 else "one of them.")
        )
    else:
        sentences.append(
            f"{capital(who)} {holds} no {led.plural[:-1]}, so {who} may play any card."
        )
    for card in hand:
        if _is_left(card, trump) and trump is not None:
            if led is trump:
                sentences.append(f"{capital(the(card))} is the left bower, a trump: it follows.")
            elif led is card.suit:
                sentences.append(
                    f"{capital(the(card))} is the left bower, a {trump.plural[:-1]}: it does not "
                    f"count as a {card.suit.plural[:-1]}."
                )
    feedback = {}
    one = led.plural[:-1]
    for card in hand:
        if card in legal and card in following:
            why = f"{capital(what_it_is(card, trump))} follows {led.plural}, so it may be played."
        elif card in legal:
            why = f"{capital(the(card))} may be played: {who} {holds} no {one}."
        elif _is_left(card, trump):
            why = (
                f"{capital(what_it_is(card, trump))} may not be played: it is no {one}, and "
                f"{who} can follow {led.plural}."
            )
        else:
            why = f"{capital(the(card))} may not be played: {who} can follow {led.plural}."
        feedback[str(card)] = why
    return Explanation(" ".join(sentences), feedback)
