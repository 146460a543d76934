from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from analysis.signals import review_finished

        from .models import count_mistakes_of_reviewed_hands

        review_finished.connect(count_mistakes_of_reviewed_hands, dispatch_uid="games.mistakes")
