"""Read Trickster Cards' PTN: the text its players copy out of a game, into hand records.

PTN is PBN's layout (tag pairs ``[Name "value"]``, then the auction and the play as
tokens) for Trickster's card games. What is read here follows Trickster's own reader of
it (``TestBots/PTN.cs`` in TricksterCards/TricksterBots) and the hands its players post
in that project's bug reports:

- ``[Deal "S:Q.AQ.Q.J J.J.A9.A KT.K..KT A.T9.T.9"]``: the hands as dealt, first the seat
  named, then clockwise (S, W, N, E); each hand its spades, hearts, diamonds and clubs,
  ranks ``A K Q J T 9``, between dots; ``-`` for a hand not shown.
- ``[Undealt "S9DKDJCQ"]``: the four cards not dealt, suit first; the first is the upcard.
- ``[Dealer "S"]``; without it, the seat the deal names first deals.
- ``[Auction "W"]`` and the lines after it: the calls in turn from the seat named (the
  dealer's left): ``Pass``, a suit (``♠``, or ``S``…; in the first round the upcard's suit
  orders it up) or ``NT``, with ``alone`` after it (``♠ alone``, ``NTalone``),
  ``Defend`` for a defender going alone, and ``-`` where a seat made no call.
- ``[CardsAdded "S:S9"]`` and ``[CardsRemoved "S:DQ"]``: the dealer picks up and
  discards; a player who takes the kitty for three cards goes under (``goUnder``), the
  record's farmer's hand in its mixed form (three cards, each a 9 or a 10).
  ``[CardsPassed]`` (calling for partner's best) is a variant these rules do not play:
  such a hand is refused, by name.
- ``[Play "W"]`` and the lines after it: one trick a line, each card suit first (``CA``)
  in a column of its own, the columns from the seat named (the first leader) clockwise;
  ``-`` for a seat that sits out (or has not played yet, in an unfinished hand).
- ``[GameOptionsJson "{…}"]``: the table's options; ``stickTheDealer``, ``allowNotrump``,
  ``defendAlone`` and ``gameOverScore`` become the record's rules.
- ``[North "…"]`` (and East, South, West): the players; ``[Event]`` the title;
  ``[UTCDate]`` and ``[UTCTime]`` the date; ``[GameScores "S:10 7 10 7"]`` the score after
  the hand, seat by seat from the seat named.

A text may hold several hands, each starting at its ``[Event]`` (or at a tag its hand has
already had). Lines that start with ``%`` are comments. Commentary, ``{…}`` or ``;`` to
the end of the line, is kept as an annotation of the call or card it follows, and a mark
after a call or card (``CA!``, ``Pass?``: ``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``)
as its label, as EGN labels them.

>>> match = read_ptn(EXAMPLE)
>>> match.players, match.initial_score, match.final_score
(('JT', 'Althea', 'ETP', 'Victoria'), (9, 7), (10, 7))
>>> hand = match.deals[0]
>>> hand.record["auction"][-1], hand.record["discard"], hand.record["play"][:4]
({'seat': 'S', 'call': 'order_up', 'alone': False}, 'QD', ['AC', 'TC', '9C', '9S'])
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from .cards import UNKNOWN, Card, Seat, Suit, Team, parse_card, parse_suit
from .egn import EgnAnnotation
from .errors import CardError, IllegalActionError, PtnError, RecordError, shown
from .hand import NT, PASS, Phase, Play, Strain
from .jsontext import loads as json_loads
from .record import FORMAT, parse_record

__all__ = ["EXAMPLE", "PtnHand", "PtnMatch", "looks_like_ptn", "read_ptn"]

EXAMPLE = r"""% PTN ---------------------------
[Event "Trickster Cards: Play Euchre - Play to 10, stick-the-dealer"]
[UTCDate "2025.01.18"]
[UTCTime "16:39:43"]
[GameCode "Euchre"]
[GameOptionsJson "{\"stickTheDealer\":true}"]
[GameScores "S:10 7 10 7"]
[West "Victoria"]
[North "JT"]
[East "Althea"]
[South "ETP"]
[Dealer "S"]
[Deal "S:Q.AQ.Q.J J.J.A9.A KT.K..KT A.T9.T.9"]
[Undealt "S9DKDJCQ"]
[Declarer "S"]
[Contract "♠"]
[Auction "W"]
Pass Pass Pass ♠
[CardsAdded "S:S9"]
[CardsRemoved "S:DQ"]
[Play "W"]
CA CT C9 S9 {South trumps the ace}
SJ ST SA SQ
DA SK TD HQ
HJ HK HT HA
D9 CK H9 CJ
"""

_SIDES = {"N": Seat.N, "E": Seat.E, "S": Seat.S, "W": Seat.W}
_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_RANKS = "AKQJT9"
_REPEATED = ("cardsadded", "cardsremoved", "cardspassed")
"""Tags a hand may carry more than once."""
_MARKS = ("!!", "??", "!?", "?!", "!", "?")
_TAG = re.compile(r"^\[\s*([A-Za-z][A-Za-z0-9_]*)")

_RULE_OPTIONS = {
    "stickTheDealer": "stick_the_dealer",
    "allowNotrump": "no_trump",
    "allowNoTrump": "no_trump",
    "defendAlone": "defend_alone",
}
_QUIET_OPTIONS = {"noWatching", "noSuggestions", "noChat", "noKibitzing", "isPrivate"}
"""Options about the table, not the game: read and left."""
_SCORING_OPTIONS = {
    "aloneTake5": ("a lone maker must take all five tricks", "a lone hand is not imported"),
    "take4for1": ("four tricks score one point", "the hands are scored by the usual rules"),
    "callForBest": (
        "a lone maker may call for partner's best card",
        "a hand that does is not imported",
    ),
    "allowMisdeal": ("a misdeal may be called", "a misdealt hand is not imported"),
    "makerLeadsFirst": (
        "the maker leads the first trick",
        "a hand led otherwise than by these rules is not imported",
    ),
}
"""Options these rules do not play: noted, and a hand that uses one is refused."""


@dataclass(frozen=True)
class PtnHand:
    """One hand of the text: a record (a JSON-able dict), or why there is none."""

    number: int
    """Its place in the text, from 1."""
    record: dict[str, Any] | None
    error: PtnError | None
    """Why there is no record; its ``where`` is the line (``line 14``)."""
    annotations: tuple[EgnAnnotation, ...] = ()
    tags: tuple[tuple[str, str], ...] = ()
    """Every tag of the hand, as written, in order."""
    lines: tuple[dict[str, Any], ...] = ()
    raw: dict[str, Any] | None = None

    @property
    def message(self) -> str | None:
        return None if self.error is None else f"hand {self.number}, {self.error}"


@dataclass(frozen=True)
class PtnMatch:
    """The hands of a text, with what its first hand says of the game."""

    title: str
    date: str | None
    players: tuple[str, ...]
    """Names in seat order N, E, S, W (empty names where the text gives none)."""
    initial_score: tuple[int, int]
    """(NS, EW) before the first hand: its ``GameScores`` less what it scored."""
    final_score: tuple[int, int] | None
    """(NS, EW) after the last hand, from its ``GameScores``."""
    rules: dict[str, Any]
    deals: tuple[PtnHand, ...]
    notes: tuple[str, ...] = ()
    description: str = ""
    game_id: str = ""


def looks_like_ptn(text: str) -> bool:
    """Whether ``text`` reads as PTN (tag pairs with a ``[Deal]`` in PBN's ``S:`` form)
    rather than the site's own text notation, whose hands are tags of their own."""
    return (
        re.search(r'^\s*\[\s*Deal\s+"?\s*[NESW]\s*:', text, re.IGNORECASE | re.MULTILINE)
        is not None
    )


def read_ptn(text: str) -> PtnMatch:
    """Read every hand of a PTN text. Raise :class:`PtnError` when the text holds no hand
    at all; a hand that cannot be read does not stop the others (its ``error`` says why)."""
    blocks = _split(text)
    if not blocks:
        raise PtnError("", "no hand found: a PTN hand has a [Deal] tag")
    notes: list[str] = []
    hands = [_hand(block, n, notes) for n, block in enumerate(blocks, start=1)]
    first = blocks[0]
    initial, final = _scores(hands, blocks, notes)
    rules: dict[str, Any] = next((h.record["rules"] for h in hands if h.record), {})
    return PtnMatch(
        title=_value(first, "event"),
        date=_date(first),
        players=tuple(_value(first, seat.word.lower()) for seat in Seat),
        initial_score=initial,
        final_score=final,
        rules=rules,
        deals=tuple(hands),
        notes=tuple(dict.fromkeys(notes)),
    )


# -- the text, as tags and tokens ----------------------------------------------------------


@dataclass
class _Tag:
    name: str
    value: str
    line: int


@dataclass
class _Token:
    text: str
    line: int
    notes: list[str] = field(default_factory=list)


@dataclass
class _Block:
    """One hand of the text: its tags, its auction's tokens and its play's lines."""

    line: int
    tags: list[_Tag] = field(default_factory=list)
    auction: list[_Token] = field(default_factory=list)
    play: list[list[_Token]] = field(default_factory=list)
    before: list[str] = field(default_factory=list)
    """Commentary before any call or card."""

    def tag(self, name: str) -> _Tag | None:
        return next((t for t in self.tags if t.name.lower() == name), None)

    def all(self, name: str) -> list[_Tag]:
        return [t for t in self.tags if t.name.lower() == name]


def _split(text: str) -> list[_Block]:
    blocks: list[_Block] = []
    block: _Block | None = None
    section = ""
    comment: list[str] | None = None
    last: _Token | None = None

    def attach(note: str) -> None:
        note = " ".join(note.split())
        if not note:
            return
        if last is not None:
            last.notes.append(note)
        elif block is not None:
            block.before.append(note)

    for n, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip().lstrip("\ufeff")
        if comment is None:
            if not stripped or stripped.startswith("%"):
                continue
            if stripped.startswith("["):
                tag = _read_tag(stripped, n)
                name = tag.name.lower()
                if (
                    block is None
                    or (name == "event" and block.tags)
                    or (name not in _REPEATED and block.tag(name) is not None)
                ):
                    block = _Block(n)
                    blocks.append(block)
                block.tags.append(tag)
                section = name if name in ("auction", "play") else ""
                last = None
                continue
        i = 0
        while i < len(line):
            if comment is not None:
                end = line.find("}", i)
                if end < 0:
                    comment.append(line[i:])
                    break
                comment.append(line[i:end])
                attach(" ".join(comment))
                comment = None
                i = end + 1
                continue
            char = line[i]
            if char == "{":
                comment = []
                i += 1
            elif char == ";":
                attach(line[i + 1 :])
                break
            elif char.isspace():
                i += 1
            else:
                j = i
                while j < len(line) and not line[j].isspace() and line[j] not in "{;":
                    j += 1
                token = _Token(line[i:j], n)
                i = j
                if block is None or not section:
                    where = "" if block is None else " (after a tag that takes none)"
                    raise PtnError(
                        f"line {n}",
                        f"{shown(token.text)} is outside an [Auction] or a [Play]{where}",
                    )
                if section == "auction":
                    block.auction.append(token)
                else:
                    if not block.play or block.play[-1][0].line != n:
                        block.play.append([])
                    block.play[-1].append(token)
                last = token
    if comment is not None:
        raise PtnError("", "a comment opened with '{' is never closed with '}'")
    return [b for b in blocks if b.tag("deal") is not None or b.auction or b.play]


def _read_tag(text: str, n: int) -> _Tag:
    found = _TAG.match(text)
    if found is None:
        raise PtnError(f"line {n}", f'{shown(text)} is not a tag such as [Deal "…"]')
    name = found.group(1)
    rest = text[found.end() :]
    first, last = rest.find('"'), rest.rfind('"')
    if first >= 0 and last > first:
        # Between the first quote and the last, as Trickster reads it: its own files
        # sometimes leave the quotes inside the options' JSON unescaped.
        value = rest[first + 1 : last].replace('\\"', '"').replace("\\\\", "\\")
    elif first >= 0:
        raise PtnError(f"line {n}", f"[{name}]: the value's closing quote is missing")
    else:
        value = rest.split("]", 1)[0].strip()
    return _Tag(name, value, n)


def _value(block: _Block, name: str) -> str:
    tag = block.tag(name)
    return "" if tag is None else tag.value.strip()


def _date(block: _Block) -> str | None:
    day = _value(block, "utcdate") or _value(block, "date")
    if not re.fullmatch(r"\d{4}[.-]\d{2}[.-]\d{2}", day):
        return None
    text = day.replace(".", "-")
    clock = _value(block, "utctime") or _value(block, "time")
    if re.fullmatch(r"\d{2}:\d{2}(:\d{2})?", clock):
        text += "T" + clock + ("Z" if block.tag("utctime") is not None else "")
    return text


# -- one hand --------------------------------------------------------------------------------


def _hand(block: _Block, n: int, notes: list[str]) -> PtnHand:
    tags = tuple((t.name, t.value) for t in block.tags)
    try:
        record, annotations = _convert(block, notes)
    except PtnError as error:
        return PtnHand(n, None, error, tags=tags)
    return PtnHand(n, record, None, tuple(annotations), tags)


def _at(tag: _Tag | None, block: _Block) -> str:
    return f"line {tag.line if tag is not None else block.line}"


def _convert(block: _Block, notes: list[str]) -> tuple[dict[str, Any], list[EgnAnnotation]]:
    code = block.tag("gamecode")
    if code is not None and code.value.strip().lower() != "euchre":
        raise PtnError(_at(code, block), f"[GameCode]: {shown(code.value)} is not Euchre")
    rules, unplayed = _rules(block, notes)
    deal_tag = block.tag("deal")
    if deal_tag is None:
        raise PtnError(_at(None, block), "the hand has no [Deal]")
    side, hands = _deal(deal_tag)
    dealer_tag = block.tag("dealer")
    dealer = side if dealer_tag is None else _side(dealer_tag.value, dealer_tag, "[Dealer]")
    undealt_tag = block.tag("undealt")
    if undealt_tag is None:
        raise PtnError(_at(deal_tag, block), "no [Undealt]: its first card is the upcard")
    undealt = _cards(undealt_tag.value, undealt_tag, "[Undealt]")
    if len(undealt) != 4:
        raise PtnError(
            _at(undealt_tag, block),
            f"[Undealt]: {len(undealt)} cards; four are left undealt (the upcard first)",
        )
    _check_distinct(hands, undealt, deal_tag, undealt_tag)
    upcard = undealt[0]
    auction, call_notes, alone_token = _auction(block, dealer, upcard, unplayed)
    discard, farmer = _exchanges(
        block, dealer, upcard, undealt[1:], rules.get("farmers_hand") == "mixed"
    )
    _contract(block, auction)
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": rules,
        "dealer": dealer.value,
        "hands": {
            seat.value: [str(c) for c in cards] if cards is not None else [UNKNOWN] * 5
            for seat, cards in hands.items()
        },
        "upcard": str(upcard),
        "kitty": [str(c) for c in undealt[1:]],
        "farmer": farmer,
        "auction": auction,
        "discard": None if discard is None else str(discard),
        "play": [],
    }
    auction_tag = block.tag("auction")
    try:
        parsed = parse_record(record)
    except RecordError as error:
        raise PtnError(_at(auction_tag, block), f"{error}") from None
    if discard is None and parsed.state.phase is Phase.DISCARD and block.play:
        # The dealer picked up, and the play goes on: the discard was not shown.
        record["discard"] = UNKNOWN
        try:
            parsed = parse_record(record)
        except RecordError:
            raise PtnError(
                _at(auction_tag, block),
                f"the dealer ({dealer.word}) picks up, but no [CardsRemoved] gives the discard",
            ) from None
    plays, play_notes = _play(block, parsed.state.copy())
    record["play"] = [str(c) for c in plays]
    annotations = [EgnAnnotation("call", 0, None, note) for note in block.before]
    for index, token in call_notes:
        annotations.extend(_notes_of(token, "call", index))
    if alone_token is not None:
        annotations.extend(_notes_of(alone_token[1], "call", alone_token[0]))
    for index, token in play_notes:
        annotations.extend(_notes_of(token, "play", index))
    return record, annotations


def _notes_of(token: _Token, kind: Literal["call", "play"], index: int) -> list[EgnAnnotation]:
    _, label = _marked(token.text)
    out = [EgnAnnotation(kind, index, label, note) for note in token.notes]
    if label is not None and not out:
        out.append(EgnAnnotation(kind, index, label, ""))
    elif label is not None:
        out[0] = EgnAnnotation(kind, index, label, out[0].text)
    return out


def _marked(text: str) -> tuple[str, str | None]:
    """A token without its mark (``CA!`` is ``CA``), and the mark as an EGN label."""
    for mark in _MARKS:
        if text.endswith(mark) and len(text) > len(mark):
            return text[: -len(mark)], f"[{mark}]"
    return text, None


def _side(text: str, tag: _Tag, what: str) -> Seat:
    side = _SIDES.get(text.strip().upper())
    if side is None:
        raise PtnError(f"line {tag.line}", f"{what}: {shown(text)} is not a seat (N, E, S or W)")
    return side


def _rules(block: _Block, notes: list[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The record's rules from ``GameOptionsJson``, and the options on that these rules
    do not play (a hand that uses one is refused)."""
    rules: dict[str, Any] = {
        "stick_the_dealer": False,
        "defend_alone": False,
        "no_trump": False,
    }
    unplayed: dict[str, str] = {}
    tag = block.tag("gameoptionsjson")
    if tag is None:
        return rules, unplayed
    try:
        options = json_loads(tag.value)
    except json.JSONDecodeError as error:
        problem = f"[GameOptionsJson]: not valid JSON: {error.msg}"
        raise PtnError(f"line {tag.line}", problem) from None
    if not isinstance(options, dict):
        raise PtnError(f"line {tag.line}", "[GameOptionsJson]: expected a JSON object")
    where = f"line {tag.line}"
    options = cast(dict[str, Any], options)
    if options.get("variation") not in (0, None):
        # Checked first: the other options of another game say little about it.
        raise PtnError(
            where,
            f"variation {shown(options['variation'])} is Bid Euchre, not the game played here",
        )
    for key, value in options.items():
        if key in _RULE_OPTIONS:
            if not isinstance(value, bool):
                raise PtnError(where, f"[GameOptionsJson] {key}: expected true or false")
            rules[_RULE_OPTIONS[key]] = value
        elif key == "goUnder":
            if not isinstance(value, bool):
                raise PtnError(where, "[GameOptionsJson] goUnder: expected true or false")
            # Going under: three 9s and 10s swapped for the kitty, the mixed farmer's hand.
            rules["farmers_hand"] = "mixed" if value else "off"
        elif key == "gameOverScore":
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100:
                raise PtnError(
                    where, f"[GameOptionsJson] gameOverScore: {shown(value)} is not 1-100"
                )
            rules["target"] = value
        elif key == "players" and value not in (4, None):
            raise PtnError(where, f"{shown(value)} players: only four-handed Euchre is played here")
        elif key == "deckSize" and value not in (24, None):
            raise PtnError(
                where, f"a {shown(value)}-card deck: only the 24-card deck (9 up) is played here"
            )
        elif key == "numDecks" and value not in (1, None):
            raise PtnError(where, "two decks: only one 24-card deck is played here")
        elif key == "withJoker" and value:
            raise PtnError(where, "the Joker is not part of the 24-card game played here")
        elif key in _SCORING_OPTIONS:
            if value:
                what, then = _SCORING_OPTIONS[key]
                unplayed[key] = what
                notes.append(f"GameOptionsJson {key} ({what}) is not played here: {then}")
        elif key not in _QUIET_OPTIONS and key not in (
            "variation",
            "players",
            "deckSize",
            "numDecks",
            "withJoker",
        ):
            notes.append(f"GameOptionsJson {key}: not an option read here; ignored")
    return rules, unplayed


def _card(text: str, tag_line: int, what: str) -> Card:
    """A card suit first (``CA``, as PTN writes them) or rank first (``AC``)."""
    raw = text.strip().replace("10", "T")
    if len(raw) == 2 and raw[0].upper() in "SHDC♠♥♦♣" and raw[1].upper() in _RANKS:
        raw = raw[1] + raw[0]
    try:
        return parse_card(raw)
    except CardError:
        raise PtnError(
            f"line {tag_line}",
            f"{what}: {shown(text)} is not a card (a suit S H D C and a rank A K Q J T 9)",
        ) from None


def _cards(text: str, tag: _Tag, what: str) -> list[Card]:
    compact = text.replace(" ", "").replace(",", "")
    if len(compact) % 2:
        raise PtnError(f"line {tag.line}", f"{what}: {shown(text)} is not a list of cards")
    return [_card(compact[i : i + 2], tag.line, what) for i in range(0, len(compact), 2)]


def _deal(tag: _Tag) -> tuple[Seat, dict[Seat, list[Card] | None]]:
    where = f"line {tag.line}"
    head, sep, rest = tag.value.partition(":")
    if not sep:
        raise PtnError(where, f"[Deal]: {shown(tag.value)} does not start with its seat ('S:')")
    side = _side(head, tag, "[Deal]")
    parts = rest.split()
    if len(parts) != 4:
        raise PtnError(where, f"[Deal]: {len(parts)} hands; four-handed Euchre deals four")
    hands: dict[Seat, list[Card] | None] = {}
    seat = side
    for part in parts:
        if part == "-":
            hands[seat] = None
        else:
            suits = part.split(".")
            if len(suits) != 4:
                raise PtnError(
                    where,
                    f"[Deal]: {seat.word}'s hand {shown(part)} is not four suits "
                    "(spades.hearts.diamonds.clubs)",
                )
            cards = []
            for suit, ranks in zip(_SUIT_ORDER, suits, strict=True):
                for rank in ranks.upper().replace("10", "T"):
                    if rank not in _RANKS:
                        raise PtnError(
                            where, f"[Deal]: {shown(rank)} in {seat.word}'s hand is not a rank"
                        )
                    cards.append(parse_card(rank + suit.value))
            if len(cards) != 5:
                raise PtnError(
                    where,
                    f"[Deal]: {seat.word} is dealt {len(cards)} cards ({part}); five are dealt",
                )
            hands[seat] = cards
        seat = seat.next
    return side, {seat: hands[seat] for seat in Seat}


def _check_distinct(
    hands: dict[Seat, list[Card] | None], undealt: list[Card], deal: _Tag, undealt_tag: _Tag
) -> None:
    seen: dict[Card, str] = {}
    for seat, cards in hands.items():
        for card in cards or []:
            if card in seen:
                raise PtnError(
                    f"line {deal.line}", f"[Deal]: {card} is dealt to {seen[card]} and {seat.word}"
                )
            seen[card] = seat.word
    for card in undealt:
        if card in seen:
            raise PtnError(
                f"line {undealt_tag.line}", f"[Undealt]: {card} is also dealt to {seen[card]}"
            )
        seen[card] = "the undealt cards"


def _strain(text: str) -> Strain | None:
    if text.upper() in ("NT", "N", "NOTRUMP", "NOTRUMPS"):
        return NT
    try:
        return parse_suit(text)
    except CardError:
        return None


def _auction(
    block: _Block, dealer: Seat, upcard: Card, unplayed: dict[str, str]
) -> tuple[list[dict[str, Any]], list[tuple[int, _Token]], tuple[int, _Token] | None]:
    """The record's calls, each token with its index in them (for its notes)."""
    tag = block.tag("auction")
    if tag is None:
        raise PtnError(_at(block.tag("deal"), block), "the hand has no [Auction]")
    first = _side(tag.value, tag, "[Auction]")
    if first is not dealer.next:
        raise PtnError(
            f"line {tag.line}",
            f"[Auction]: {first.word} bids first, but the dealer ({dealer.word}) has "
            f"{dealer.next.word} on the left, who bids first",
        )
    calls: list[dict[str, Any]] = []
    noted: list[tuple[int, _Token]] = []
    alone_note: tuple[int, _Token] | None = None
    made = False
    position = -1
    for token in block.auction:
        text, _ = _marked(token.text)
        word = text.lower().replace("-", "").replace("_", "")
        where = f"line {token.line}"
        if word == "alone":
            last = calls[-1] if calls else None
            if last is None or last["call"] not in ("order_up", "name"):
                raise PtnError(where, "'alone' follows no suit called")
            last["alone"] = True
            alone_note = (len(calls) - 1, token)
            continue
        position += 1
        seat = _seat_at(first, position)
        if text == "-":
            continue
        if word in ("defend", "defendalone"):
            if not made:
                raise PtnError(where, f"{seat.word} defends alone before trump is made")
            calls.append({"seat": seat.value, "call": "defend_alone"})
            noted.append((len(calls) - 1, token))
            continue
        if word in ("pass", "p"):
            if not made:
                calls.append({"seat": seat.value, "call": "pass"})
                noted.append((len(calls) - 1, token))
            continue
        alone = word.endswith("alone")
        strain = _strain(text[: -len("alone")].strip() if alone else text)
        if strain is None:
            raise PtnError(
                where,
                f"{shown(token.text)} is not a call (Pass, a suit ♠ ♥ ♦ ♣ or NT with 'alone' "
                "after it for a lone hand, Defend, or '-' for no call)",
            )
        if made:
            raise PtnError(where, f"{seat.word} calls {shown(token.text)} after trump was made")
        first_round = len(calls) < 4
        if first_round:
            if strain != upcard.suit:
                raise PtnError(
                    where,
                    f"{seat.word} calls {shown(token.text)} in the first round, but the "
                    f"upcard is {upcard}: only its suit may be ordered up",
                )
            calls.append({"seat": seat.value, "call": "order_up", "alone": alone})
        else:
            calls.append({"seat": seat.value, "call": "name", "suit": str(strain), "alone": alone})
        noted.append((len(calls) - 1, token))
        made = True
    if (
        any(c["call"] in ("order_up", "name") and c.get("alone") for c in calls)
        and "aloneTake5" in unplayed
    ):
        raise PtnError(
            f"line {tag.line}",
            "a lone hand under 'alone must take 5' (aloneTake5), which these rules do not score",
        )
    return calls, noted, alone_note


def _seat_at(first: Seat, position: int) -> Seat:
    seat = first
    for _ in range(position % 4):
        seat = seat.next
    return seat


def _exchanges(
    block: _Block, dealer: Seat, upcard: Card, kitty: list[Card], going_under: bool
) -> tuple[Card | None, dict[str, Any] | None]:
    """The dealer's discard, and a player going under, from ``CardsAdded`` and
    ``CardsRemoved``: the dealer picks up the upcard and discards one card; a player going
    under takes the kitty for three of its cards, which is the record's farmer's hand
    (each a 9 or a 10: its mixed form)."""
    passed = block.tag("cardspassed")
    if passed is not None:
        raise PtnError(
            f"line {passed.line}",
            "[CardsPassed]: partners pass each other cards (calling for partner's best), "
            "which these rules do not play",
        )
    added: dict[Seat, list[tuple[list[Card], _Tag]]] = {}
    removed: dict[Seat, list[tuple[list[Card], _Tag]]] = {}
    for tag in block.tags:
        name = tag.name.lower()
        if name not in ("cardsadded", "cardsremoved"):
            continue
        what = "[CardsAdded]" if name == "cardsadded" else "[CardsRemoved]"
        head, sep, rest = tag.value.partition(":")
        if not sep:
            raise PtnError(
                f"line {tag.line}", f"{what}: {shown(tag.value)} does not start with its seat"
            )
        seat = _side(head, tag, what)
        (added if name == "cardsadded" else removed).setdefault(seat, []).append(
            (_cards(rest, tag, what), tag)
        )
    discard: Card | None = None
    farmer: dict[str, Any] | None = None
    for seat, takes in added.items():
        gives = removed.get(seat, [])
        for k, (cards, tag) in enumerate(takes):
            where = f"line {tag.line}"
            gave = gives[k][0] if k < len(gives) else []
            if cards == [upcard] and seat is dealer:
                if len(gave) != 1:
                    raise PtnError(
                        where, "[CardsRemoved]: the dealer who picks up discards one card"
                    )
                discard = gave[0]
            elif len(cards) == 3 and set(cards) == set(kitty):
                if not going_under:
                    raise PtnError(
                        where,
                        f"[CardsAdded]: {seat.word} takes the kitty (going under), but the "
                        "options do not allow it (goUnder)",
                    )
                if len(gave) != 3:
                    raise PtnError(
                        where, f"[CardsRemoved]: {seat.word} goes under with three cards"
                    )
                farmer = {"seat": seat.value, "cards": [str(c) for c in gave]}
            else:
                shown_cards = " ".join(map(str, cards))
                raise PtnError(
                    where,
                    f"[CardsAdded]: {seat.word} takes {shown_cards}, neither the upcard "
                    f"({upcard}, which only the dealer picks up) nor the kitty",
                )
    return discard, farmer


def _contract(block: _Block, auction: list[dict[str, Any]]) -> None:
    """``[Declarer]`` and ``[Contract]`` agree with the auction, where they are given."""
    maker = next((c for c in auction if c["call"] in ("order_up", "name")), None)
    declarer = block.tag("declarer")
    if declarer is not None and declarer.value.strip() and maker is not None:
        seat = _side(declarer.value, declarer, "[Declarer]")
        if seat.value != maker["seat"]:
            raise PtnError(
                f"line {declarer.line}",
                f"[Declarer] is {seat.word}, but the auction's maker is "
                f"{_SIDES[maker['seat']].word}",
            )
    contract = block.tag("contract")
    if contract is not None and contract.value.strip() and maker is not None:
        text = contract.value.strip()
        alone = text.lower().replace(" ", "").endswith("alone")
        strain = _strain(text[: -len("alone")].strip() if alone else text)
        if bool(maker.get("alone")) != alone:
            raise PtnError(
                f"line {contract.line}",
                f"[Contract] {shown(text)} {'is' if alone else 'is not'} alone, but the maker's "
                f"call {'is not' if alone else 'is'}",
            )
        made = maker.get("suit")
        if strain is not None and made is not None and str(strain) != made:
            raise PtnError(
                f"line {contract.line}",
                f"[Contract] {shown(text)} does not name the suit the auction made ({made})",
            )


def _play(block: _Block, state: Any) -> tuple[list[Card], list[tuple[int, _Token]]]:
    """The cards in the order played, read column by column from the play's lines."""
    tag = block.tag("play")
    if tag is None or not block.play:
        return [], []
    side = _side(tag.value, tag, "[Play]")
    while state.phase is Phase.DEFEND:
        state.apply(PASS)  # no defender went alone
    if state.phase is not Phase.PLAY:
        raise PtnError(f"line {tag.line}", "[Play]: cards are played, but no one made trump")
    if state.current_seat is not side:
        raise PtnError(
            f"line {tag.line}",
            f"[Play]: {side.word} leads the first trick, but by these rules "
            f"{state.current_seat.word} does",
        )
    columns = {}
    seat = side
    for k in range(4):
        columns[seat] = k
        seat = seat.next
    plays: list[Card] = []
    noted: list[tuple[int, _Token]] = []
    for t, tokens in enumerate(block.play, start=1):
        where = f"line {tokens[0].line}"
        if state.phase is not Phase.PLAY:
            raise PtnError(where, f"trick {t}: the hand is over after five tricks")
        if len(tokens) > 4:
            raise PtnError(where, f"trick {t}: {len(tokens)} columns; a trick has one a seat")
        row = [*tokens, *[None] * (4 - len(tokens))]
        for seat in Seat:
            token = row[columns[seat]]
            if state.sits_out(seat) and token is not None and _marked(token.text)[0] != "-":
                raise PtnError(
                    where, f"trick {t}: {seat.word} sits out this hand, but plays {token.text}"
                )
        last = t == len(block.play)
        for _ in state.active_seats:
            seat = state.current_seat
            token = row[columns[seat]]
            text = None if token is None else _marked(token.text)[0]
            if text is None or text == "-":
                if last:
                    break
                raise PtnError(where, f"trick {t}: {seat.word} plays no card")
            assert token is not None
            card = _card(text, token.line, f"trick {t}")
            try:
                state.apply(Play(card))
            except IllegalActionError as error:
                raise PtnError(where, f"trick {t}: {error}") from None
            plays.append(card)
            noted.append((len(plays) - 1, token))
    return plays, noted


# -- the score ---------------------------------------------------------------------------------


def _game_scores(block: _Block, notes: list[str]) -> tuple[int, int] | None:
    tag = block.tag("gamescores")
    if tag is None:
        return None
    head, sep, rest = tag.value.partition(":")
    side = _SIDES.get(head.strip().upper())
    numbers = rest.split()
    if (
        not sep
        or side is None
        or len(numbers) != 4
        or not all(re.fullmatch(r"-?\d+", x) for x in numbers)
    ):
        notes.append(f"line {tag.line}: [GameScores] {shown(tag.value)} is not read")
        return None
    by_seat: dict[Seat, int] = {}
    seat = side
    for number in numbers:
        by_seat[seat] = int(number)
        seat = seat.next
    if by_seat[Seat.N] != by_seat[Seat.S] or by_seat[Seat.E] != by_seat[Seat.W]:
        notes.append(
            f"line {tag.line}: [GameScores] gives partners different scores; "
            "North's and East's are used"
        )
    return by_seat[Seat.N], by_seat[Seat.E]


def _scores(
    hands: Sequence[PtnHand], blocks: Sequence[_Block], notes: list[str]
) -> tuple[tuple[int, int], tuple[int, int] | None]:
    """The score before the first hand and after the last, from their ``GameScores``."""
    final = _game_scores(blocks[-1], notes)
    after_first = _game_scores(blocks[0], notes) if len(blocks) > 1 else final
    first = hands[0]
    if after_first is None:
        return (0, 0), final
    points = None
    if first.record is not None:
        try:
            points = parse_record(first.record).state.result().points
        except RecordError:
            points = None
    if points is None:
        notes.append("the score before the first hand is not known: that hand has no result here")
        return (0, 0), final
    return (after_first[0] - points[Team.NS], after_first[1] - points[Team.EW]), final
