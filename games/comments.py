"""Comments on the decisions of a hand: who may read and post them, and who is told.

The hand's owner and their teachers (``User.objects.teachers_of``) may; the page checks
that through ``games.access.HandAccess.can_comment``. A teacher's comment notifies the
owner; the owner's comment notifies the teachers who have commented on the hand.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from notifications.models import Notification

from .models import COMMENT_LENGTH, Hand, HandComment
from .text import control_characters, describe

EXCERPT = 80


class CommentError(ValueError):
    """A comment that cannot be posted; the message is meant for the user."""


def comment_url(hand: Hand, step: int) -> str:
    """The replay page at the step commented on, scrolled to its comments."""
    return f"{reverse('games:hand_review', args=[hand.pk])}?step={step}#comments"


def post_comment(hand: Hand, author: User, step: int, text: str, *, steps: int) -> HandComment:
    """Post ``author``'s comment on decision ``step`` of ``hand`` (which has ``steps``
    decisions) and notify whom it concerns. The caller has checked that ``author`` may
    comment (``HandAccess.can_comment``)."""
    text = _checked_text(text)
    if not 0 <= step < steps:
        raise CommentError(f"This hand's decisions are steps 0 to {steps - 1}, not {step}.")
    with transaction.atomic():
        comment = HandComment.objects.create(hand=hand, author=author, step=step, text=text)
        _notify(comment)
    return comment


def _checked_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise CommentError("Write a comment first.")
    found = control_characters(text, multiline=True)
    if found:
        raise CommentError(
            f"A comment cannot hold control characters ({describe(found)}): remove them."
        )
    if len(text) > COMMENT_LENGTH:
        raise CommentError(
            f"A comment has at most {COMMENT_LENGTH} characters (this one has {len(text)})."
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
    text = _checked_text(text)
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
