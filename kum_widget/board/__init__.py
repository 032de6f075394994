"""The board: ``GameWidget`` (an anywidget), and what it leaves where no kernel runs (a
picture, a text board, replay files). It draws any game on the core through public
``Session`` methods only, and names no game.

- ``widget``: ``GameWidget``, the traits synced with the page (the only module that
  imports anywidget).
- ``seats``: who sits where, whose view the board shows, the pass screen (``Seats``).
- ``dealing``: checking a board's game, bots and options; dealing its first and next game.
- ``router``: the page's messages, each checked before anything changes, each answered.
- ``bot_driver``: when the bots move and which move (``BotDriver``), a slice at a time.
- ``drawing``: what the page is sent, built from one viewer's frame (``Viewer``, ``drawn_frame``).
- ``insight``: why a part takes no move, what a bot weighed, the bots' pace; ``thoughts``:
  what a bot weighed, in words.
- ``text``: the board as text; ``replay``: the game as one HTML file, and the board's picture.

Nothing is imported here, so ``kum_widget.board.replay`` loads without anywidget.
"""
