# A compiled module is imported only while its sources are as they were built.
from games.engine import compiled

compiled.install(__name__)
