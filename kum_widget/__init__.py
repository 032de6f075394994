"""kum_widget: Kings Under Mountains in Jupyter.

>>> import kum_widget as kum
>>> game = kum.Game(["Ada", "Bo"], seed=1)
>>> game.current_player
0

The widget (``kum.GameWidget``) and the simulation lab load their heavy
dependencies only when first used, so ``import kum_widget`` stays light.
"""

from .engine import *  # noqa: F403
from .engine import __all__ as _engine_all

__version__ = "0.1.0"
__all__ = [*_engine_all, "__version__"]
