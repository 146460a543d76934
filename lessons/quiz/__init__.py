"""Quiz questions, generated from a seed: pure Python, no Django.

``skills.generate(skill, seed, level)`` makes a :class:`~lessons.quiz.question.Question`;
``grading.grade(question, answer)`` marks an answer. The answers of the rules questions are
computed by the engine, those of the bidding and card questions by the solver's foresight.
"""

# A compiled module is imported only while its sources are as they were built.
from games.engine import compiled

compiled.install(__name__)
