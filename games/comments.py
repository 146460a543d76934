"""Comments on the decisions of a hand: who may read and post them, and who is told.

The hand's owner and their teachers (``User.objects.teachers_of``) may; the page checks
that through ``games.access.HandAccess.can_comment``. A teacher's comment notifies the
owner; the owner's comment notifies the teachers who have commented on the hand.

A comment travels in the EGN export as an annotation (``games.exports``), so it keeps to
EGN's limits: its text with the ``Comment by <name>: `` put before it at most 1,024
characters (and at most :data:`~games.models.COMMENT_LENGTH`), and at most
:data:`COMMENTS_PER_STEP` on one decision, leaving room for the review's mark among EGN's
50 strings on one call or card.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.engine.egn_limits import STRINGS_PER_POSITION, TEXT_LENGTH
from games.engine.hand import Discard
from games.engine.record import parse_record
from notifications.models import Notification

from .exports import comment_prefix
from .models import COMMENT_LENGTH, Hand, HandComment
from .text import control_characters, describe

EXCERPT = 80

COMMENTS_PER_STEP = STRINGS_PER_POSITION - 1
"""Comments on one decision: with the review's mark, EGN's 50 strings on a call or card."""


class CommentError(ValueError):
    """A comment that cannot be posted; the message is meant for the user."""


def comment_url(hand: Hand, step: int) -> str:
    """The replay page at the step commented on, scrolled to its comments."""
    return f"{reverse('games:hand_review', args=[hand.pk])}?step={step}#comments"


def post_comment(hand: Hand, author: User, step: int, text: str, *, steps: int) -> HandComment:
    """Post ``author``'s comment on decision ``step`` of ``hand`` (which has ``steps``
    decisions) and notify whom it concerns. The caller has checked that ``author`` may
    comment (``HandAccess.can_comment``)."""
    text = _checked_text(text, hand, author, step)
    if not 0 <= step < steps:
        raise CommentError(f"This hand's decisions are steps 0 to {steps - 1}, not {step}.")
    with transaction.atomic():
        # One comment at a time on a hand, so that two at once cannot pass the count.
        Hand.objects.select_for_update().filter(pk=hand.pk).first()
        if HandComment.objects.filter(hand=hand, step=step).count() >= COMMENTS_PER_STEP:
            raise CommentError(
                f"This decision has {COMMENTS_PER_STEP} comments, the most it can have: an "
                "EGN file holds 50 notes on one call or card, the review's mark among them. "
                "Edit one of the comments instead."
            )
        comment = HandComment.objects.create(hand=hand, author=author, step=step, text=text)
        _notify(comment)
    return comment


def comment_limit(hand: Hand, author: User, step: int) -> tuple[int, str]:
    """The most characters `author`'s comment on decision `step` may have, and the prefix
    the EGN export puts before it: EGN's 1,024 characters an annotation less the prefix,
    and never more than :data:`~games.models.COMMENT_LENGTH`."""
    history = parse_record(hand.record).state.history
    on_discard = 0 <= step < len(history) and isinstance(history[step][1], Discard)
    prefix = comment_prefix(author.username, on_discard=on_discard)
    return min(COMMENT_LENGTH, TEXT_LENGTH - len(prefix)), prefix


def _checked_text(text: str, hand: Hand, author: User, step: int) -> str:
    text = text.strip()
    if not text:
        raise CommentError("Write a comment first.")
    found = control_characters(text, multiline=True)
    if found:
        raise CommentError(
            f"A comment cannot hold control characters ({describe(found)}): remove them."
        )
    limit, prefix = comment_limit(hand, author, step)
    if len(text) > limit and limit == COMMENT_LENGTH:
        raise CommentError(
            f"A comment has at most {COMMENT_LENGTH} characters (this one has {len(text)})."
        )
    if len(text) > limit:
        raise CommentError(
            f"A comment of yours here has at most {limit} characters (this one has "
            f"{len(text)}): with “{prefix.strip()}” before it, it must fit the 1,024 "
            "characters of an EGN annotation."
        )
    return text


def _notify(comment: HandComment) -> None:
    hand, author = comment.hand, comment.author
    excerpt = comment.text if len(comment.text) <= EXCERPT else comment.text[: EXCERPT - 1] + "…"
    url = comment_url(hand, comment.step)
    if author.pk == hand.owner_id:
        # The student answers: the teachers who commented on the hand (and teach them
        # still) are told.
        recipients = list(
            User.objects.teachers_of(hand.owner).filter(
                pk__in=HandComment.objects.filter(hand=hand).values("author")
            )
        )
        text = f"{author.username} answered on “{hand}”, step {comment.step}: {excerpt}"
    else:
        recipients = [hand.owner]
        text = f"{author.username} commented on your hand “{hand}”, step {comment.step}: {excerpt}"
    Notification.objects.notify(recipients, text, url)


def edit_comment(hand: Hand, author: User, comment_id: int, text: str) -> HandComment:
    """Change the text of ``author``'s own comment ``comment_id`` on ``hand`` and mark it
    edited; a comment by anyone else (or on another hand) is not found. Nobody is notified
    again: the comment keeps its place and its notification still leads to it. Raise
    :class:`CommentError` for a text that cannot be posted, changing nothing."""
    comment = HandComment.objects.filter(hand=hand, author=author, pk=comment_id).first()
    if comment is None:
        raise HandComment.DoesNotExist
    text = _checked_text(text, hand, author, comment.step)
    if text != comment.text:
        comment.text = text
        comment.edited = timezone.now()
        comment.save(update_fields=["text", "edited"])
    return comment


def delete_comment(hand: Hand, author: User, comment_id: int) -> HandComment:
    """Delete ``author``'s own comment ``comment_id`` on ``hand``; a comment by anyone else
    (or on another hand) is not found. Returns the deleted comment (its step says where)."""
    comment = HandComment.objects.filter(hand=hand, author=author, pk=comment_id).first()
    if comment is None:
        raise HandComment.DoesNotExist
    comment.delete()
    return comment
