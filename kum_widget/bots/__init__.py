"""Bots: they see only their seat's view (``game.view(seat)``) and the legal actions."""

from .base import BOT_NAMES, Bot, RandomBot, bot_move, make_bot
from .greedy import GreedyBot
from .ismcts import ISMCTSBot

__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "ISMCTSBot", "RandomBot", "bot_move", "make_bot"]
