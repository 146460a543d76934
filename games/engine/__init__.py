# A compiled module is imported only while its sources are as they were built (compiled.py).
from games.engine import compiled

compiled.install(__name__)
