from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from analysis.signals import review_finished

        from .models import Hand, count_mistakes_of_reviewed_hands, forget_analysis_of_deleted_hand

        review_finished.connect(count_mistakes_of_reviewed_hands, dispatch_uid="games.mistakes")
        post_delete.connect(
            forget_analysis_of_deleted_hand, sender=Hand, dispatch_uid="games.forget_analysis"
        )
