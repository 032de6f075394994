import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="kum_widget in marimo")


@app.cell
def _():
    import marimo as mo

    import kum_widget as kum

    return kum, mo


@app.cell
def _(mo):
    mo.md(r"""
    # Kings Under Mountains and the court solitaire, in marimo

    `marimo run notebooks/play_marimo.py` serves this page; `marimo edit notebooks/play_marimo.py`
    opens it for changing. The boards are the same `kum.GameWidget` as in Jupyter, wrapped by
    `mo.ui.anywidget`. The cell under each board reads its game from Python and runs again
    at every change: the board sets a `mo.state` when the game moves.

    **Play a turn:** click a card in your hand (the playable ones are outlined), then one of
    the mines that light up; then click the deck or a Camp pile to draw. The greedy bot
    answers at once (here its moves are not paused: marimo shows a change when the click
    that caused it is done).
    """)
    return


@app.cell
def _(kum, mo):
    get_kum_moves, set_kum_moves = mo.state(0)
    kum_board = kum.GameWidget(bots={1: "greedy"}, seed=42, bot_delay=0)
    kum_board.observe(lambda change: set_kum_moves(change["new"]), names="state_id")
    mo.ui.anywidget(kum_board)
    return get_kum_moves, kum_board


@app.cell
def _(get_kum_moves, kum_board, mo):
    get_kum_moves()  # this cell runs again whenever the board's game changes
    _game = kum_board.game
    _scores = ", ".join(f"{name} {score}" for name, score in zip(_game.players, _game.scores(), strict=True))
    _turn = "game over" if _game.is_over else f"{_game.players[_game.current_player]} to {_game.phase}"
    _n = _game.move_number
    mo.md(f"From Python: **{_n} action{'' if _n == 1 else 's'}** played; scores {_scores}; {_turn}.")
    return


@app.cell
def _(mo):
    mo.md(r"""
    ## The court of the three clans

    A solitaire: buy court cards from the Society Row (click a card, then a space of your
    Royal Court), fight the Daemon Princes, or pass.
    """)
    return


@app.cell
def _(kum, mo):
    get_court_moves, set_court_moves = mo.state(0)
    court_board = kum.GameWidget(kum.Court(seed=7))
    court_board.observe(lambda change: set_court_moves(change["new"]), names="state_id")
    mo.ui.anywidget(court_board)
    return court_board, get_court_moves


@app.cell
def _(court_board, get_court_moves, mo):
    get_court_moves()
    _court = court_board.game
    mo.md(
        f"From Python: **{_court.move_number} action{'' if _court.move_number == 1 else 's'}** played; "
        f"turn {_court.turn}, phase {_court.phase}; "
        f"{_court.cp} CP; score so far {_court.scores()[0]:g} ({_court.rank()})."
    )
    return


@app.cell
def _(mo):
    mo.md(r"""
    To send a game, click **Save replay** on its board, or from a cell:
    `kum.save_replay(kum_board.game, "game.html")`: one HTML file that replays it offline.
    """)
    return


if __name__ == "__main__":
    app.run()
