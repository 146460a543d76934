"""The state of one hand, from the deal to the last trick, as an explicit state machine.

``HandState`` follows the shape of python-chess and OpenSpiel: ``legal_actions()``,
``apply(action)``, ``current_seat``, ``is_terminal``, ``result()``. A hand goes
through these phases::

    FARMER (optional) -> AUCTION -> DEFEND (optional) -> DISCARD (if picked up) -> PLAY -> DONE

Cards may be unknown (``None``): real records rarely know the dealer's discard
or the hand of a partner who sat out. The state then checks what it can and
notes what it cannot decide in ``undecided``.
"""

from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass, field
from typing import Literal

from .cards import (
    ALL_CARDS,
    ALL_SEATS,
    ALL_SUITS,
    Card,
    Rank,
    Seat,
    Suit,
    Team,
    effective_suit,
    power,
    sort_cards,
)
from .errors import IllegalActionError
from .rules import Rules
from .scoring import HandResult, score_hand

__all__ = [
    "NT",
    "Action",
    "Call",
    "CallKind",
    "Discard",
    "FarmerRedeal",
    "FarmerSwap",
    "HandState",
    "Phase",
    "Play",
    "Strain",
]

NT: Literal["NT"] = "NT"
Strain = Suit | Literal["NT"]
CallKind = Literal["pass", "order_up", "name", "defend_alone"]


class Phase(enum.Enum):
    FARMER = "farmer"
    AUCTION = "auction"
    DEFEND = "defend"
    DISCARD = "discard"
    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True)
class Call:
    """A bid. ``pass`` also declines an optional declaration (farmer's hand, defending alone)."""

    kind: CallKind
    suit: Strain | None = None
    alone: bool = False

    def __str__(self) -> str:
        text = {"pass": "pass", "order_up": "order up", "defend_alone": "defend alone"}.get(
            self.kind, f"name {self.suit}"
        )
        return text + (" alone" if self.alone else "")


@dataclass(frozen=True)
class Discard:
    """The dealer's discard after picking up; ``None`` when the card is unknown."""

    card: Card | None


@dataclass(frozen=True)
class Play:
    card: Card


@dataclass(frozen=True)
class FarmerSwap:
    """Swap three weak cards for the kitty (the farmer's hand).

    The three cards are a set, held in a hand's canonical order (:func:`sort_cards`): one
    swap is one action whatever order the hand was dealt or written in, so the actions of a
    hand replay on the same deal written otherwise (a record's sorted, revealed hands).

    >>> from games.engine.cards import parse_card
    >>> FarmerSwap((parse_card("TC"), parse_card("9C"), parse_card("TS"))).cards
    (TS, TC, 9C)
    """

    cards: tuple[Card, Card, Card]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sort_cards(list(self.cards))))


@dataclass(frozen=True)
class FarmerRedeal:
    """Show a farmer's hand and ask for a redeal (the redeal variant)."""


Action = Call | Discard | Play | FarmerSwap | FarmerRedeal

PASS = Call("pass")

# Actions are values: the legal ones are handed out from these, made once, rather than
# made anew for every question (the review asks for legal actions by the ten thousand).
_CALLS: dict[tuple[CallKind, Strain | None, bool], Call] = {}


def _call(kind: CallKind, suit: Strain | None, alone: bool) -> Call:
    call = _CALLS.get((kind, suit, alone))
    if call is None:
        call = _CALLS[(kind, suit, alone)] = Call(kind, suit, alone)
    return call


_PLAYS = tuple(Play(card) for card in ALL_CARDS)
_DISCARDS = tuple(Discard(card) for card in ALL_CARDS)


def _word(strain: Strain) -> str:
    return "no-trump" if strain == NT else strain.plural


@dataclass
class _Trick:
    leader: Seat
    cards: list[tuple[Seat, Card]] = field(default_factory=list)
    led: Suit | None = None


_BLANK: dict[Seat, list[Card | None]] = {}
"""The hands that make :class:`HandState` leave a new state blank, for :meth:`HandState.copy`
to fill (compiled by mypyc, a class cannot be made without running its ``__init__``)."""


class HandState:
    """One hand of Euchre. Build it with :meth:`deal`; then ``apply`` actions in turn."""

    def __init__(
        self,
        rules: Rules,
        dealer: Seat,
        hands: dict[Seat, list[Card | None]],
        upcard: Card,
        kitty: list[Card | None],
    ) -> None:
        if hands is _BLANK:
            return  # a copy in the making: copy() sets every attribute itself
        self.rules = rules
        self.dealer = dealer
        self.dealt: dict[Seat, tuple[Card | None, ...]] = {s: tuple(hands[s]) for s in ALL_SEATS}
        self.hands: dict[Seat, list[Card | None]] = {s: list(hands[s]) for s in ALL_SEATS}
        self.upcard = upcard
        self.kitty: list[Card | None] = list(kitty)
        self.dealt_kitty: tuple[Card | None, ...] = tuple(kitty)
        self.known: set[Card] = {c for s in ALL_SEATS for c in hands[s] if c is not None}
        self.known.add(upcard)
        self.known.update(c for c in kitty if c is not None)

        self.phase = Phase.AUCTION
        self.current_seat: Seat | None = dealer.next
        self.farmer: FarmerSwap | FarmerRedeal | None = None
        self.farmer_seat: Seat | None = None
        self.auction: list[tuple[Seat, Call]] = []
        self.passes = 0
        self.strain: Strain | None = None
        self.maker: Seat | None = None
        self.alone = False
        self.defender_alone: Seat | None = None
        self.picked_up = False
        self.discard: Card | None = None
        self.discarded = False
        self.tricks: list[_Trick] = []
        self.tricks_won: dict[Team, int] = {Team.NS: 0, Team.EW: 0}
        self.shown_out: dict[Seat, set[Suit]] = {s: set() for s in ALL_SEATS}
        self.undecided: list[str] = []
        self.passed_out = False
        self.history: list[tuple[Seat, Action]] = []
        """Every action applied, in order, with the seat that took it."""
        self.history_phases: list[Phase] = []
        """The phase each action of ``history`` was taken in."""
        self._queue: list[Seat] = []

        if rules.farmers_hand != "off":
            self._queue = [s for s in self._seats_from(dealer.next) if self._farmer_options(s)]
            if self._queue:
                self.phase = Phase.FARMER
                self.current_seat = self._queue.pop(0)

    def copy(self) -> HandState:
        """An independent copy: applying actions to it leaves this state as it is. Much
        quicker than dealing again and replaying the history, or ``copy.deepcopy``.
        """
        # copy.copy goes through __reduce_ex__; a bare instance given the same attributes
        # is the same shallow copy, several times quicker (the review copies states by
        # the ten thousand). Each attribute by name: compiled by mypyc, a state has no
        # __dict__ (tests/engine/test_properties.py checks that none is missed).
        other = HandState(self.rules, self.dealer, _BLANK, self.upcard, self.kitty)
        other.rules = self.rules
        other.dealer = self.dealer
        other.dealt = self.dealt
        other.hands = {seat: list(cards) for seat, cards in self.hands.items()}
        other.upcard = self.upcard
        other.kitty = list(self.kitty)
        other.dealt_kitty = self.dealt_kitty
        other.known = set(self.known)
        other.phase = self.phase
        other.current_seat = self.current_seat
        other.farmer = self.farmer
        other.farmer_seat = self.farmer_seat
        other.auction = list(self.auction)
        other.passes = self.passes
        other.strain = self.strain
        other.maker = self.maker
        other.alone = self.alone
        other.defender_alone = self.defender_alone
        other.picked_up = self.picked_up
        other.discard = self.discard
        other.discarded = self.discarded
        other.tricks = [_Trick(t.leader, list(t.cards), t.led) for t in self.tricks]
        other.tricks_won = dict(self.tricks_won)
        other.shown_out = {seat: set(suits) for seat, suits in self.shown_out.items()}
        other.undecided = list(self.undecided)
        other.passed_out = self.passed_out
        other.history = list(self.history)
        other.history_phases = list(self.history_phases)
        other._queue = list(self._queue)
        return other

    def seen_by(self, seat: Seat) -> HandState:
        """What ``seat`` knows of this hand, as a state of its own (OpenSpiel's information
        state): the same deal and actions, with every card ``seat`` has not seen unknown.

        ``seat`` sees its own dealt cards, the upcard and every public action: the calls,
        the declines to defend alone, the cards played, a farmer's hand shown and swapped.
        It does not see the other hands, the kitty (unless it took the kitty as the farmer)
        or the dealer's discard (unless it is the dealer). A seat's silent decline of a
        farmer's hand is not seen either, so the state does not ask it. Cards played fill
        the unknown places as the state replays them.

        >>> from games.engine.game import Game
        >>> state = Game(Rules(), seed=3).new_hand()
        >>> seen = state.seen_by(Seat.N)
        >>> seen.hands[Seat.N] == state.hands[Seat.N], seen.hands[Seat.E], seen.kitty
        (True, [None, None, None, None, None], [None, None, None])
        """
        shown: list[Card] = []
        if isinstance(self.farmer, FarmerSwap):
            shown = list(self.farmer.cards)
        elif isinstance(self.farmer, FarmerRedeal) and self.farmer_seat is not None:
            shown = self._farmer_cards(self.farmer_seat)
        hands: dict[Seat, list[Card | None]] = {}
        for other in ALL_SEATS:
            if other is seat:
                hands[other] = list(self.dealt[other])
            elif other is self.farmer_seat:
                hands[other] = [*shown, *[None] * (5 - len(shown))]
            else:
                hands[other] = [None] * 5
        took_kitty = seat is self.farmer_seat and isinstance(self.farmer, FarmerSwap)
        kitty: list[Card | None] = list(self.dealt_kitty) if took_kitty else [None, None, None]
        seen = HandState(self.rules, self.dealer, hands, self.upcard, kitty)
        for (actor, action), phase in zip(self.history, self.history_phases, strict=True):
            if phase is Phase.FARMER and (
                seen.phase is not Phase.FARMER or seen.current_seat is not actor
            ):
                continue  # a seat that could have declared a farmer's hand and silently did not
            if isinstance(action, Discard) and actor is not seat:
                action = Discard(None)
            elif isinstance(action, Play) and actor is self.dealer is not seat:
                seen._reveal_discarded_upcard(action.card)
            seen.apply(action)
        return seen

    def _reveal_discarded_upcard(self, card: Card) -> None:
        """Before the dealer plays ``card`` in a state that does not know its discard: a
        play that cannot be made holding the upcard (it shows out of the upcard's suit, or
        it is a sixth card) shows that the upcard was the discard."""
        hand = self.hands[self.dealer]
        if self.upcard not in hand or card in hand:
            return
        led = self.tricks[-1].led
        upcard_suit = effective_suit(self.upcard, self.trump)
        shows_out = led is upcard_suit and effective_suit(card, self.trump) is not led
        if shows_out or None not in hand:
            hand[hand.index(self.upcard)] = None
            self.discard = self.upcard

    # -- queries ---------------------------------------------------------------------------

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or ``None`` before trump is made and in no-trump."""
        return self.strain if isinstance(self.strain, Suit) else None

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def round(self) -> int:
        """The bidding round, 1 or 2."""
        return 1 if self.passes < 4 else 2

    @property
    def stuck(self) -> bool:
        """The dealer must name a suit: seven passes under stick the dealer."""
        return self.rules.stick_the_dealer and self.passes == 7

    def sits_out(self, seat: Seat) -> bool:
        if self.alone and self.maker is not None and seat is self.maker.partner:
            return True
        return self.defender_alone is not None and seat is self.defender_alone.partner

    @property
    def active_seats(self) -> list[Seat]:
        return [s for s in ALL_SEATS if not self.sits_out(s)]

    @property
    def current_trick(self) -> _Trick | None:
        if self.tricks and len(self.tricks[-1].cards) < len(self.active_seats):
            return self.tricks[-1]
        return None

    @property
    def cards_played(self) -> int:
        return sum(len(t.cards) for t in self.tricks)

    def trick_winner(self, trick: _Trick) -> Seat:
        assert trick.led is not None
        trump, led = self.trump, trick.led
        return max(trick.cards, key=lambda sc: power(sc[1], trump, led))[0]

    def _seats_from(self, first: Seat) -> list[Seat]:
        seats, seat = [], first
        for _ in range(4):
            seats.append(seat)
            seat = seat.next
        return seats

    def _next_active(self, seat: Seat) -> Seat:
        seat = seat.next
        while self.sits_out(seat):
            seat = seat.next
        return seat

    def farmer_cards(self, seat: Seat) -> list[Card]:
        """The cards of ``seat`` a farmer's hand may show (fewer than three: none is one)."""
        return self._farmer_cards(seat)

    def _farmer_cards(self, seat: Seat) -> list[Card]:
        """The cards of ``seat`` a farmer's hand may swap: under the clean rule the three
        (or more) of one rank, 9s or 10s; under the mixed rule every 9 and 10."""
        eligible = [
            c
            for c in self.hands[seat]
            if c is not None
            and c.rank in (Rank.NINE, Rank.TEN)
            and not (self.rules.farmers_turn_card_rule and c.suit is self.upcard.suit)
        ]
        if self.rules.farmers_hand == "clean":
            for rank in (Rank.NINE, Rank.TEN):
                same = [c for c in eligible if c.rank is rank]
                if len(same) >= 3:
                    return same
            return []
        return eligible

    def _farmer_options(self, seat: Seat) -> list[Action]:
        cards = self._farmer_cards(seat)
        if len(cards) < 3:
            return []
        if self.rules.farmers_redeal:
            return [FarmerRedeal()]
        return [FarmerSwap((a, b, c)) for a, b, c in itertools.combinations(cards, 3)]

    def legal_actions(self) -> list[Action]:
        """Every action the current seat may take. Unknown cards are never offered."""
        seat = self.current_seat
        if seat is None or self.phase is Phase.DONE:
            return []
        if self.phase is Phase.FARMER:
            return [PASS, *self._farmer_options(seat)]
        if self.phase is Phase.DEFEND:
            return [PASS, _call("defend_alone", None, False)]
        if self.phase is Phase.DISCARD:
            return [_DISCARDS[c.index] for c in self.hands[seat] if c is not None]
        if self.phase is Phase.PLAY:
            return [_PLAYS[c.index] for c in self.legal_cards(seat)]
        actions: list[Action] = []
        if not self.stuck:
            actions.append(PASS)
        strains: list[Strain]
        if self.round == 1:
            kind: CallKind = "order_up"
            strains = [self.upcard.suit]
        else:
            kind = "name"
            strains = [s for s in ALL_SUITS if s is not self.upcard.suit]
            if self.rules.no_trump:
                strains.append(NT)
        canadian = self.round == 1 and self.rules.canadian_loner and seat is self.dealer.partner
        for strain in strains:
            for alone in (False, True):
                if canadian and not alone:
                    continue
                actions.append(_call(kind, None if kind == "order_up" else strain, alone))
        return actions

    def legal_cards(self, seat: Seat) -> list[Card]:
        """The known cards ``seat`` may play now (follow the led suit if able)."""
        held = [c for c in self.hands[seat] if c is not None]
        trick = self.current_trick
        if trick is None or trick.led is None:
            return held
        following = [c for c in held if effective_suit(c, self.trump) is trick.led]
        return following or held

    # -- actions ---------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Carry out ``action`` for the current seat, or raise :class:`IllegalActionError`."""
        if self.phase is Phase.DONE or self.current_seat is None:
            raise IllegalActionError("the hand is over")
        seat = self.current_seat
        phase = self.phase
        self._dispatch(seat, action)
        self.history.append((seat, action))
        self.history_phases.append(phase)

    def _dispatch(self, seat: Seat, action: Action) -> None:
        if self.phase is Phase.FARMER:
            self._apply_farmer(seat, action)
        elif self.phase is Phase.AUCTION:
            if not isinstance(action, Call):
                raise IllegalActionError(f"it is {seat}'s turn to bid")
            self._apply_call(seat, action)
        elif self.phase is Phase.DEFEND:
            if not isinstance(action, Call) or action.kind not in ("pass", "defend_alone"):
                raise IllegalActionError(f"{seat} may defend alone or pass")
            self._apply_defend(seat, action)
        elif self.phase is Phase.DISCARD:
            if not isinstance(action, Discard):
                raise IllegalActionError(f"the dealer ({seat}) must discard")
            self._apply_discard(seat, action)
        else:
            if not isinstance(action, Play):
                raise IllegalActionError(f"it is {seat}'s turn to play a card")
            self._apply_play(seat, action.card)

    def _apply_farmer(self, seat: Seat, action: Action) -> None:
        if action == PASS:
            self._after_farmer()
            return
        if action not in self._farmer_options(seat):
            raise IllegalActionError(f"{seat} cannot declare a farmer's hand with {action}")
        self.farmer_seat = seat
        if isinstance(action, FarmerRedeal):
            self.farmer = action
            self._finish(passed_out=True)
            return
        assert isinstance(action, FarmerSwap)
        self.farmer = action
        for card in action.cards:
            self.hands[seat].remove(card)
        self.hands[seat].extend(self.kitty)
        self.kitty = list(action.cards)
        self._queue = []
        self._after_farmer()

    def _after_farmer(self) -> None:
        if self._queue:
            self.current_seat = self._queue.pop(0)
        else:
            self.phase = Phase.AUCTION
            self.current_seat = self.dealer.next

    def _check_call(self, seat: Seat, call: Call) -> None:
        if call.kind == "pass":
            if self.stuck:
                raise IllegalActionError(
                    "the dealer is stuck and must name a suit (stick the dealer)"
                )
            return
        if call.kind == "defend_alone":
            raise IllegalActionError("defending alone is declared only after trump is made")
        if self.round == 1:
            if call.kind != "order_up":
                raise IllegalActionError(
                    f"a suit is named only in the second round; in the first round {seat} "
                    f"may order up {self.upcard.suit.plural} or pass"
                )
            if call.suit is not None and call.suit != self.upcard.suit:
                raise IllegalActionError(
                    f"ordering up makes the upcard's suit ({self.upcard.suit.plural}) trump, "
                    f"not {_word(call.suit)}"
                )
            if self.rules.canadian_loner and seat is self.dealer.partner and not call.alone:
                raise IllegalActionError(
                    "the dealer's partner may order up only by going alone (Canadian loner)"
                )
            return
        if call.kind != "name":
            raise IllegalActionError(
                "the upcard was turned down: in the second round a suit is named, not ordered up"
            )
        if call.suit is None:
            raise IllegalActionError("a named call must give its suit")
        if call.suit == NT and not self.rules.no_trump:
            raise IllegalActionError("no-trump is not allowed by these rules")
        if call.suit == self.upcard.suit:
            raise IllegalActionError(
                f"{self.upcard.suit.plural} was turned down and cannot be named this hand"
            )

    def _apply_call(self, seat: Seat, call: Call) -> None:
        self._check_call(seat, call)
        if call.kind == "order_up":
            call = Call("order_up", None, call.alone)
        self.auction.append((seat, call))
        if call.kind == "pass":
            self.passes += 1
            if self.passes == 8:
                self._finish(passed_out=True)
            else:
                self.current_seat = seat.next
            return
        self.strain = self.upcard.suit if call.kind == "order_up" else call.suit
        self.maker = seat
        self.alone = call.alone
        if call.kind == "order_up":
            dealer_sits_out = self.alone and seat is self.dealer.partner
            self.picked_up = not dealer_sits_out or self.rules.sitting_out_dealer_picks_up
        if self.rules.defend_alone:
            self.phase = Phase.DEFEND
            self._queue = [seat.next, seat.next.partner]
            self.current_seat = self._queue.pop(0)
        else:
            self._after_auction()

    def _apply_defend(self, seat: Seat, call: Call) -> None:
        if call.kind == "defend_alone":
            self.auction.append((seat, call))
            self.defender_alone = seat
            self._queue = []
            if self.picked_up and seat.partner is self.dealer:
                # The lone defender's partner deals and so sits out: the same option as
                # for a lone maker's dealing partner says whether the upcard stays down.
                self.picked_up = self.rules.sitting_out_dealer_picks_up
        if self._queue:
            self.current_seat = self._queue.pop(0)
        else:
            self._after_auction()

    def _after_auction(self) -> None:
        if self.picked_up:
            self.hands[self.dealer].append(self.upcard)
            self.phase = Phase.DISCARD
            self.current_seat = self.dealer
        else:
            self._start_play()

    def _take(self, seat: Seat, card: Card, verb: str) -> None:
        """Remove ``card`` from ``seat``'s hand, filling an unknown slot if need be."""
        hand = self.hands[seat]
        if card in hand:
            hand.remove(card)
            return
        if card in self.known or None not in hand:
            raise IllegalActionError(f"{seat} does not hold {card}" + self._where(card, verb))
        hand.remove(None)
        self.known.add(card)

    def _where(self, card: Card, verb: str) -> str:
        for trick in self.tricks:
            for seat, played in trick.cards:
                if played == card:
                    return f" ({card} was already played by {seat})"
        for seat in ALL_SEATS:
            if card in self.hands[seat]:
                return f" ({card} is in {seat}'s hand)"
        if card == self.upcard:
            return " (it is the upcard, which was not picked up)"
        if card == self.discard:
            return " (it was discarded)"
        return f" ({card} is in the kitty)" if card in self.kitty else ""

    def _apply_discard(self, seat: Seat, action: Discard) -> None:
        if action.card is None:
            if None not in self.hands[seat]:
                raise IllegalActionError(
                    "the discard is unknown, but every card of the dealer's hand is known"
                )
            self.hands[seat].remove(None)
        else:
            self._take(seat, action.card, "discard")
        self.discard = action.card
        self.discarded = True
        self._start_play()

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        first = self.dealer.next
        if self.alone and self.rules.lone_lead == "left_of_maker" and self.maker is not None:
            first = self.maker.next
        while self.sits_out(first):
            first = first.next
        self.tricks.append(_Trick(leader=first))
        self.current_seat = first

    def _apply_play(self, seat: Seat, card: Card) -> None:
        trick = self.tricks[-1]
        suit = effective_suit(card, self.trump)
        if trick.led is not None and suit is not trick.led:
            led_cards = [
                c
                for c in self.hands[seat]
                if c is not None and effective_suit(c, self.trump) is trick.led
            ]
            if led_cards:
                held = " ".join(str(c) for c in led_cards)
                raise IllegalActionError(
                    f"{seat} must follow {trick.led.plural} (holds {held}) but played {card}"
                )
            if None in self.hands[seat]:
                self.undecided.append(
                    f"trick {len(self.tricks)}: whether {seat} could follow "
                    f"{trick.led.plural} is not known"
                )
        if card not in self.hands[seat] and suit in self.shown_out[seat]:
            raise IllegalActionError(
                f"{seat} plays {card} but showed out of {suit.plural} earlier (a renege)"
            )
        self._take(seat, card, "play")
        if trick.led is None:
            trick.led = suit
        elif suit is not trick.led:
            self.shown_out[seat].add(trick.led)
        trick.cards.append((seat, card))
        if len(trick.cards) < len(self.active_seats):
            self.current_seat = self._next_active(seat)
            return
        winner = self.trick_winner(trick)
        self.tricks_won[winner.team] += 1
        if len(self.tricks) == 5:
            self._finish(passed_out=False)
        else:
            self.tricks.append(_Trick(leader=winner))
            self.current_seat = winner

    def _finish(self, *, passed_out: bool) -> None:
        self.phase = Phase.DONE
        self.current_seat = None
        self.passed_out = passed_out

    # -- results ---------------------------------------------------------------------------

    def result(self) -> HandResult:
        """Trump, maker, tricks so far, and the points once the hand is over."""
        return score_hand(
            rules=self.rules,
            strain=None if self.strain is None else str(self.strain),
            maker=self.maker,
            alone=self.alone,
            defender_alone=self.defender_alone,
            tricks=dict(self.tricks_won),
            finished=self.phase is Phase.DONE,
        )
