"""The standard policy and what a seat observes: pure Python, below the solver and the bots."""

# A compiled module is imported only while its sources are as they were built.
from games.engine import compiled

compiled.install(__name__)
