"""The table seen from a seat: one view-model for the play page and the replay page.

:func:`seat_views` lays the four seats out around the viewer (the viewer at the bottom)
from a hand's state, showing only the cards it is told to show; both pages render its
:class:`SeatView` with ``templates/games/_seat.html``. :func:`build_table` is the rest of
the play page, derived from the live game for South, the player: nothing here reveals a
card South may not see.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.engine.actions import format_action
from games.engine.cards import Card, Seat, Suit, Team, effective_suit, power, sort_cards
from games.engine.hand import HandState, Phase, Play
from games.engine.words import (
    call_text,
    card_name,
    card_text,
    control_label,
    maker_words,
    play_news,
    strain_text,
    summary_text,
    the,
    who,
    you_or_name,
)

if TYPE_CHECKING:
    from games.engine.hand import _Trick
    from games.models import GamePlay, Live

HUMAN = Seat.S


@dataclass(frozen=True)
class CardView:
    """A card as a page shows it."""

    text: str
    label: str
    """Its name for screen readers: ``Jack of diamonds, left bower``."""
    suit: str
    """``s h d c``: a class for the optional four-colour deck; empty for an unknown card."""
    red: bool
    mark: str = ""
    """The review's mark of the decision that chose it (``??``…), if any."""
    cls: str = ""
    """That mark's name (``blunder``…)."""
    action: str = ""
    """What playing it posts, when it is a button of the play page."""
    enabled: bool = False
    picked_up: bool = False
    """The upcard the dealer picked up, marked in the dealer's hand until the first lead."""
    hinted: bool = False
    """The card the hint suggests, lit on the play page."""


UNKNOWN_CARD = CardView("?", "Unknown card", "", False)


def card_view(
    card: Card | None,
    trump: Suit | None,
    *,
    mark: tuple[str, str] | None = None,
    action: str = "",
    enabled: bool = False,
    picked_up: bool = False,
    hinted: bool = False,
) -> CardView:
    """``card`` as shown under ``trump``, with its ``mark`` (glyph and name) if any;
    ``None`` is a card the record leaves unknown."""
    if card is None:
        return UNKNOWN_CARD
    glyph, name = mark or ("", "")
    return CardView(
        card_text(card),
        card_name(card, trump),
        card.suit.value.lower(),
        card.suit.is_red,
        glyph,
        name,
        action,
        enabled,
        picked_up,
        hinted,
    )


@dataclass(frozen=True)
class Control:
    action: str
    label: str
    hinted: bool = False
    """The choice the hint suggests, lit on the play page."""


PLACES = ("bottom", "left", "top", "right")


def places(viewer: Seat) -> list[tuple[Seat, str]]:
    """Each seat and where it sits: the viewer at the bottom, the next seat (clockwise,
    the one to act after the viewer) on the left, the partner at the top."""
    out = []
    seat = viewer
    for place in PLACES:
        out.append((seat, place))
        seat = seat.next
    return out


@dataclass
class SeatView:
    """One seat at the table, as seen from the viewer's."""

    seat: Seat
    place: str
    """``bottom``, ``left``, ``top`` or ``right``: the viewer's seat is at the bottom."""
    name: str
    role: str
    """Who sits there, under the name (``Your partner (normal)``); may be empty."""
    you: bool
    """The seat is the player's own, marked ``(you)`` beside the name."""
    is_dealer: bool
    turn: str
    """The badge of the seat to act (``Your turn``, ``To play``); empty for the others."""
    sits_out: bool
    cards: list[CardView] | None
    """The cards held, face up; ``None`` when they are not shown on the table."""
    count: int | None
    """How many cards are held, shown when they are not; ``None`` when the seat's cards
    are shown elsewhere on the page."""
    played: CardView | None = None
    won_trick: bool = False
    bubble: str = ""
    """The seat's last call (``Pass``, ``Name ♠ spades alone``), shown in a bubble beside the
    seat from its call until the first lead; empty for a seat that has not spoken."""

    @property
    def to_act(self) -> bool:
        return bool(self.turn)


def shown_trick(state: HandState) -> _Trick | None:
    """The trick on the table: the one being played, or the last one completed."""
    if not state.tricks:
        return None
    trick = state.tricks[-1]
    if not trick.cards and len(state.tricks) > 1:
        return state.tricks[-2]
    return trick


def seat_views(
    state: HandState,
    viewer: Seat,
    *,
    face_up: Collection[Seat],
    elsewhere: Collection[Seat] = (),
    roles: Mapping[Seat, str] | None = None,
    you: Seat | None = None,
    turn: Callable[[Seat], str],
    held_marks: Mapping[tuple[Seat, Card], tuple[str, str]] | None = None,
    played_marks: Mapping[tuple[Seat, Card], tuple[str, str]] | None = None,
    bubbles: bool = False,
) -> list[SeatView]:
    """The four seats of ``state`` around ``viewer``, in :func:`places` order.

    The cards of the seats in ``face_up`` are shown, sorted; the others are counted,
    except those in ``elsewhere`` (whose hand the page shows off the table). ``turn``
    words the badge of the seat to act; the marks (seat and card to glyph and class)
    mark the cards held and played. With ``bubbles`` each seat's last call is put in its
    :attr:`SeatView.bubble` until the first card is led.
    """
    roles = roles or {}
    held_marks = held_marks or {}
    played_marks = played_marks or {}
    trump = state.trump
    trick = shown_trick(state)
    complete = trick is not None and len(trick.cards) == len(state.active_seats)
    winner = state.trick_winner(trick) if trick is not None and complete else None
    played = dict(trick.cards) if trick is not None else {}
    in_play = state.phase in (Phase.DISCARD, Phase.PLAY, Phase.DONE)
    calls = call_bubbles(state) if bubbles else {}
    views = []
    for seat, place in places(viewer):
        held = list(state.hands[seat])
        cards = None
        if seat in face_up:
            ordered: list[Card | None] = [*sort_hand(held, trump), *[None] * held.count(None)]
            cards = [
                card_view(c, trump, mark=None if c is None else held_marks.get((seat, c)))
                for c in ordered
            ]
        card = played.get(seat)
        views.append(
            SeatView(
                seat=seat,
                place=place,
                name=seat.word,
                role=roles.get(seat, ""),
                you=seat is you,
                is_dealer=seat is state.dealer,
                turn=turn(seat) if seat is state.current_seat else "",
                sits_out=state.sits_out(seat) and in_play,
                cards=cards,
                count=None if seat in elsewhere else len(held),
                played=None
                if card is None
                else card_view(card, trump, mark=played_marks.get((seat, card))),
                won_trick=seat is winner,
                bubble=calls.get(seat, ""),
            )
        )
    return views


def before_first_lead(state: HandState) -> bool:
    """No card has been led yet: the auction (and the dealer's discard) is still on the table."""
    return state.cards_played == 0 and not state.is_terminal


def call_bubbles(state: HandState) -> dict[Seat, str]:
    """Each seat's last call in words (:func:`~games.engine.words.call_text`), until the
    first lead; none after it, and none for a hand that ended in the auction."""
    if not before_first_lead(state):
        return {}
    return {seat: call_text(seat, call, state) for seat, call in state.auction}


def upcard_note(state: HandState, dealer: str) -> str:
    """What became of the upcard, beside it in the centre of the table; ``dealer`` is how
    the page names the dealer."""
    if state.strain is None and state.round == 1 and not state.is_terminal:
        return "Upcard"
    if state.strain is None:
        return "Turned down"
    if state.picked_up:
        return f"Picked up by {dealer}"
    return "Not picked up"


@dataclass
class Table:
    """Everything the table partial shows."""

    seats: dict[str, SeatView]
    """Each seat by its place (``bottom`` is South)."""
    hand: list[CardView]
    controls: list[Control]
    prompt: str
    upcard: CardView
    upcard_note: str
    auction: list[tuple[str, str]]
    trump: str
    maker: str
    tricks_won: dict[str, int]
    scores: dict[str, int]
    news: list[str]
    automatic: bool
    cards_are_buttons: bool
    focus: str
    automatic_pause_ms: int
    hand_over: bool
    summary: str = ""
    trick_note: str = ""
    game_over: str = ""
    tricks_played: list[tuple[int, str, str, list[CardView]]] = field(default_factory=list)
    """Each finished trick: its number, who led, who won, the cards in playing order."""
    upcard_shown: bool = True
    """The upcard is on the table: until the first lead."""
    maker_by: str = ""
    """Who called trump, after ``Called by``: ``you, alone``, ``your partner (North)``."""
    last_trick: LastTrick | None = None
    hint: Hint | None = None
    """The hint taken for the decision on the table, if one was."""
    hints_taken: list[Hint] = field(default_factory=list)
    """Every hint taken in this hand, in order."""


@dataclass(frozen=True)
class LastTrick:
    """The last trick completed, for the play page's "Last trick" disclosure."""

    number: int
    winner: str
    cards: list[tuple[str, CardView, bool]]
    """Each seat's name, its card and whether it won the trick, in playing order."""


@dataclass(frozen=True)
class Hint:
    """A hint the player took: when, what the Hard player advised and why."""

    step: int
    """The actions taken in the hand before it."""
    when: str
    """``In the bidding``, ``Your discard``, ``Trick 3``."""
    advice: str
    reason: str
    action: str
    """The advised action as the page posts it (``play AH``)."""


def hint_views(hints: Sequence[Mapping[str, str]], state: HandState) -> list[Hint]:
    """The hints kept for the hand of ``state`` (``GamePlay.hints`` / ``Hand.hints``: each
    its ``step``, ``advice``, ``reason`` and ``action``), each placed in the hand."""
    out = []
    for hint in hints:
        try:
            step = int(hint.get("step", ""))
        except ValueError:
            continue
        plays = sum(isinstance(action, Play) for _, action in state.history[:step])
        if str(hint.get("action", "")).startswith("discard"):
            when = "Your discard"
        elif plays:
            when = f"Trick {plays // len(state.active_seats) + 1}"
        else:
            when = "In the bidding"
        out.append(
            Hint(
                step,
                when,
                str(hint.get("advice", "")),
                str(hint.get("reason", "")),
                str(hint.get("action", "")),
            )
        )
    return out


def last_trick(state: HandState) -> LastTrick | None:
    """The last trick completed, if any."""
    done = [t for t in state.tricks if len(t.cards) == len(state.active_seats)]
    if not done:
        return None
    trick = done[-1]
    winner = state.trick_winner(trick)
    return LastTrick(
        len(done),
        you_or_name(winner, HUMAN),
        [
            (you_or_name(seat, HUMAN), card_view(card, state.trump), seat is winner)
            for seat, card in trick.cards
        ],
    )


def sort_hand(cards: list[Card | None], trump: Suit | None) -> list[Card]:
    """South's cards suit by suit, high to low; trump first, the left bower among them."""
    known = [c for c in sort_cards(cards) if c is not None]
    if trump is None:
        return known
    trumps = sorted(
        (c for c in known if effective_suit(c, trump) is trump),
        key=lambda c: power(c, trump, trump),
        reverse=True,
    )
    return trumps + [c for c in known if c not in trumps]


def build_table(
    game: GamePlay, live: Live, hints: Sequence[Mapping[str, str]] | None = None
) -> Table:
    """The table as South sees it. ``hints`` are the hints kept for this hand (by default
    the game's own, :attr:`GamePlay.hints`; a finished hand's go with it to the library)."""
    state = live.hand
    trump = state.trump
    levels = {Seat.N: game.partner_level, Seat.W: game.opponents_level}
    levels[Seat.E] = game.opponents_level

    roles = {
        HUMAN: "You",
        HUMAN.partner: f"Your partner ({game.partner_level})",
        HUMAN.next: f"Opponent ({game.opponents_level})",
        HUMAN.next.partner: f"Opponent ({game.opponents_level})",
    }
    views = seat_views(
        state,
        HUMAN,
        face_up=(),
        elsewhere=(HUMAN,),
        roles=roles,
        turn=lambda seat: "Your turn" if seat is HUMAN else "Thinking…",
        bubbles=True,
    )
    seats = {view.place: view for view in views}
    winner = next((view.seat for view in views if view.won_trick), None)

    hand_number = str(game.hand_number)
    kept = game.hints if hints is None else hints
    hints_taken = hint_views([h for h in kept if h.get("hand", hand_number) == hand_number], state)
    live_hints = hints_taken if hints is None else []
    current = next((h for h in reversed(live_hints) if h.step == game.step), None)
    advised = current.action if current is not None else ""

    legal = state.legal_actions() if state.current_seat is HUMAN else []
    legal_texts = {format_action(a) for a in legal}
    unled = before_first_lead(state)
    dealer_holds_upcard = unled and state.picked_up and state.dealer is HUMAN
    hand_cards: list[CardView] = []
    for card in sort_hand(state.hands[HUMAN], trump):
        post = f"discard {card}" if state.phase is Phase.DISCARD else f"play {card}"
        hand_cards.append(
            card_view(
                card,
                trump,
                action=post,
                enabled=post in legal_texts,
                picked_up=dealer_holds_upcard and card == state.upcard,
                hinted=post == advised,
            )
        )

    automatic = game.automatic_action(live) is not None
    controls: list[Control] = []
    prompt = ""
    choosing = state.current_seat is HUMAN and not automatic
    if choosing:
        if state.phase in (Phase.AUCTION, Phase.FARMER, Phase.DEFEND):
            controls = [
                Control(format_action(a), control_label(a, state), format_action(a) == advised)
                for a in legal
            ]
        prompt = {
            Phase.FARMER: "You hold a farmer's hand. Swap it, or keep your cards.",
            Phase.AUCTION: "Your call.",
            Phase.DEFEND: "Will you defend alone?",
            Phase.DISCARD: f"You picked up {the(state.upcard, trump)}, marked in your hand: "
            "choose a card to discard (it may be that one).",
            Phase.PLAY: "Your turn: play a card.",
        }.get(state.phase, "")
        if state.phase is Phase.AUCTION and state.stuck:
            prompt = "Everyone passed: as the dealer you are stuck and must name a suit."

    news = []
    if state.history:
        seat, action = state.history[-1]
        news.append(play_news(seat, action, state, HUMAN))
        if isinstance(action, Play) and winner is not None:
            news.append(
                f"{you_or_name(winner, HUMAN)} {'win' if winner is HUMAN else 'wins'} the trick."
            )
    else:
        news.append(f"Hand {game.hand_number}: {you_or_name(state.dealer, HUMAN)} dealt.")
    if state.is_terminal:
        news.append(summary_text(state, HUMAN))
    elif state.current_seat is HUMAN and not automatic:
        news.append(prompt)
    elif state.current_seat is HUMAN:
        only = legal[0]
        assert isinstance(only, Play)
        news.append(f"Your only legal card, {the(only.card, trump)}, is played for you.")

    game_over = ""
    if live.game.is_over:
        won = live.game.winner is Team.NS
        game_over = "You and North win the game!" if won else "West and East win the game."

    trick_note = ""
    if winner is not None:
        trick_note = f"{you_or_name(winner, HUMAN)} won the trick."
    tricks_played = []
    for number, trick in enumerate(state.tricks, 1):
        if len(trick.cards) == len(state.active_seats):
            tricks_played.append(
                (
                    number,
                    you_or_name(trick.leader, HUMAN),
                    you_or_name(state.trick_winner(trick), HUMAN),
                    [card_view(c, trump) for _, c in trick.cards],
                )
            )

    return Table(
        seats=seats,
        hand=hand_cards,
        controls=controls,
        prompt=prompt,
        upcard=card_view(state.upcard, trump),
        upcard_note=upcard_note(state, who(state.dealer, HUMAN)),
        auction=[(you_or_name(s, HUMAN), call_text(s, c, state)) for s, c in state.auction],
        trump="" if state.strain is None else strain_text(state.strain),
        maker="" if state.maker is None else maker_words(state.maker, state.alone, HUMAN),
        maker_by=""
        if state.maker is None
        else who(state.maker, HUMAN) + (", alone" if state.alone else ""),
        tricks_won={"us": state.tricks_won[Team.NS], "them": state.tricks_won[Team.EW]},
        scores={"us": live.game.scores[Team.NS], "them": live.game.scores[Team.EW]},
        news=news,
        automatic=automatic,
        cards_are_buttons=choosing and state.phase in (Phase.DISCARD, Phase.PLAY),
        focus=next((c.action for c in controls), "")
        or next((c.action for c in hand_cards if c.enabled), ""),
        # A finished trick stays on the table a little longer, to be seen.
        automatic_pause_ms=1600 if winner is not None else 900,
        hand_over=state.is_terminal,
        summary=summary_text(state, HUMAN) if state.is_terminal else "",
        trick_note=trick_note,
        game_over=game_over,
        tricks_played=tricks_played,
        upcard_shown=unled,
        last_trick=last_trick(state),
        hint=current,
        hints_taken=hints_taken,
    )
