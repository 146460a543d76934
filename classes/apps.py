from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save, pre_save

from games.signals import play_link_opened


class ClassesConfig(AppConfig):
    name = "classes"

    def ready(self) -> None:
        from . import signals
        from .models import Classroom, Membership

        post_save.connect(signals.membership_changed, sender=Membership)
        post_delete.connect(signals.membership_changed, sender=Membership)
        pre_save.connect(signals.classroom_saving, sender=Classroom)
        post_save.connect(signals.classroom_saved, sender=Classroom)
        play_link_opened.connect(signals.assignment_of_play_link)
