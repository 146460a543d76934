"""The standard policy and what a seat observes: pure Python, below the solver and the bots."""
