"""The words of the game: cards, strains, calls, seats, teams and results, as people read them.

Every page, explanation, hint, quiz question and export that names a card or a call takes
its words from here, so the same thing is always said the same way.

Cards come short (``A♥``, ``the A♥``) or long (``Ace of hearts``, ``the jack of diamonds,
left bower``):

>>> from games.engine.cards import Suit, parse_card
>>> jd = parse_card("JD")
>>> card_text(parse_card("TH")), short_name(jd, Suit.HEARTS)
('10♥', 'J♦ (the left bower)')
>>> card_name(jd, Suit.HEARTS), the(jd, Suit.HEARTS)
('Jack of diamonds, left bower', 'the jack of diamonds, left bower')

Calls have a label (the review's and the quiz's key for an option) and the words said of it:

>>> from games.engine.hand import Call
>>> label = call_label(Call("name", Suit.HEARTS, alone=True))
>>> label, call_words(label), call_phrase(Call("name", Suit.HEARTS, alone=True))
('name H alone', 'naming hearts alone', 'named hearts alone')

Teams are written with a hyphen, ``North-South`` and ``East-West``:

>>> team_word(Seat.E.team)
'East-West'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .cards import Bower, Card, Rank, Seat, Suit, Team, bower, effective_suit, parse_card
from .hand import (
    NT,
    Action,
    Call,
    Discard,
    FarmerRedeal,
    FarmerSwap,
    HandState,
    Phase,
    Play,
    Strain,
)
from .rules import Rules, preset_name
from .scoring import HandResult

__all__ = [
    "NUMBERS",
    "action_label",
    "action_words",
    "and_list",
    "are_trump",
    "auction_story",
    "call_imperative",
    "call_label",
    "call_option",
    "call_phrase",
    "call_text",
    "call_words",
    "capital",
    "card_name",
    "card_text",
    "choice_verb",
    "control_label",
    "describe",
    "describe_hand",
    "label_text",
    "maker_words",
    "number_word",
    "outcome_words",
    "phase_verb",
    "play_news",
    "plural",
    "points_text",
    "result_text",
    "scores_text",
    "short_name",
    "side_words",
    "strain_text",
    "strain_word",
    "summary_text",
    "team_word",
    "the",
    "the_bower_or_card",
    "the_cards",
    "the_short",
    "the_with_role",
    "tricks_words",
    "trick_text",
    "trump_sentence",
    "what_it_is",
    "who",
    "you_or_name",
]

NUMBERS = ("no", "one", "two", "three", "four", "five", "six")
"""Counts of cards and tricks in words, from none to six."""


# -- joining --------------------------------------------------------------------------------


def and_list(words: Sequence[str]) -> str:
    """Words joined as a sentence lists them.

    >>> and_list([]), and_list(["hearts"]), and_list(["spades", "hearts", "clubs"])
    ('', 'hearts', 'spades, hearts and clubs')
    """
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def capital(text: str) -> str:
    """``text`` with its first letter a capital (the rest untouched; empty stays empty).

    >>> capital("the left bower"), capital("")
    ('The left bower', '')
    """
    return text[:1].upper() + text[1:]


def number_word(count: int) -> str:
    """``no``, ``one`` … ``six``.

    >>> number_word(0), number_word(3)
    ('no', 'three')
    """
    return NUMBERS[count]


def plural(count: int, word: str) -> str:
    """A count and its noun: ``1 trick``, ``3 tricks``, ``0 points``.

    >>> plural(1, "trick"), plural(3, "point"), plural(0, "trick")
    ('1 trick', '3 points', '0 tricks')
    """
    return f"{count} {word}{'' if count == 1 else 's'}"


def points_text(value: float) -> str:
    """Expected points to two places: ``0.35 points``, ``1.00 point``.

    >>> points_text(0.35), points_text(1.0), points_text(-1.0)
    ('0.35 points', '1.00 point', '-1.00 points')
    """
    return f"{value:.2f} point" + ("" if abs(value - 1) < 0.005 else "s")


# -- cards ----------------------------------------------------------------------------------


def card_text(card: Card) -> str:
    """The card as people write it: ``10♥``, ``J♠``.

    >>> from games.engine.cards import parse_card
    >>> card_text(parse_card("TH")), card_text(parse_card("JS"))
    ('10♥', 'J♠')
    """
    rank = "10" if card.rank is Rank.TEN else card.rank.letter
    return rank + card.suit.symbol


def short_name(card: Card, trump: Suit | None = None) -> str:
    """``10♦``, ``J♥``; under a trump the bowers say which they are.

    >>> from games.engine.cards import parse_card
    >>> short_name(parse_card("JH"), Suit.HEARTS), short_name(parse_card("JH"))
    ('J♥ (the right bower)', 'J♥')
    """
    which = bower(card, trump)
    text = card_text(card)
    return text if which is None else f"{text} (the {which.word})"


def the_short(card: Card, trump: Suit | None = None) -> str:
    """:func:`short_name` inside a sentence: ``the A♥``, ``the J♦ (the left bower)``.

    >>> from games.engine.cards import parse_card
    >>> the_short(parse_card("AH"))
    'the A♥'
    """
    return "the " + short_name(card, trump)


def card_name(card: Card, trump: Suit | None = None) -> str:
    """A card's name for people and screen readers.

    >>> from games.engine.cards import parse_card
    >>> card_name(parse_card("JD"), Suit.HEARTS), card_name(parse_card("9C"))
    ('Jack of diamonds, left bower', 'Nine of clubs')
    """
    name = f"{card.rank.word.capitalize()} of {card.suit.plural}"
    which = bower(card, trump)
    return name if which is None else f"{name}, {which.word}"


def the(card: Card, trump: Suit | None = None) -> str:
    """A card's name inside a sentence: ``the jack of diamonds, left bower``.

    >>> from games.engine.cards import parse_card
    >>> the(parse_card("JD"), Suit.HEARTS), the(parse_card("JD"))
    ('the jack of diamonds, left bower', 'the jack of diamonds')
    """
    name = card_name(card, trump)
    return "the " + name[0].lower() + name[1:]


def the_cards(cards: Sequence[Card]) -> str:
    """Cards by name, joined as a sentence lists them.

    >>> from games.engine.cards import parse_card
    >>> the_cards([parse_card("9C"), parse_card("AH")])
    'the nine of clubs and the ace of hearts'
    """
    return and_list([the(card) for card in cards])


def the_with_role(card: Card, trump: Suit | None) -> str:
    """A card's name, a bower's role in brackets: ``the jack of diamonds (the left bower)``.

    >>> from games.engine.cards import parse_card
    >>> the_with_role(parse_card("JD"), Suit.HEARTS), the_with_role(parse_card("JD"), None)
    ('the jack of diamonds (the left bower)', 'the jack of diamonds')
    """
    which = bower(card, trump)
    text = the(card)
    return text if which is None else f"{text} (the {which.word})"


def what_it_is(card: Card, trump: Suit | None) -> str:
    """What a card is under ``trump``: ``the jack of diamonds (the left bower, a heart)``.

    >>> from games.engine.cards import parse_card
    >>> what_it_is(parse_card("JD"), Suit.HEARTS), what_it_is(parse_card("JH"), Suit.HEARTS)
    ('the jack of diamonds (the left bower, a heart)', 'the jack of hearts (the right bower)')
    """
    which = bower(card, trump)
    if which is Bower.RIGHT:
        return f"{the(card)} (the right bower)"
    if which is Bower.LEFT:
        assert trump is not None
        return f"{the(card)} (the left bower, a {trump.plural[:-1]})"
    return the(card)


def the_bower_or_card(card: Card, trump: Suit | None) -> str:
    """A bower by what it is, any other card by its name: ``the right bower``,
    ``the nine of clubs`` (a policy's reasons speak so).

    >>> from games.engine.cards import parse_card
    >>> the_bower_or_card(parse_card("JD"), Suit.HEARTS)
    'the left bower'
    >>> the_bower_or_card(parse_card("JD"), Suit.SPADES)
    'the jack of diamonds'
    """
    which = bower(card, trump)
    return the(card) if which is None else f"the {which.word}"


def trick_text(cards: Sequence[tuple[Seat, Card]]) -> str:
    """A trick's cards in the order played: ``North the nine of clubs, East the ace of clubs``.

    >>> from games.engine.cards import parse_card
    >>> trick_text([(Seat.N, parse_card("9C")), (Seat.E, parse_card("AC"))])
    'North the nine of clubs, East the ace of clubs'
    """
    return ", ".join(f"{seat.word} {the(card)}" for seat, card in cards)


def describe_hand(cards: Collection[Card], trump: Suit) -> str:
    """The hand as a bid's reason sees it: trumps, bowers, off-suit aces.

    >>> from games.engine.cards import parse_card
    >>> describe_hand([parse_card(c) for c in "JD QH 9H AC TC".split()], Suit.HEARTS)
    'Three trumps with the left bower and the ace of clubs'
    >>> describe_hand([parse_card(c) for c in "JD JH AH AC AS".split()], Suit.HEARTS)
    'Three trumps with both bowers and the trump ace, and the aces of spades and clubs'
    """
    trumps = [c for c in cards if effective_suit(c, trump) is trump]
    count = len(trumps)
    text = f"{capital(number_word(count))} trump{'' if count == 1 else 's'}"
    bowers = {bower(c, trump) for c in trumps}
    highs = []
    if Bower.RIGHT in bowers and Bower.LEFT in bowers:
        highs.append("both bowers")
    elif Bower.RIGHT in bowers:
        highs.append("the right bower")
    elif Bower.LEFT in bowers:
        highs.append("the left bower")
    if any(c.rank is Rank.ACE and c.suit is trump for c in trumps):
        highs.append("the trump ace")
    if highs:
        text += " with " + and_list(highs)
    aces = [s for s in Suit if s is not trump and Card(Rank.ACE, s) in cards]
    if aces:
        joiner = ", and " if len(highs) > 1 else " and "
        if len(aces) == 1:
            text += f"{joiner}the ace of {aces[0].plural}"
        else:
            text += f"{joiner}the aces of {and_list([s.plural for s in aces])}"
    return text


# -- strains --------------------------------------------------------------------------------


def strain_word(strain: Strain) -> str:
    """``hearts``, ``no-trump``.

    >>> strain_word(Suit.HEARTS), strain_word(NT)
    ('hearts', 'no-trump')
    """
    return strain.plural if isinstance(strain, Suit) else "no-trump"


def strain_text(strain: Strain) -> str:
    """A strain with its symbol, as the table shows it: ``♠ spades``, ``no-trump``.

    >>> strain_text(Suit.SPADES), strain_text(NT)
    ('♠ spades', 'no-trump')
    """
    if strain == NT:
        return "no-trump"
    assert isinstance(strain, Suit)
    return f"{strain.symbol} {strain.plural}"


def trump_sentence(trump: Suit | None) -> str:
    """What is trump, as a whole sentence (``None`` is no-trump).

    >>> trump_sentence(Suit.HEARTS)
    'Hearts are trump.'
    """
    if trump is None:
        return "The hand is played at no-trump: there is no trump suit and there are no bowers."
    return f"{trump.plural.capitalize()} are trump."


def are_trump(strain: Strain, *, no_trump: str = "named") -> str:
    """What is trump, for a question to go on from: ``Hearts are trump``; no-trump was
    ``no_trump`` (``named``, ``called``).

    >>> are_trump(Suit.HEARTS), are_trump(NT), are_trump(NT, no_trump="called")
    ('Hearts are trump', 'No-trump was named', 'No-trump was called')
    """
    if strain == NT:
        return f"No-trump was {no_trump}"
    assert isinstance(strain, Suit)
    return f"{strain.plural.capitalize()} are trump"


# -- seats and teams ------------------------------------------------------------------------


def who(seat: Seat, viewer: Seat) -> str:
    """``seat`` as ``viewer`` hears of it: ``you``, ``your partner (North)``, ``East``.

    >>> who(Seat.S, Seat.S), who(Seat.N, Seat.S), who(Seat.E, Seat.S)
    ('you', 'your partner (North)', 'East')
    """
    if seat is viewer:
        return "you"
    if seat is viewer.partner:
        return f"your partner ({seat.word})"
    return seat.word


def you_or_name(seat: Seat, you: Seat = Seat.S) -> str:
    """``You`` for the player's own seat, else the seat's name, to begin a sentence.

    >>> you_or_name(Seat.S), you_or_name(Seat.W)
    ('You', 'West')
    """
    return "You" if seat is you else seat.word


def team_word(team: Team) -> str:
    """``North-South`` or ``East-West``: the one spelling of the teams.

    >>> team_word(Team.NS)
    'North-South'
    """
    return "North-South" if team is Team.NS else "East-West"


def scores_text(ns: int, ew: int) -> str:
    """A game's score by team: ``North-South 7, East-West 4``.

    >>> scores_text(7, 4)
    'North-South 7, East-West 4'
    """
    return f"{team_word(Team.NS)} {ns}, {team_word(Team.EW)} {ew}"


def side_words(team: Team, you: Seat = Seat.S) -> str:
    """A team as the player at ``you`` calls it: ``You and North``, ``West and East``.

    >>> side_words(Team.NS), side_words(Team.EW)
    ('You and North', 'West and East')
    """
    if team is you.team:
        return f"You and {you.partner.word}"
    return f"{you.next.word} and {you.next.partner.word}"


# -- calls ----------------------------------------------------------------------------------


def call_label(action: Action) -> str:
    """A bidding option as the review and the quiz write it: ``pass``, ``order_up``,
    ``order_up alone``, ``name H``, ``name NT alone``, ``defend_alone``,
    ``farmer 9S 9H 9D``, ``farmer redeal``.

    >>> call_label(Call("order_up", alone=True)), call_label(FarmerRedeal())
    ('order_up alone', 'farmer redeal')
    """
    if isinstance(action, FarmerSwap):
        return "farmer " + " ".join(str(c) for c in action.cards)
    if isinstance(action, FarmerRedeal):
        return "farmer redeal"
    assert isinstance(action, Call)
    label = action.kind if action.kind != "name" else f"name {action.suit}"
    return label + (" alone" if action.alone else "")


def call_words(label: str) -> str:
    """A :func:`call_label` as the thing done: ``ordering up alone``, ``naming hearts``.

    >>> call_words("pass"), call_words("name NT"), call_words("farmer redeal")
    ('passing', 'naming no-trump', 'asking for a redeal')
    >>> call_words("farmer 9C 9H 9S")
    'swapping the 9♣, 9♥ and 9♠ for the kitty'
    """
    words = label.split()
    alone = " alone" if words[-1] == "alone" else ""
    kind = words[0]
    if kind == "pass":
        return "passing"
    if kind == "order_up":
        return "ordering up" + alone
    if kind == "defend_alone":
        return "defending alone"
    if kind == "farmer":
        if words[1] == "redeal":
            return "asking for a redeal"
        return f"swapping {_swapped(words[1:])} for the kitty"
    return f"naming {strain_word(_label_strain(words[1]))}{alone}"


def _swapped(texts: Sequence[str]) -> str:
    """A farmer's three cards, short: ``the 9♣, 9♥ and 9♠``."""
    return "the " + and_list([card_text(parse_card(text)) for text in texts])


def label_text(label: str, *, spell_no_trump: bool = False) -> str:
    """A :func:`call_label` with its underscores as spaces: ``order up alone``, ``name H``;
    with ``spell_no_trump``, ``name NT`` reads ``name no-trump``.

    >>> label_text("defend_alone"), label_text("name NT")
    ('defend alone', 'name NT')
    >>> label_text("name NT", spell_no_trump=True)
    'name no-trump'
    """
    text = label.replace("_", " ")
    return text.replace(" NT", " no-trump") if spell_no_trump else text


def action_words(action: Action) -> str:
    """An option as a computer player's reason weighs it: ``playing the J♥``,
    ``discarding the 9♣``, ``ordering up alone``, ``naming hearts``.

    >>> from games.engine.cards import parse_card
    >>> action_words(Play(parse_card("JH"))), action_words(Call("order_up", alone=True))
    ('playing the J♥', 'ordering up alone')
    """
    if isinstance(action, Play | Discard):
        verb = "playing" if isinstance(action, Play) else "discarding"
        return verb if action.card is None else f"{verb} {the_short(action.card)}"
    return call_words(call_label(action))


def call_imperative(label: str) -> str:
    """A :func:`call_label` as a choice to make: ``order up alone``, ``name hearts``.

    >>> call_imperative("order_up alone"), call_imperative("name NT"), call_imperative("pass")
    ('order up alone', 'name no-trump', 'pass')
    >>> call_imperative("farmer 9C 9H 9S"), call_imperative("farmer redeal")
    ('swap the 9♣, 9♥ and 9♠ for the kitty', 'ask for a redeal')
    """
    words = label.split()
    if words[0] == "farmer":
        return (
            "ask for a redeal"
            if words[1] == "redeal"
            else f"swap {_swapped(words[1:])} for the kitty"
        )
    if words[0] == "name":
        words[1] = strain_word(_label_strain(words[1]))
    return " ".join(words).replace("order_up", "order up").replace("defend_alone", "defend alone")


def call_option(label: str) -> str:
    """A :func:`call_label` as an answer's button says it: ``Order up alone``,
    ``Name ♠ spades alone``, ``Call no-trump``, ``Swap the 9♣, 9♥ and 9♠ for the kitty``.

    >>> call_option("name S alone"), call_option("name NT"), call_option("defend_alone")
    ('Name ♠ spades alone', 'Call no-trump', 'Defend alone')
    """
    words = label.split()
    if words[0] == "name":
        strain = _label_strain(words[1])
        alone = " alone" if words[-1] == "alone" else ""
        return ("Call no-trump" if strain == NT else f"Name {strain_text(strain)}") + alone
    return capital(call_imperative(label))


def _label_strain(text: str) -> Strain:
    return NT if text == NT else Suit(text)


def call_phrase(call: Call) -> str:
    """A call as a story of the auction tells it: ``ordered it up``, ``named hearts alone``,
    ``passed``.

    >>> call_phrase(Call("pass")), call_phrase(Call("order_up"))
    ('passed', 'ordered it up')
    """
    if call.kind == "pass":
        return "passed"
    if call.kind == "defend_alone":
        return "defends alone"
    if call.kind == "order_up":
        text = "ordered it up"
    else:
        text = f"named {strain_word(NT if call.suit is None else call.suit)}"
    return text + (" alone" if call.alone else "")


def auction_story(auction: Sequence[tuple[Seat, Call]]) -> str:
    """The auction so far in a sentence or two.

    >>> auction_story([(Seat.E, Call("pass")), (Seat.S, Call("order_up"))])
    'East passed, South ordered it up.'
    >>> auction_story([(s, Call("pass")) for s in (Seat.E, Seat.S, Seat.W, Seat.N)])
    'Everyone passed in the first round and the upcard was turned down.'
    """
    if not auction:
        return "Nobody has bid yet."
    first, second = auction[:4], auction[4:]
    sentences = []
    if len(first) == 4 and all(c.kind == "pass" for _, c in first):
        sentences.append("Everyone passed in the first round and the upcard was turned down.")
    else:
        sentences.append(", ".join(f"{s.word} {call_phrase(c)}" for s, c in first) + ".")
    if second:
        sentences.append("Then " + ", ".join(f"{s.word} {call_phrase(c)}" for s, c in second) + ".")
    return " ".join(sentences)


# -- an action in a state -------------------------------------------------------------------


def call_text(seat: Seat, call: Call, state: HandState) -> str:
    """A call in the auction list: ``Pass``, ``Order up``, ``Pick it up``,
    ``Name ♠ spades alone``."""
    if call.kind == "pass":
        text = "Pass"
    elif call.kind == "order_up":
        text = "Pick it up" if seat is state.dealer else "Order up"
    elif call.kind == "defend_alone":
        text = "Defend alone"
    else:
        assert call.suit is not None
        text = "No-trump" if call.suit == NT else f"Name {strain_text(call.suit)}"
    return text + (" alone" if call.alone else "")


def control_label(action: Action, state: HandState) -> str:
    """The words on the play page's button for a choice of the seat to act: ``Order it up
    (♥ hearts trump) and go alone``, ``Keep my hand``."""
    if isinstance(action, FarmerSwap):
        return "Swap " + " ".join(card_text(c) for c in action.cards) + " for the kitty"
    if isinstance(action, FarmerRedeal):
        return "Show my farmer's hand and ask for a redeal"
    assert isinstance(action, Call)
    alone = " and go alone" if action.alone else ""
    if action.kind == "pass":
        return {Phase.FARMER: "Keep my hand", Phase.DEFEND: "Don't defend alone"}.get(
            state.phase, "Pass"
        )
    if action.kind == "defend_alone":
        return "Defend alone"
    if action.kind == "order_up":
        verb = "Pick it up" if state.current_seat is state.dealer else "Order it up"
        return f"{verb} ({strain_text(state.upcard.suit)} trump){alone}"
    assert action.suit is not None
    if action.suit == NT:
        return f"Call no-trump{alone}"
    return f"Name {strain_text(action.suit)}{alone}"


def action_label(action: Action, state: HandState) -> str:
    """An option in words for the seat about to take it in ``state``, as a replay's list
    of options shows it: ``A♥``, ``Order it up (♥ hearts) alone``, ``Keep the hand``."""
    if isinstance(action, Play):
        return card_text(action.card)
    if isinstance(action, Discard):
        return "?" if action.card is None else card_text(action.card)
    if isinstance(action, FarmerSwap):
        return "Swap " + " ".join(card_text(c) for c in action.cards) + " for the kitty"
    if isinstance(action, FarmerRedeal):
        return "Show a farmer's hand (redeal)"
    alone = " alone" if action.alone else ""
    if action.kind == "pass":
        return {Phase.FARMER: "Keep the hand", Phase.DEFEND: "Don't defend alone"}.get(
            state.phase, "Pass"
        )
    if action.kind == "defend_alone":
        return "Defend alone"
    if action.kind == "order_up":
        verb = "Pick it up" if state.current_seat is state.dealer else "Order it up"
        return f"{verb} ({strain_text(state.upcard.suit)}){alone}"
    assert action.suit is not None
    return ("Call no-trump" if action.suit == NT else f"Name {strain_text(action.suit)}") + alone


def play_news(seat: Seat, action: Action, state: HandState, you: Seat = Seat.S) -> str:
    """One sentence for the play page's live region about an action just taken in
    ``state`` (the state before it), told to the player at ``you``."""
    name = you_or_name(seat, you)
    yours = seat is you
    if isinstance(action, Call):
        if action.kind == "pass":
            return f"{name} {'pass' if yours else 'passes'}."
        if action.kind == "defend_alone":
            return f"{name} {'defend' if yours else 'defends'} alone."
        alone = f", and {'go' if yours else 'goes'} alone" if action.alone else ""
        if action.kind == "order_up":
            trump = state.upcard.suit.plural
            if seat is state.dealer:
                return f"{name} {'pick' if yours else 'picks'} it up: {trump} are trump{alone}."
            return f"{name} {'order' if yours else 'orders'} it up: {trump} are trump{alone}."
        assert action.suit is not None
        if action.suit == NT:
            return f"{name} {'call' if yours else 'calls'} no-trump{alone}."
        return f"{name} {'name' if yours else 'names'} {strain_word(action.suit)}{alone}."
    if isinstance(action, Discard):
        if yours and action.card is not None:
            return f"You discard {the(action.card, state.trump)}."
        return f"{name} discards a card."
    if isinstance(action, Play):
        return f"{name} {'play' if yours else 'plays'} {the(action.card, state.trump)}."
    if isinstance(action, FarmerSwap):
        return f"{name} {'swap' if yours else 'swaps'} a farmer's hand for the kitty."
    return f"{name} {'show' if yours else 'shows'} a farmer's hand: the cards are dealt again."


def describe(seat: Seat, action: Action, state: HandState, *, discard_visible: bool) -> str:
    """One sentence about an action taken in ``state`` (the state before it), told of the
    seat by name, as a replay tells it; a discard is named only when ``discard_visible``."""
    name = seat.word
    trump = state.trump
    if isinstance(action, Play):
        return f"{name} plays {the(action.card, trump)}."
    if isinstance(action, Discard):
        if action.card is None or not discard_visible:
            return f"{name} discards a card."
        return f"{name} discards {the(action.card, trump)}."
    if isinstance(action, FarmerSwap):
        return f"{name} swaps a farmer's hand for the kitty."
    if isinstance(action, FarmerRedeal):
        return f"{name} shows a farmer's hand: the cards are dealt again."
    if action.kind == "pass":
        return f"{name} passes."
    if action.kind == "defend_alone":
        return f"{name} defends alone."
    alone = ", alone" if action.alone else ""
    if action.kind == "order_up":
        verb = "picks it up" if seat is state.dealer else "orders it up"
        return f"{name} {verb}: {state.upcard.suit.plural} are trump{alone}."
    assert action.suit is not None
    if action.suit == NT:
        return f"{name} calls no-trump{alone}."
    return f"{name} names {strain_word(action.suit)}{alone}."


def phase_verb(phase: Phase) -> str:
    """What the seat to act in ``phase`` is to do, as a replay says it: ``North to call.``

    >>> phase_verb(Phase.AUCTION), phase_verb(Phase.DEFEND)
    ('call', 'decide on defending alone')
    """
    return {
        Phase.FARMER: "declare",
        Phase.AUCTION: "call",
        Phase.DEFEND: "decide on defending alone",
        Phase.DISCARD: "discard",
        Phase.PLAY: "play",
    }.get(phase, "act")


def choice_verb(action: Action) -> str:
    """The verb before an option's label (:func:`action_label`): ``play the`` 9♠,
    ``discard the`` 9♠, ``choose`` Pass.

    >>> from games.engine.cards import parse_card
    >>> choice_verb(Play(parse_card("9S"))), choice_verb(Call("pass"))
    ('play the', 'choose')
    """
    if isinstance(action, Play):
        return "play the"
    if isinstance(action, Discard):
        return "discard the"
    return "choose"


# -- results --------------------------------------------------------------------------------


def _scorer(result: HandResult) -> tuple[Team, int]:
    assert result.points is not None
    points = result.points
    scorer = max(points, key=lambda t: points[t])
    return scorer, points[scorer]


def _called(result: HandResult) -> str:
    assert result.trump is not None
    strain = "no-trump" if result.trump == NT else Suit(result.trump).plural
    return strain + (" alone" if result.alone else "")


def tricks_words(count: int) -> str:
    """A number of tricks as a result tells it: ``no tricks``, ``1 trick``, ``3 tricks``.

    >>> tricks_words(0), tricks_words(1), tricks_words(4)
    ('no tricks', '1 trick', '4 tricks')
    """
    return "no tricks" if count == 0 else plural(count, "trick")


def outcome_words(row: str, makers: str, tricks: int, *, one: bool) -> str:
    """What the ``makers`` (``You and North``, ``North``: ``one`` seat or two) did, by
    scoring row, with the tricks they took, as a sentence.

    >>> outcome_words("make", "You and North", 3, one=False)
    'You and North took 3 tricks and made it.'
    >>> outcome_words("march", "East and West", 5, one=False)
    'East and West took all five tricks: a march.'
    >>> outcome_words("lone_maker_euchred", "North", 2, one=True)
    'North took only 2 tricks and was euchred.'
    """
    were = "were" if not one or makers == "You" else "was"
    if row == "march":
        return f"{makers} took all five tricks: a march."
    if row == "lone_march":
        return f"{makers} took all five tricks alone: a lone march."
    if row in ("make", "no_trump_make"):
        return f"{makers} took {tricks_words(tricks)} and made it."
    only = "" if tricks == 0 else "only "
    took = f"{makers} took {only}{tricks_words(tricks)}"
    if row == "lone_defender_euchre":
        return f"{took} and {were} euchred by a lone defender."
    if row in ("euchre", "lone_maker_euchred"):
        return f"{took} and {were} euchred."
    return f"{took}."


def maker_words(maker: Seat, alone: bool, you: Seat = Seat.S) -> str:
    """Who made trump, as the table shows it: ``You called it``, ``North called it alone``.

    >>> maker_words(Seat.S, True), maker_words(Seat.N, False)
    ('You called it alone', 'North called it')
    """
    return f"{you_or_name(maker, you)} called it" + (" alone" if alone else "")


def summary_text(state: HandState, you: Seat = Seat.S) -> str:
    """A finished hand's outcome told to the player at ``you``, as the play page ends it:
    who called what, the tricks, what the makers did and who scores. A lone maker took
    the tricks alone, so the sentence names that seat only."""
    result = state.result()
    if state.passed_out or result.maker is None or result.points is None:
        if isinstance(state.farmer, FarmerRedeal):
            return "A farmer's hand was shown: nobody scores and the next dealer deals."
        return "Everyone passed twice: nobody scores and the next dealer deals."
    maker = result.maker
    made = f"{you_or_name(maker, you)} called {_called(result)}."
    if result.defender_alone is not None:
        made += f" {you_or_name(result.defender_alone, you)} defended alone."
    makers = you_or_name(maker, you) if result.alone else side_words(maker.team, you)
    outcome = outcome_words(
        result.row or "", makers, result.tricks[maker.team], one=bool(result.alone)
    )
    scorer, points = _scorer(result)
    return f"{made} {outcome} {side_words(scorer, you)} score {plural(points, 'point')}."


def result_text(state: HandState) -> str:
    """A finished hand's outcome told of the seats by name: who called what, the makers'
    tricks and who scores."""
    result = state.result()
    if state.passed_out or result.maker is None or result.points is None:
        if isinstance(state.farmer, FarmerRedeal):
            return "A farmer's hand was shown: nobody scores."
        return "Everyone passed twice: nobody scores."
    maker = result.maker
    scorer, points = _scorer(result)
    tricks = tricks_words(result.tricks[maker.team])
    took = (
        f"{maker.word} took {tricks}" if result.alone else f"{team_word(maker.team)} took {tricks}"
    )
    return (
        f"{maker.word} called {_called(result)}; {took}. {team_word(scorer)} score "
        f"{plural(points, 'point')}."
    )


# -- the table's rules --------------------------------------------------------------------


def table_words(rules: Rules) -> str:
    """The table's rules in a sentence, as a bidding or discard question states them."""
    name = preset_name(rules)
    parts = [
        "stick the dealer (after seven passes the dealer must name a suit)"
        if rules.stick_the_dealer
        else "no stick the dealer (if all four pass twice, the hand is thrown in and redealt)"
    ]
    if rules.canadian_loner:
        parts.append(
            "the Canadian loner (in the first round the dealer's partner may order up only by "
            "going alone)"
        )
    if rules.defend_alone:
        parts.append(
            f"defending alone (a defender may go alone and scores "
            f"{rules.points.lone_defender_euchre} for euchring the makers)"
        )
    else:
        parts.append("no defending alone")
    if rules.sitting_out_dealer_picks_up:
        parts.append("the dealer picks up the upcard even when sitting out for a lone partner")
    if rules.no_trump:
        parts.append(
            f"no-trump may be named in the second round (no bowers; "
            f"{rules.points.no_trump_make} point for 3 or 4 tricks)"
        )
    if rules.farmers_hand != "off":
        wanted = (
            "three of a kind, three 9s or three 10s"
            if rules.farmers_hand == "clean"
            else "three cards, each a 9 or a 10"
        )
        if rules.farmers_turn_card_rule:
            wanted += ", none of the upcard's suit"
        action = "may ask for a redeal" if rules.farmers_redeal else "may be swapped for the kitty"
        parts.append(f"the farmer's hand ({wanted}, {action} before the bidding)")
    label = f"the {_PRESET_WORDS[name]} rules" if name else "these rules"
    return f"The table plays {label}: {', '.join(parts)}; the game is to {rules.target}."


_PRESET_WORDS = {
    "standard": "standard",
    "canadian-loner": "Canadian loner",
    "defend-alone": "defend-alone",
    "redeal": "redeal",
    "farmers-hand": "farmer's hand",
    "no-trump": "no-trump",
}
