"""The project's standard policy: how the Normal computer player bids and plays.

The analysis values a pass by continuing the auction with this policy for every
seat, and the Normal bot plays it; so it is deterministic, a pure function of
what the deciding seat may know (an :class:`~games.strategy.observation.Observation`),
and every decision comes with a short reason a learner can read as a hint.

Hand strength
-------------
A hand is valued for a candidate trump suit in points (``hand_points``):

- each trump, counting the left bower as trump: right bower 4, left bower 3.5,
  ace 3, king 2.5, queen, ten or nine 2;
- each off-suit ace 2, and an off-suit king held with its ace 1 more;
- with at least two trumps, each void off suit 1.

Three small trumps and an off-suit ace are 8 points (9 or 10 with the void the
fifth card leaves). A *sure trick* (``sure_tricks``) is a card no live card can
beat: the top trumps held in an unbroken run from the right bower, skipping
cards known to be out of play (the turned-down upcard, a farmer's swapped
cards); at no-trump, each suit's run down from its ace (sure unless the
opponents run a long suit and force it away).

Bidding
-------
1. Farmer's hand (where allowed): declare it, unless the hand is already worth
   ordering up the upcard by rule 2. Swap the three least useful of the
   eligible cards: cards of the upcard's suit (possible trumps) are kept first,
   then tens before nines, then cards of long suits.
2. First round: order up (the dealer: pick it up) when the hand's points for the
   upcard's suit reach the seat's threshold. The base is **8**, moved by half the
   upcard's trump points (right bower 4 … nine 2) for whoever's side gets it:

   - the dealer's opponents (left and right of it): 8 + half the upcard
     (9 when a nine is turned, 10 for the right bower);
   - the dealer's partner: 8 - half the upcard (7 for a nine, 6 for the right bower);
   - the dealer: 8, on the five cards it keeps after picking up and discarding by
     rule 6.

   Ordering up when an opponent deals gives them a trump; when partner deals, it
   gives partner one.
3. Second round: name the best suit other than the turned-down one when its
   points reach **8**. Where no-trump is allowed, name no-trump first when the
   hand holds **three sure no-trump tricks** (aces spread across the suits, a king
   with its own ace). A stuck dealer with nothing worth naming names its longest
   suit, counting the left bower, ties going to the higher points; never the
   turned-down suit.
4. Going alone: with **three sure trump tricks** (both bowers and the ace, or the
   top three live trumps) or **14 points with three trumps or more**; at
   no-trump with five sure tricks. Never when a march would already win the
   game, nor when the rules pay a lone march no more than a march. The dealer's
   partner judges a lone hand without the upcard, which it never gets; under the
   Canadian loner rule it orders up alone with a lone hand, and otherwise passes
   in the first round.
5. Defending alone (where allowed): with three sure tricks against the makers'
   strain, unless a plain euchre already wins the game or the rules pay a lone
   defender no more.
6. The dealer's discard: never a trump while it holds an off-suit card; the
   off-suit card from the shortest suit (making a void), aces kept, the lowest
   rank among equals.
7. The score: when the opponents are one make from winning, every threshold of
   rules 2 and 3 drops by **1** (take the hand from them).

Card play
---------
- Leading, as the makers' side, while an opponent may hold trump: lead the
  highest live trump when the seat holds it (the right bower first); the maker
  with two trumps or more and not the highest leads its lowest trump to draw the
  higher ones out.
- Then cash a sure winner in an off suit (an ace, or a king whose ace is gone),
  from the shortest suit, avoiding suits an opponent has shown out of while it
  may still trump; a defender thus leads its off-suit aces.
- Otherwise lead low: a defender leads toward a suit its partner has shown out of
  (partner can trump it), else the lowest card of the shortest off suit,
  avoiding suits the opponents are void in. Holding only trumps, lead the highest
  if nothing can beat it, else the lowest.
- At no-trump: cash sure winners, longest suit first, else lead the lowest card
  of the longest suit.
- Following, with partner winning: play low (never trump partner's trick),
  unless an opponent still to play could beat partner's card and the seat can
  follow suit with a card that cannot be beaten.
- With an opponent winning and a card of the led suit that wins: the cheapest
  card sure to win (the cheapest winner when last to play); with none sure, play
  low if partner is still to play (leave the trick to partner), else the highest
  winner (the best chance).
- Void in the led suit with an opponent winning: trump in with the cheapest sure
  (else cheapest) winning trump. The trick is not worth a trump when the winning
  card is a low one (below the king) of a suit partner, still to play, has not
  shown out of and may hold a higher card of: leave it to partner.
- A card that cannot win is the lowest: the lowest card of the led suit, or,
  void, the lowest off-suit card from the shortest suit, keeping trumps and sure
  winners. Once the hand's result is settled, play low.
- Throughout, the left bower counts as a trump (never its printed suit) and
  every card played is counted: a card is sure when no card still unseen, held
  by a seat still to play and not shown out of its suit, can beat it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from games.engine.cards import ALL_SUITS, Card, Rank, Seat, Suit, effective_suit, power
from games.engine.hand import (
    NT,
    Action,
    Call,
    Discard,
    FarmerRedeal,
    FarmerSwap,
    Phase,
    Play,
    Strain,
)
from games.engine.words import (
    and_list,
    describe_hand,
    number_word,
    strain_word,
    the_bower_or_card,
)

from .observation import Observation, observe, ranked

__all__ = [
    "LONE_POINTS",
    "NAME_THRESHOLD",
    "ORDER_UP_THRESHOLD",
    "PolicyError",
    "choose_discard",
    "decide",
    "decide_with_reason",
    "hand_points",
    "observe",
    "order_up_threshold",
    "sure_tricks",
    "trump_points",
]

ORDER_UP_THRESHOLD = 8.0
"""Points for the upcard's suit needed to order up, before the position adjustment."""
NAME_THRESHOLD = 8.0
"""Points needed to name a suit in the second round."""
LONE_POINTS = 14.0
"""Points (with three trumps or more) that make a lone hand without three sure tricks."""
LONE_SURE_TRICKS = 3
NO_TRUMP_SURE_TRICKS = 3
DEFEND_ALONE_SURE_TRICKS = 3
UPCARD_SHARE = 0.5
"""The share of the upcard's trump points that moves the first-round threshold."""
BRINK_BONUS = 1.0
"""How much the thresholds drop when the opponents are one make from winning."""

OFF_ACE = 2.0
OFF_KING_WITH_ACE = 1.0
VOID = 1.0

_TRUMP_RANK_POINTS = {Rank.ACE: 3.0, Rank.KING: 2.5, Rank.QUEEN: 2.0, Rank.TEN: 2.0, Rank.NINE: 2.0}


@mypyc_attr(native_class=False)  # compiled, a native class cannot extend RuntimeError
class PolicyError(RuntimeError):
    """The policy was asked to decide where it cannot (not the seat's turn)."""


# -- hand strength -------------------------------------------------------------------------


def trump_points(card: Card, trump: Suit) -> float:
    """A trump's points: right bower 4, left bower 3.5, ace 3, king 2.5, others 2.

    >>> from games.engine.cards import parse_card
    >>> trump_points(parse_card("JD"), Suit.HEARTS)
    3.5
    """
    if card.rank is Rank.JACK:
        return 4.0 if card.suit is trump else 3.5
    return _TRUMP_RANK_POINTS[card.rank]


def hand_points(cards: Collection[Card], trump: Suit) -> float:
    """The hand's strength with ``trump`` as trump (see the module docstring).

    >>> from games.engine.cards import parse_card
    >>> hand_points([parse_card(c) for c in "JD QH 9H AC TC".split()], Suit.HEARTS)
    11.5
    """
    points = 0.0
    suits = [effective_suit(c, trump) for c in cards]
    trumps = 0
    for card, suit in zip(cards, suits, strict=True):
        if suit is trump:
            points += trump_points(card, trump)
            trumps += 1
        elif card.rank is Rank.ACE:
            points += OFF_ACE
        elif card.rank is Rank.KING and any(
            c.rank is Rank.ACE and c.suit is card.suit for c in cards
        ):
            points += OFF_KING_WITH_ACE
    if trumps >= 2:
        points += VOID * sum(1 for s in ALL_SUITS if s is not trump and s not in suits)
    return points


def sure_tricks(cards: Collection[Card], strain: Strain, dead: Collection[Card] = ()) -> int:
    """The top cards of a suit held in an unbroken run, skipping ``dead`` cards (out of
    play). With a trump suit only trumps count, and each is a trick whatever the others
    hold. At no-trump every suit counts; there the opponents may still take such a card
    by running a long suit the hand is void in and forcing it away.

    >>> from games.engine.cards import parse_card
    >>> sure_tricks([parse_card(c) for c in "JH JD AH 9C 9S".split()], Suit.HEARTS)
    3
    """
    trump = strain if isinstance(strain, Suit) else None
    suits = [trump] if trump is not None else list(ALL_SUITS)
    count = 0
    for suit in suits:
        for card in ranked(suit, trump):
            if card in dead:
                continue
            if card not in cards:
                break
            count += 1
    return count


def choose_discard(cards: Sequence[Card], trump: Suit) -> Card:
    """The dealer's discard: the off-suit card from the shortest suit, aces kept, the
    lowest among equals; a trump only when every card is trump.

    >>> from games.engine.cards import parse_card
    >>> choose_discard([parse_card(c) for c in "JH AH 9H KS QC 9C".split()], Suit.HEARTS)
    KS
    """
    off = [c for c in cards if effective_suit(c, trump) is not trump]
    if not off:
        return min(cards, key=lambda c: power(c, trump, trump))
    lengths: dict[Suit, int] = {}
    for card in cards:
        suit = effective_suit(card, trump)
        lengths[suit] = lengths.get(suit, 0) + 1
    return min(off, key=lambda c: (c.rank is Rank.ACE, lengths.get(c.suit, 0), c.rank))


def _longest_suit(cards: Collection[Card], allowed: Iterable[Suit]) -> Suit:
    """The suit with the most cards, counting the left bower; ties to the higher points."""
    return max(
        allowed,
        key=lambda s: (sum(1 for c in cards if effective_suit(c, s) is s), hand_points(cards, s)),
    )


# -- the decision --------------------------------------------------------------------------


Reason = str | Callable[[], str]
"""Why an action was chosen, or how to say it: the words are only put together when they
are asked for (a review follows the policy through thousands of auctions and never
shows them)."""


def decide(view: Observation) -> Action:
    """The policy's action for the seat whose view this is."""
    return _decide(view)[0]


def decide_with_reason(view: Observation) -> tuple[Action, str]:
    """The policy's action and a one-sentence reason for it, usable as a hint."""
    action, reason = _decide(view)
    return action, reason if isinstance(reason, str) else reason()


def _decide(view: Observation) -> tuple[Action, Reason]:
    if not view.legal:
        raise PolicyError(f"{view.seat} has nothing to decide (not its turn)")
    if view.phase is Phase.FARMER:
        return _farmer(view)
    if view.phase is Phase.AUCTION:
        return _round_one(view) if view.round == 1 else _round_two(view)
    if view.phase is Phase.DEFEND:
        return _defend(view)
    if view.phase is Phase.DISCARD:
        assert view.trump is not None
        card = choose_discard(view.hand, view.trump)
        return Discard(card), lambda: _discard_reason(view, card)
    return _play(view)


def _pick(view: Observation, action: Action) -> Action:
    if action not in view.legal:
        raise PolicyError(f"the policy chose {action}, which {view.seat} may not take here")
    return action


def _brink(view: Observation) -> float:
    return BRINK_BONUS if view.opponents_need <= view.rules.points.make else 0.0


def order_up_threshold(view: Observation) -> float:
    """The first-round threshold for the deciding seat (rules 2 and 7)."""
    threshold = ORDER_UP_THRESHOLD - _brink(view)
    share = UPCARD_SHARE * trump_points(view.upcard, view.upcard.suit)
    if view.seat is view.dealer.partner:
        threshold -= share
    elif view.seat is not view.dealer:
        threshold += share
    return threshold


def _lone_allowed(view: Observation) -> bool:
    p = view.rules.points
    return p.lone_march > p.march and view.points_needed > p.march


def _lone_hand(
    view: Observation, cards: Collection[Card], strain: Strain, dead: Collection[Card]
) -> bool:
    if not _lone_allowed(view):
        return False
    if strain == NT:
        return sure_tricks(cards, NT, dead) >= 5
    assert isinstance(strain, Suit)
    if sure_tricks(cards, strain, dead) >= LONE_SURE_TRICKS:
        return True
    trumps = sum(1 for c in cards if effective_suit(c, strain) is strain)
    return trumps >= 3 and hand_points(cards, strain) >= LONE_POINTS


@dataclass(frozen=True)
class _Bid:
    """A first-round assessment."""

    cards: tuple[Card, ...]
    points: float
    threshold: float
    lone: bool

    @property
    def worth(self) -> bool:
        return self.points >= self.threshold


def _assess_round_one(view: Observation) -> _Bid:
    trump = view.upcard.suit
    cards: tuple[Card, ...] = view.hand
    if view.seat is view.dealer:
        six = [*view.hand, view.upcard]
        thrown = choose_discard(six, trump)
        cards = tuple(c for c in six if c != thrown)
    dead: set[Card] = set(view.dead)
    if view.seat is view.dealer.partner:
        dead.add(view.upcard)  # a lone dealer's partner never plays with the upcard
    return _Bid(
        cards=cards,
        points=hand_points(cards, trump),
        threshold=order_up_threshold(view),
        lone=_lone_hand(
            view, view.hand if view.seat is view.dealer.partner else cards, trump, dead
        ),
    )


def _round_one(view: Observation) -> tuple[Action, Reason]:
    trump, upcard = view.upcard.suit, view.upcard
    bid = _assess_round_one(view)
    dealer = view.seat is view.dealer

    def text() -> str:
        words = describe_hand(bid.cards, trump)
        if dealer:
            picked = the_bower_or_card(upcard, trump)
            return f"With {picked} picked up, {words[0].lower()}{words[1:]}"
        return words

    verb = "pick it up" if dealer else "order up"
    alone_call = Call("order_up", None, True)
    canadian = view.rules.canadian_loner and view.seat is view.dealer.partner
    if bid.lone and alone_call in view.legal:
        return _pick(view, alone_call), lambda: f"{text()}: a lone hand, {verb} and go alone."
    if canadian:
        return (
            Call("pass"),
            lambda: (
                f"{text()}: the dealer's partner may order up only by going alone "
                "(Canadian loner), and this is no lone hand: pass."
            ),
        )
    if bid.worth:
        note = ""
        if view.seat is view.dealer.partner:
            note = f", and partner picks up {the_bower_or_card(upcard, trump)}"
        elif _brink(view):
            note = ", and the opponents are one hand from winning"
        return _pick(view, Call("order_up")), lambda: f"{text()}{note}: {verb}."
    if not dealer and view.seat is not view.dealer.partner and bid.points >= ORDER_UP_THRESHOLD:
        return (
            Call("pass"),
            lambda: (
                f"{text()}, but ordering up would give the dealer "
                f"{the_bower_or_card(upcard, trump)}: pass."
            ),
        )
    return Call("pass"), lambda: f"{text()}: not enough to {verb}, pass."


def _naming(hand: tuple[Card, ...], suit: Suit, then: str) -> Callable[[], str]:
    """The reason for naming ``suit``: the hand as trump would make it, then ``then``."""
    return lambda: f"With {suit.plural} as trump, {describe_hand(hand, suit).lower()}: {then}"


def _round_two(view: Observation) -> tuple[Action, Reason]:
    allowed = [s for s in ALL_SUITS if s is not view.upcard.suit]
    dead = view.dead
    hand = view.hand
    ranked = sorted(allowed, key=lambda s: hand_points(hand, s), reverse=True)
    for suit in ranked:
        if _lone_hand(view, hand, suit, dead):
            return _pick(view, Call("name", suit, True)), _naming(
                hand, suit, f"a lone hand, name {suit.plural} and go alone."
            )
    if view.rules.no_trump:
        sure = sure_tricks(hand, NT, dead)
        if sure >= NO_TRUMP_SURE_TRICKS:
            alone = _lone_hand(view, hand, NT, dead)
            tail = " and go alone" if alone else ""
            return _pick(view, Call("name", NT, alone)), (
                f"{number_word(sure).capitalize()} sure tricks at no-trump (aces across the "
                f"suits): name no-trump{tail}."
            )
    best = ranked[0]
    points = hand_points(hand, best)
    if points >= NAME_THRESHOLD - _brink(view):
        return _pick(view, Call("name", best)), _naming(hand, best, f"name {best.plural}.")
    if view.stuck:
        suit = _longest_suit(hand, allowed)
        length = sum(1 for c in hand if effective_suit(c, suit) is suit)
        return _pick(view, Call("name", suit)), (
            f"Stuck as dealer: name the longest suit, {suit.plural} ({number_word(length)} "
            f"card{'' if length == 1 else 's'}), never the turned-down {view.upcard.suit.plural}."
        )
    return Call("pass"), f"No suit is strong enough to name ({best.plural} is the best): pass."


def _farmer(view: Observation) -> tuple[Action, Reason]:
    bid = _assess_round_one(view)
    if bid.worth:
        return Call("pass"), (
            f"A farmer's hand, but already worth ordering up {view.upcard.suit.plural}: keep it."
        )
    if FarmerRedeal() in view.legal:
        return (
            FarmerRedeal(),
            "A farmer's hand and nothing to order up: show it and ask for a redeal.",
        )
    swaps = [a for a in view.legal if isinstance(a, FarmerSwap)]
    eligible = {c for a in swaps for c in a.cards}
    lengths = Counter(c.suit for c in view.hand)

    def keep(card: Card) -> tuple[bool, int, int]:
        return (card.suit is view.upcard.suit, card.rank, lengths[card.suit])

    chosen = set(sorted(eligible, key=keep)[:3])
    action = next(a for a in swaps if set(a.cards) == chosen)
    names = and_list([the_bower_or_card(c, None) for c in sorted(chosen, key=keep)])
    return action, f"A farmer's hand: swap {names} for the kitty."


def _defend(view: Observation) -> tuple[Action, Reason]:
    assert view.strain is not None
    p = view.rules.points
    sure = sure_tricks(view.hand, view.strain, view.dead)
    word = strain_word(view.strain)
    if sure >= DEFEND_ALONE_SURE_TRICKS:
        if p.lone_defender_euchre <= p.euchre:
            return Call("pass"), "A lone defence pays no more than a euchre: defend with partner."
        if view.points_needed <= p.euchre:
            return Call("pass"), "A plain euchre wins the game: defend with partner."
        return _pick(view, Call("defend_alone")), (
            f"{number_word(sure).capitalize()} sure tricks against {word}: a euchre alone, "
            "defend alone."
        )
    return Call("pass"), f"Not three sure tricks against {word}: defend with partner."


def _discard_reason(view: Observation, card: Card) -> str:
    trump = view.trump
    assert trump is not None
    if effective_suit(card, trump) is trump:
        return f"Every card is a trump: discard the lowest, {the_bower_or_card(card, trump)}."
    left = [c for c in view.hand if c != card and effective_suit(c, trump) is card.suit]
    if not left:
        return f"Discard {the_bower_or_card(card, trump)}: it leaves a void in {card.suit.plural}."
    return f"Discard {the_bower_or_card(card, trump)}, the lowest card of the shortest off suit."


# -- card play -----------------------------------------------------------------------------


def _play(view: Observation) -> tuple[Action, Reason]:
    cards = [a.card for a in view.legal if isinstance(a, Play)]
    if len(cards) == 1:
        return Play(cards[0]), f"The only legal card: {the_bower_or_card(cards[0], view.trump)}."
    if view.current_trick is None:
        card, reason = _lead(view, cards)
    else:
        card, reason = _follow(view, cards)
    return _pick(view, Play(card)), reason


def _is_master(view: Observation, card: Card) -> bool:
    """No unseen card of the card's suit beats it."""
    suit = effective_suit(card, view.trump)
    return view.top_unseen(suit) < power(card, view.trump, suit)


def _opponents(view: Observation) -> list[Seat]:
    return [s for s in view.active_seats if s.team is not view.team]


def _opponents_may_trump(view: Observation) -> bool:
    trump = view.trump
    if trump is None or not view.top_unseen(trump):
        return False
    return any(trump not in view.voids[s] for s in _opponents(view))


def _settled(view: Observation) -> bool:
    """Whether the rest of the hand can no longer change its score."""
    if view.maker is None:
        return False
    makers = view.tricks_won[view.maker.team]
    defenders = view.tricks_won[view.maker.team.other]
    return defenders >= 3 or (makers >= 3 and defenders >= 1)


def _lead(view: Observation, cards: list[Card]) -> tuple[Card, str]:
    trump = view.trump
    if trump is None:
        return _lead_no_trump(view, cards)
    lengths = Counter(effective_suit(c, trump) for c in view.hand)
    trumps = sorted(
        (c for c in cards if effective_suit(c, trump) is trump),
        key=lambda c: power(c, trump, trump),
        reverse=True,
    )
    may_trump = _opponents_may_trump(view)
    if view.is_maker_side and trumps and may_trump:
        if _is_master(view, trumps[0]):
            card = trumps[0]
            return card, (
                f"Lead {the_bower_or_card(card, trump)}, the highest trump left: the makers draw "
                "the opponents' trumps."
            )
        if view.seat is view.maker and len(trumps) >= 2:
            card = trumps[-1]
            return card, (
                f"As the maker, lead trump ({the_bower_or_card(card, trump)}) to draw out the "
                "higher trumps and keep your own."
            )
    opponents_void = {s for o in _opponents(view) for s in view.voids[o]}
    off = [c for c in cards if effective_suit(c, trump) is not trump]
    masters = [
        c
        for c in off
        if _is_master(view, c) and not (may_trump and effective_suit(c, trump) in opponents_void)
    ]
    if masters:
        card = min(masters, key=lambda c: (lengths[c.suit], -c.rank))
        if view.is_maker_side:
            return (
                card,
                f"Cash {the_bower_or_card(card, trump)}: nothing left in its suit can beat it.",
            )
        return card, f"Lead {the_bower_or_card(card, trump)}: a defender cashes an off-suit winner."
    if not off:
        card = trumps[0] if _is_master(view, trumps[0]) else trumps[-1]
        return card, f"Only trumps left: lead {the_bower_or_card(card, trump)}."
    if not view.is_maker_side and not view.sits_out(view.partner):
        partner_voids = [
            c
            for c in off
            if c.suit in view.voids[view.partner] and trump not in view.voids[view.partner]
        ]
        if partner_voids:
            card = min(partner_voids, key=lambda c: c.rank)
            return card, (
                f"Lead {the_bower_or_card(card, trump)}: partner is out of {card.suit.plural} "
                "and can trump it."
            )
    safe = [c for c in off if not (may_trump and c.suit in opponents_void)] or off
    card = min(safe, key=lambda c: (lengths[c.suit], c.rank))
    return (
        card,
        f"No sure winner: lead low, {the_bower_or_card(card, trump)}, from the shortest suit.",
    )


def _lead_no_trump(view: Observation, cards: list[Card]) -> tuple[Card, str]:
    lengths = Counter(c.suit for c in view.hand)
    masters = [c for c in cards if _is_master(view, c)]
    if masters:
        card = max(masters, key=lambda c: (lengths[c.suit], c.rank))
        return card, f"Cash {the_bower_or_card(card, None)}: at no-trump nothing can beat it."
    card = min(cards, key=lambda c: (-lengths[c.suit], c.rank))
    return (
        card,
        f"No sure winner: lead low, {the_bower_or_card(card, None)}, from the longest suit.",
    )


def _throw(view: Observation, cards: list[Card], led: Suit) -> Card:
    """The cheapest card: the lowest of the led suit, else the least useful off-suit card."""
    trump = view.trump
    following = [c for c in cards if effective_suit(c, trump) is led]
    if following:
        return min(following, key=lambda c: power(c, trump, led))
    lengths = Counter(effective_suit(c, trump) for c in view.hand)
    return min(
        cards,
        key=lambda c: (
            trump is not None and effective_suit(c, trump) is trump,
            power(c, trump, trump) if trump is not None else 0,
            _is_master(view, c),
            lengths[effective_suit(c, trump)],
            c.rank,
        ),
    )


def _follow(view: Observation, cards: list[Card]) -> tuple[Card, str]:
    trick = view.current_trick
    led = view.led
    assert trick is not None and led is not None
    trump = view.trump
    best_seat, best = max(trick.cards, key=lambda sc: power(sc[1], trump, led))
    top = power(best, trump, led)
    later = view.still_to_play()
    later_opponents = tuple(s for s in later if s.team is not view.team)
    following = effective_suit(cards[0], trump) is led
    winners = [c for c in cards if power(c, trump, led) > top]

    def sure(card: Card) -> bool:
        return not view.could_beat(card, led, later_opponents)

    if _settled(view):
        card = _throw(view, cards, led)
        return card, f"The hand's result is settled: play low, {the_bower_or_card(card, trump)}."
    if best_seat is view.partner:
        if following and not sure(best):
            safe = [c for c in winners if sure(c)]
            if safe:
                card = min(safe, key=lambda c: power(c, trump, led))
                return card, (
                    f"Partner's {the_bower_or_card(best, trump)[4:]} could still be beaten: take "
                    "the trick "
                    f"with {the_bower_or_card(card, trump)}, which cannot be."
                )
        card = _throw(view, cards, led)
        return card, f"Partner is winning the trick: play low, {the_bower_or_card(card, trump)}."
    if not winners:
        card = _throw(view, cards, led)
        return (
            card,
            "You cannot win this trick: play your cheapest card, "
            f"{the_bower_or_card(card, trump)}.",
        )
    by_power = sorted(winners, key=lambda c: power(c, trump, led))
    safe = [c for c in by_power if sure(c)]
    partner_later = view.partner in later
    if not following:
        # Void in the led suit: every winner is a trump.
        if partner_later and _partner_may_win(view, best, led):
            card = _throw(view, cards, led)
            return card, (
                f"Partner, still to play, may win this with {led.plural}: no need to trump, "
                f"play {the_bower_or_card(card, trump)}."
            )
        card = safe[0] if safe else by_power[0]
        return card, f"Void in {led.plural}: trump in with {the_bower_or_card(card, trump)}."
    if safe:
        card = safe[0]
        return card, f"Win the trick as cheaply as possible: {the_bower_or_card(card, trump)}."
    if partner_later:
        card = _throw(view, cards, led)
        return card, (
            "No card sure to win, and partner plays after you: play low, "
            f"{the_bower_or_card(card, trump)}."
        )
    card = by_power[-1]
    return card, f"Play {the_bower_or_card(card, trump)}: the best chance to win the trick."


def _partner_may_win(view: Observation, best: Card, led: Suit) -> bool:
    """The trick is won by a low card of the led suit (below the king) and partner, not
    shown out of the suit, may hold a higher one."""
    trump = view.trump
    if trump is not None and effective_suit(best, trump) is trump:
        return False
    if best.rank >= Rank.KING or led in view.voids[view.partner]:
        return False
    return view.top_unseen(led) > power(best, trump, led)
