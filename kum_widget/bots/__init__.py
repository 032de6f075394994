"""Bots: they see only their seat's view (``game.view(seat)``) and the legal actions."""

from .analysis import Analysis, analyse
from .base import BOT_NAMES, Bot, RandomBot, bot_move, make_bot
from .bot import Thoughts, Weighed
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .restricted import RestrictedBot

__all__ = ["BOT_NAMES", "Analysis", "Bot", "GreedyBot", "ISMCTSBot", "RandomBot", "RestrictedBot", "Thoughts", "Weighed", "analyse", "bot_move", "make_bot"]
