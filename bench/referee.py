"""The referee's round trip: from a seat's act to every client at its table holding the new frame.

    make bench-referee [REFEREE_ARGS=...]     # about a minute at the defaults
    .venv/bin/python bench/referee.py [--tables 7] [--rounds 3] [--seed 1] [--moves N] [--think S]
                                      [--runs people bots] [--bots 1=random,3=greedy] [--no-deflate] [--profile]

Each round starts a real referee process (``python -m kum_widget.serve`` on 127.0.0.1, port 0,
its folder a temporary one) with a class file written here: ``--tables`` tables of Kings Under
Mountains for 4, each with its own seed. A second process (this script again, so the referee
and the clients never share an interpreter) opens one raw ``websockets`` connection per
person's seat, says hello with the seat's code and ``kum_widget.core.VERSION``, and plays every
table to the end at once: the seat to act sends ``act`` with an action id from its latest frame
(a seeded random choice) and that frame's state id as soon as every client of its table holds
that frame (``--think`` seconds later, if given). The clients of a table share that process's
one clock: a round trip is from sending the act to the moment the last of the table's clients
has received and decoded its first frame with a later state. No connection sends faster than
``RATE`` messages a second on average, ``BURST`` at once (just under the referee's flood limit
of 20 and 40); the acts that waited for it are counted and printed (none at the defaults: a
seat acts about 45 times a game).

Two arrangements, taking turns round by round: ``people``, every seat a person (28 clients at
7 tables); and ``bots``, the seats of ``--bots`` played by the referee's bots in its worker
process (by default a random bot at seat 1 and a greedy bot at seat 3 of every table: 14
clients), the round trip measured for the people's acts; a bot's move is timed apart, from its
turn's frame to its move's frame at the table's first client (a round's first starts the worker).

For each round it prints a line; then for each arrangement, its rounds pooled: the acts, the
median, the 95th percentile with a 95% interval (the order-statistic interval, distribution-free,
counting the acts as independent draws, which they are not quite: the tables share one
referee; the rounds' own p95s show the spread between runs), the 99th percentile and the
maximum, in ms; whether the goal (p95 under 50 ms) holds by that interval; the CPU time an act
of the referee (with its bots' worker) and of the clients' process, and the share of the
machine's cores other processes used meanwhile (Linux's /proc). Then one JSON line.
``--no-deflate``: the clients decline websockets' compression, which ``SeatClient`` accepts.
``--profile`` runs the referee under cProfile (``python -m cProfile``: nothing in the product
changes; it about doubles the referee's time) and prints its costliest functions; the
profiles are kept in build/bench-referee/. It asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import os
import platform
import queue
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAME = "kings-under-mountains"
SEATS = 4
GOAL_MS = 50.0
DEADLINE = 60.0  # seconds for the referee to start or stop, a hello, or one exchange, on a loaded machine
RUN_DEADLINE = 900.0  # seconds for a whole run of the clients
RATE, BURST = 18.0, 36  # a connection's messages a second on average, and at once: under the referee's 20 and 40
DEFAULT_BOTS = "1=random,3=greedy"


class Stop(Exception):
    """The bench cannot go on: what went wrong, in the one line it prints."""


# -- the figures ------------------------------------------------------------------------------

def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (0 <= q <= 1), linear between the order statistics."""
    s = sorted(xs)
    at = q * (len(s) - 1)
    low = math.floor(at)
    high = min(low + 1, len(s) - 1)
    return s[low] + (s[high] - s[low]) * (at - low)


def quantile_interval(xs: list[float], q: float, level: float = 0.95) -> tuple[float | None, float | None]:
    """A distribution-free ``level`` interval of the ``q`` quantile of independent draws ``xs``:
    order statistics X(l) and X(u) with P(l <= Binomial(n, q) < u) >= level. None at an end
    that needs more draws than there are (a short run's upper end of a high quantile)."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return None, None
    tail = (1 - level) / 2
    pmf = [math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(q) + (n - k) * math.log1p(-q))
           for k in range(n + 1)]
    cdf = []
    total = 0.0
    for p in pmf:
        total += p
        cdf.append(total)
    below = [k for k in range(1, n + 1) if cdf[k - 1] <= tail]  # P(B <= l - 1) <= tail
    above = [k for k in range(1, n + 1) if cdf[k - 1] >= 1 - tail]  # P(B <= u - 1) >= 1 - tail
    low = s[max(below) - 1] if below else None
    high = s[min(above) - 1] if above else None
    return low, high


@dataclass(frozen=True)
class Figures:
    """The round trips of one run, in ms, and what they say."""

    count: int
    median: float
    p95: float
    p95_low: float | None
    p95_high: float | None
    p99: float
    max: float

    @classmethod
    def of(cls, ms: list[float]) -> Figures:
        low, high = quantile_interval(ms, 0.95)
        return cls(len(ms), percentile(ms, 0.5), percentile(ms, 0.95), low, high, percentile(ms, 0.99), max(ms))

    def interval(self) -> str:
        low = "-" if self.p95_low is None else f"{self.p95_low:.1f}"
        high = "above the max" if self.p95_high is None else f"{self.p95_high:.1f}"
        return f"[{low}, {high}]"

    def holds(self) -> bool:
        """Whether p95 < GOAL_MS holds by its interval (its upper end below)."""
        return self.p95_high is not None and self.p95_high < GOAL_MS

    def verdict(self) -> str:
        """Whether p95 < GOAL_MS holds by its interval."""
        if self.p95_high is not None and self.p95_high < GOAL_MS:
            return f"yes: p95 < {GOAL_MS:.0f} ms holds (its interval's upper end is {self.p95_high:.1f} ms)"
        if self.p95_low is not None and self.p95_low >= GOAL_MS:
            return f"NO: p95 < {GOAL_MS:.0f} ms misses (its interval's lower end is {self.p95_low:.1f} ms)"
        if self.p95_high is None:
            return "undecided: too few acts for the p95's interval to have an upper end (play more acts)"
        return f"undecided: the p95's interval {self.interval()} ms contains {GOAL_MS:.0f} ms (play more rounds)"


# -- the referee, a real process --------------------------------------------------------------

def class_file(tables: int, seed: int, bots: dict[int, str]) -> str:
    """A class of ``tables`` tables of Kings Under Mountains for 4, seeded, with ``bots`` at each."""
    out = []
    for i in range(1, tables + 1):
        out.append(f'[[table]]\nname = "table {i}"\ngame = "{GAME}"\nplayers = {SEATS}\nseed = {seed * 1000 + i}\n')
        if bots:
            out.append("bots = { " + ", ".join(f'{seat} = "{bot}"' for seat, bot in sorted(bots.items())) + " }\n")
        out.append("\n")
    return "".join(out)


@dataclass
class RefereeProcess:
    """A running referee: its url, the seats' codes by table, its process and output."""

    url: str
    codes: dict[str, dict[int, str]]
    process: subprocess.Popen[str]
    output: list[str] = field(default_factory=list)

    def cpu_seconds(self) -> float | None:
        """Its CPU time so far and its children's (the bots' worker), user and system, from
        Linux's /proc; None where there is none."""
        try:
            stats = {}
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit():
                    try:
                        fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    except OSError:
                        continue  # a process that ended meanwhile
                    stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
        except OSError:
            return None
        tree, ticks = {self.process.pid}, 0
        for _ in range(4):  # the referee, its workers, theirs
            tree |= {pid for pid, (parent, _) in stats.items() if parent in tree}
        ticks = sum(stats[pid][1] for pid in tree if pid in stats)
        return ticks / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds() -> float:
    """The CPU time of this process's children that ended (the clients' processes)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def machine_cpu_seconds() -> float | None:
    """The CPU time every core has spent busy since the machine started (Linux's /proc/stat)."""
    try:
        user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in Path("/proc/stat").read_text().split()[1:9])
    except (OSError, ValueError):
        return None
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


@contextmanager
def referee(folder: Path, classfile: str, *, profile: Path | None = None, code: Path | None = None) -> Iterator[RefereeProcess]:
    """``kum-widget serve`` on 127.0.0.1, port 0, for ``classfile``; stopped by SIGTERM at the end
    (under cProfile, writing ``profile``, when given; ``code``: the folder holding another
    revision's ``kum_widget`` to run instead of this tree's)."""
    (folder / "class.toml").write_text(classfile)
    codes = folder / "private" / "codes.txt"
    codes.parent.mkdir()
    run = ["-m", "cProfile", "-o", str(profile)] if profile is not None else []
    env = {**os.environ, "XDG_STATE_HOME": str(folder / "state")}  # its own files (journal, games) in this run's folder
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    proc = subprocess.Popen([sys.executable, *run, "-m", "kum_widget.serve", str(folder / "class.toml"), "--port", "0",
                             "--codes", str(codes)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=folder, env=env)
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    stdout = proc.stdout

    def pump() -> None:
        for line in iter(stdout.readline, ""):
            lines.put(line)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    out: list[str] = []
    try:
        deadline = time.monotonic() + DEADLINE
        while not (out and out[-1].startswith("serving at")):  # its start ends with its address
            try:
                out.append(lines.get(timeout=0.1))
            except queue.Empty:
                if not reader.is_alive() and lines.empty():  # its output ended: it stopped
                    raise Stop(f"the referee stopped at its start (exit {proc.wait(DEADLINE)}):\n{''.join(out)}") from None
                if time.monotonic() > deadline:
                    raise Stop(f"the referee did not start within {DEADLINE:.0f} s:\n{''.join(out)}") from None
        found = re.search(r"(ws://127\.0\.0\.1:\d+/)", out[-1])
        if found is None:
            raise Stop(f"the referee serves no ws://127.0.0.1 address: {out[-1]}")
        seats: dict[str, dict[int, str]] = {}
        for row in codes.read_text().splitlines():  # table <TAB> seat N (name) <TAB> code; the teacher's last
            table, seat, given = row.split("\t")
            if seat != "teacher":
                seats.setdefault(table, {})[int(seat.split()[1])] = given
        yield RefereeProcess(found.group(1), seats, proc, out)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=DEADLINE)
        reader.join(DEADLINE)  # it ends at the output's end
        out.extend(lines.get() for _ in range(lines.qsize()))
    if proc.returncode != 0 or not out or out[-1].rstrip() != "referee stopped":
        raise Stop(f"the referee did not stop cleanly (exit {proc.returncode}):\n{''.join(out[-40:])}")


# -- the clients, in a process of their own ---------------------------------------------------

@dataclass
class Connection:
    """One seat's websocket: its latest frame, when each state's frame first arrived (this
    process's clock), the answers by token and any refusal."""

    seat: int
    socket: Any
    frame: dict[str, Any] = field(default_factory=dict)
    arrived: dict[int, float] = field(default_factory=dict)
    answers: dict[Any, dict[str, Any]] = field(default_factory=dict)
    refusals: list[str] = field(default_factory=list)
    received_bytes: int = 0
    tokens: float = BURST  # its allowance of messages (a token bucket, as the referee counts them)
    last_act: float = field(default_factory=time.perf_counter)
    held_back: int = 0  # acts it delayed to stay within the allowance

    async def within_rate(self) -> None:
        """Wait, if need be, until one more message keeps this connection within RATE and BURST."""
        now = time.perf_counter()
        self.tokens = min(BURST, self.tokens + (now - self.last_act) * RATE)
        self.last_act = now
        if self.tokens < 1:
            self.held_back += 1
            await asyncio.sleep((1 - self.tokens) / RATE)  # the flood limit's own clock, not a wait for the referee
            self.tokens, self.last_act = 1.0, time.perf_counter()
        self.tokens -= 1


async def listen(conn: Connection, changed: asyncio.Condition) -> None:
    """Read ``conn``'s messages until it closes, telling the table's driver of each."""
    from websockets.exceptions import ConnectionClosed

    from kum_widget.referee.delta import patched

    try:
        async for raw in conn.socket:
            message = json.loads(raw)
            conn.received_bytes += len(raw)
            kind = message.get("kind")
            if kind in ("frame", "delta"):  # whole, or what changed since the last (a referee before deltas: whole)
                conn.frame = message["frame"] if kind == "frame" else patched(conn.frame, message["changes"])
                conn.arrived.setdefault(int(conn.frame["state_id"]), time.perf_counter())  # decoded and patched
            elif kind == "answer":
                if not message.get("ok"):
                    conn.refusals.append(str(message.get("error")))
                conn.answers[message.get("id")] = message
            elif kind == "taken_over":
                conn.refusals.append("another connection took this seat over")
            async with changed:
                changed.notify_all()
    except ConnectionClosed:
        pass


async def wait(changed: asyncio.Condition, conns: list[Connection], table: str, what: str, condition: Callable[[], bool]) -> None:
    """Until ``condition()`` holds (within DEADLINE); a refusal at the table stops the bench."""
    def done() -> bool:
        for conn in conns:
            if conn.refusals:
                raise Stop(f"{table}, seat {conn.seat}: the referee refused: {conn.refusals[0]}")
        return condition()

    try:
        async with asyncio.timeout(DEADLINE), changed:
            await changed.wait_for(done)
    except TimeoutError:
        states = {c.seat: c.frame.get("state_id") for c in conns}
        raise Stop(f"{table}: {what} did not happen within {DEADLINE:.0f} s (the seats' states: {states})") from None


def reached(conns: list[Connection], actor: Connection, token: int, state: int) -> Callable[[], bool]:
    """Whether ``actor``'s act ``token`` on ``state`` is answered and every client holds a later state."""
    return lambda: token in actor.answers and all(any(s > state for s in c.arrived) for c in conns)


async def play_table(url: str, table: str, codes: dict[int, str], *, seed: int, moves: int | None, think: float,
                     version: str, deflate: bool) -> dict[str, Any]:
    """The people's seats of ``table`` join and play it to the end (or ``moves`` acts); their
    round trips in ms, and each bot's move's time."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    changed = asyncio.Condition()
    conns: list[Connection] = []
    readers = []
    try:
        for seat, code in sorted(codes.items()):
            socket = await connect(url, proxy=None, open_timeout=DEADLINE, close_timeout=DEADLINE,
                                   compression="deflate" if deflate else None)
            conn = Connection(seat, socket)
            conns.append(conn)
            readers.append(asyncio.create_task(listen(conn, changed)))
            await socket.send(json.dumps({"kind": "hello", "code": code, "game": GAME, "version": version, "id": "hello"}))
        await wait(changed, conns, table, "every seat's hello answered and first frame",
                   lambda: all("hello" in c.answers and c.frame for c in conns))

        round_trips: list[float] = []
        sent_at: list[float] = []  # when each was sent (this process's clock, seconds)
        by_people: set[int] = set()  # the states the people's acts made (the others are the bots')
        while True:
            # every client holds the same state, and it is a person's turn or the game is over
            await wait(changed, conns, table, "the next person's turn",
                       lambda: len({c.frame["state_id"] for c in conns}) == 1
                       and (conns[0].frame["over"] or any(c.frame["current"] == c.seat and c.frame["actions"] for c in conns)))
            state = int(conns[0].frame["state_id"])
            if conns[0].frame["over"] or (moves is not None and len(round_trips) >= moves):
                break
            actor = next(c for c in conns if c.frame["current"] == c.seat and c.frame["actions"])
            action = rng.choice(actor.frame["actions"])["id"]
            if think:
                await asyncio.sleep(think)  # a person's thinking, not a wait for the referee
            await actor.within_rate()
            token = len(round_trips)
            sent = time.perf_counter()
            await actor.socket.send(json.dumps({"kind": "act", "action_id": action, "state_id": state, "id": token}))
            await wait(changed, conns, table, f"state {state}'s act reaching every seat", reached(conns, actor, token, state))
            actor.answers.pop(token)
            last = max(min(t for s, t in c.arrived.items() if s > state) for c in conns)
            round_trips.append(1000 * (last - sent))
            sent_at.append(sent)
            by_people.add(min(s for s in conns[0].arrived if s > state))
    finally:
        for conn in conns:
            await conn.socket.close()
        for reader in readers:
            try:
                async with asyncio.timeout(DEADLINE):
                    await reader
            except TimeoutError:
                reader.cancel()
    seen = sorted(conns[0].arrived.items())
    bot_moves = [1000 * (t - t0) for (s0, t0), (s, t) in itertools.pairwise(seen) if s == s0 + 1 and s not in by_people]
    return {"table": table, "round_trips_ms": round_trips, "sent_s": sent_at, "bot_moves_ms": bot_moves, "over": bool(conns[0].frame["over"]),
            "states": int(conns[0].frame["state_id"]), "received_bytes": sum(c.received_bytes for c in conns),
            "held_back": sum(c.held_back for c in conns)}


async def play_class(spec: dict[str, Any]) -> dict[str, Any]:
    """Every table of ``spec`` at once, in this process."""
    from kum_widget.core import VERSION

    started, cpu = time.perf_counter(), time.process_time()
    tables = await asyncio.gather(*(play_table(spec["url"], name, {int(s): c for s, c in codes.items()}, seed=spec["seed"] * 1000 + i,
                                               moves=spec["moves"], think=spec["think"], version=VERSION, deflate=spec["deflate"])
                                    for i, (name, codes) in enumerate(sorted(spec["codes"].items()), 1)))
    return {"tables": tables, "wall_s": time.perf_counter() - started, "cpu_s": time.process_time() - cpu}


def clients(spec: dict[str, Any]) -> dict[str, Any]:
    """The clients' process: ``spec`` played in a child process of this script; what it measured."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(spec, f)
    try:
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--as-clients", f.name], capture_output=True,
                              text=True, timeout=RUN_DEADLINE, cwd=ROOT)
    finally:
        os.unlink(f.name)
    if done.returncode != 0:
        raise Stop(f"the clients' process failed (exit {done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# -- a run, and the whole bench ---------------------------------------------------------------

def parse_bots(text: str) -> dict[int, str]:
    """``1=random,3=greedy`` as {1: "random", 3: "greedy"}."""
    bots: dict[int, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        seat, _, bot = part.partition("=")
        if not seat.strip().isdigit() or not 0 <= int(seat) < SEATS or not bot.strip():
            raise argparse.ArgumentTypeError(f"bots are seat=bot pairs, seats 0 to {SEATS - 1} (e.g. {DEFAULT_BOTS}), got {part!r}")
        bots[int(seat)] = bot.strip()
    if len(bots) >= SEATS:
        raise argparse.ArgumentTypeError("leave at least one seat to a person")
    return bots


def checkout(rev: str, into: Path) -> Path:
    """``rev``'s ``kum_widget`` (git archive) in ``into``, with this tree's built front-end (a
    finished game's replay is written with it): the folder to put first on its PYTHONPATH."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "kum_widget"], capture_output=True)
    if archive.returncode != 0:
        raise Stop(f"no revision {rev!r} here: {archive.stderr.decode(errors='replace').strip()[:200]}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    static = into / "kum_widget" / "static"
    static.mkdir(parents=True, exist_ok=True)
    for built in (ROOT / "kum_widget" / "static").glob("*.*"):
        if not (static / built.name).exists():
            (static / built.name).write_bytes(built.read_bytes())
    return into


def arrangement(tables: int, bots: dict[int, str]) -> str:
    """In words: the people and bots of each table."""
    people = tables * (SEATS - len(bots))
    return (f"{people} people at {tables} table{'s' if tables != 1 else ''}, "
            + (f"bots at seats {', '.join(f'{s} ({b})' for s, b in sorted(bots.items()))} of each" if bots else "no bot seats"))


def play_round(name: str, args: argparse.Namespace, bots: dict[int, str], number: int, code: Path | None = None) -> dict[str, Any]:
    """One round of one arrangement: a referee (``code``: another revision's), the clients' process;
    what they measured, in one printed line."""
    load_before = os.getloadavg()[0]
    profile = None
    if args.profile:
        (ROOT / "build" / "bench-referee").mkdir(parents=True, exist_ok=True)
        profile = ROOT / "build" / "bench-referee" / (re.sub(r"\W+", "-", name) + f"-{number}.prof")
    seed = args.seed + number - 1
    with tempfile.TemporaryDirectory(prefix="bench-referee-") as tmp, referee(Path(tmp), class_file(args.tables, seed, bots),
                                                                             profile=profile, code=code) as ref:
        before = (ref.cpu_seconds(), machine_cpu_seconds(), children_cpu_seconds(), time.perf_counter())
        measured = clients({"url": ref.url, "codes": ref.codes, "seed": seed, "moves": args.moves, "think": args.think,
                            "deflate": args.deflate})
        after = (ref.cpu_seconds(), machine_cpu_seconds(), children_cpu_seconds(), time.perf_counter())
    referee_cpu = others = None
    if before[0] is not None and after[0] is not None:
        referee_cpu = after[0] - before[0]
        if before[1] is not None and after[1] is not None:  # the machine's busy time less the referee's and the clients' process's
            mine = referee_cpu + after[2] - before[2]
            others = max(0.0, (after[1] - before[1] - mine) / ((after[3] - before[3]) * (os.cpu_count() or 1)))
    ms = [x for t in measured["tables"] for x in t["round_trips_ms"]]
    if not ms:
        raise Stop(f"{name}, round {number}: no act was measured")
    bot_ms = [x for t in measured["tables"] for x in t["bot_moves_ms"]]
    acts = len(ms) + len(bot_ms)
    out = {"ms": ms, "bot_ms": bot_ms, "acts": acts, "wall_s": measured["wall_s"], "clients_cpu_s": measured["cpu_s"],
           "referee_cpu_s": referee_cpu, "others": others, "held_back": sum(t["held_back"] for t in measured["tables"]),
           "over": sum(t["over"] for t in measured["tables"]), "bytes": sum(t["received_bytes"] for t in measured["tables"]),
           "load": (load_before, os.getloadavg()[0])}
    elsewhere = "" if others is None else f"; other processes {100 * others:.0f}% of the machine's cores"
    print(f"  {len(ms)} people's acts: median {percentile(ms, 0.5):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, "
          f"max {max(ms):.1f} ms; {acts / measured['wall_s']:.0f} acts/s in all{elsewhere}", flush=True)
    if profile is not None:
        show_profile(profile)
    return out


def summary(name: str, args: argparse.Namespace, bots: dict[int, str], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The rounds of one arrangement pooled: printed, and as a JSON value."""
    ms = [x for r in rounds for x in r["ms"]]
    bot_ms = [x for r in rounds for x in r["bot_ms"]]
    acts = sum(r["acts"] for r in rounds)
    wall = sum(r["wall_s"] for r in rounds)
    fig = Figures.of(ms)
    p95s = [percentile(r["ms"], 0.95) for r in rounds]
    print(f"\n{name}: {arrangement(args.tables, bots)}", flush=True)
    print(f"  {len(ms)} people's acts ({acts} with the bots') in {len(rounds)} round{'s' if len(rounds) != 1 else ''}; "
          f"{sum(r['over'] for r in rounds)} of {len(rounds) * args.tables} games played to the end; "
          f"{acts / wall:.0f} acts/s in all; {sum(r['bytes'] for r in rounds) / acts / 1000:.0f} KB of frames an act, decoded", flush=True)
    print(f"  round trip, act to every client's new frame (ms): median {fig.median:.1f}, p95 {fig.p95:.1f} {fig.interval()}, "
          f"p99 {fig.p99:.1f}, max {fig.max:.1f}" + (f"; the rounds' p95 {min(p95s):.1f} to {max(p95s):.1f}" if len(p95s) > 1 else ""),
          flush=True)
    print(f"  p95 < {GOAL_MS:.0f} ms: {fig.verdict()}", flush=True)
    if bot_ms:
        print(f"  a bot's move, its turn's frame to its move's frame (ms): median {percentile(bot_ms, 0.5):.1f}, "
              f"p95 {percentile(bot_ms, 0.95):.1f}, max {max(bot_ms):.1f} (a round's first starts the referee's worker)", flush=True)
    referee_cpu = None if any(r["referee_cpu_s"] is None for r in rounds) else sum(r["referee_cpu_s"] for r in rounds)
    clients_cpu = sum(r["clients_cpu_s"] for r in rounds)
    busy = (f"the referee (with its bots' worker) {1000 * referee_cpu / acts:.2f} ms an act, busy {100 * referee_cpu / wall:.0f}%; "
            if referee_cpu is not None else "")
    others = [r["others"] for r in rounds if r["others"] is not None]
    share = f"{100 * min(others):.0f}%" + (f" to {100 * max(others):.0f}%" if f"{100 * min(others):.0f}" != f"{100 * max(others):.0f}" else "") if others else ""
    elsewhere = f"; other processes {share} of the machine's cores" if others else ""
    print(f"  CPU: {busy}the clients' process {1000 * clients_cpu / acts:.2f} ms an act, busy {100 * clients_cpu / wall:.0f}% "
          f"(of one core, while playing){elsewhere}", flush=True)
    held_back = sum(r["held_back"] for r in rounds)
    if held_back:
        print(f"  {held_back} acts waited to keep their connection within the referee's flood limit", flush=True)
    return {"run": name, "arrangement": arrangement(args.tables, bots), "tables": args.tables, "rounds": len(rounds),
            "acts": len(ms), "bot_acts": len(bot_ms), "median_ms": round(fig.median, 2), "p95_ms": round(fig.p95, 2),
            "p95_interval_ms": [None if x is None else round(x, 2) for x in (fig.p95_low, fig.p95_high)],
            "p95_of_rounds_ms": [round(x, 2) for x in p95s], "p99_ms": round(fig.p99, 2), "max_ms": round(fig.max, 2),
            "goal_holds": fig.holds(), "acts_per_s": round(acts / wall, 1),
            "referee_cpu_ms_an_act": None if referee_cpu is None else round(1000 * referee_cpu / acts, 3),
            "clients_cpu_ms_an_act": round(1000 * clients_cpu / acts, 3),
            "bot_move_median_ms": round(percentile(bot_ms, 0.5), 2) if bot_ms else None,
            "held_back": held_back, "others_share": [round(x, 3) for x in others],
            "load": [round(x, 2) for r in rounds for x in r["load"]]}


def show_profile(path: Path, top: int = 15) -> None:
    """The referee's costliest functions, by their own time and with what they call."""
    import io
    import pstats

    for order in ("tottime", "cumulative"):
        text = io.StringIO()
        pstats.Stats(str(path), stream=text).strip_dirs().sort_stats(order).print_stats(top)
        rows = text.getvalue().split("   ncalls", 1)[-1]
        print(f"  the referee's profile by {order} (all of {path.name}, start-up included):\n   ncalls{rows.rstrip()}", flush=True)


def machine() -> str:
    """The machine's facts that move a figure: cores, CPU, Python, websockets."""
    model = "unknown CPU"
    try:
        model = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    from importlib.metadata import version

    return (f"{os.cpu_count()} cores ({model}), {platform.system()}, Python {platform.python_version()}, "
            f"websockets {version('websockets')}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tables", type=int, default=7, help="tables of 4 seats (default 7)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of each arrangement, the arrangements taking turns (default 3)")
    ap.add_argument("--seed", type=int, default=1, help="the deals' and the clients' choices' seed")
    ap.add_argument("--moves", type=int, default=None, help="stop each table after this many people's acts (default: to the game's end)")
    ap.add_argument("--think", type=float, default=0.0, help="seconds a person waits before acting (default 0: at once)")
    ap.add_argument("--runs", nargs="+", choices=("people", "bots"), default=["people", "bots"], help="the arrangements (default both)")
    ap.add_argument("--bots", type=parse_bots, default=parse_bots(DEFAULT_BOTS), help=f"the bots' seats of the bots run (default {DEFAULT_BOTS})")
    ap.add_argument("--no-deflate", dest="deflate", action="store_false",
                    help="the clients decline websockets' compression (permessage-deflate), which a SeatClient accepts")
    ap.add_argument("--profile", action="store_true", help="run the referee under cProfile and print where its time goes")
    ap.add_argument("--base", metavar="REV", help="also run the referee of this git revision, each round beside this tree's")
    ap.add_argument("--as-clients", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.as_clients is not None:
        try:
            print(json.dumps(asyncio.run(play_class(json.loads(args.as_clients.read_text())))), flush=True)
        except Stop as stop:
            print(f"bench/referee.py (the clients): {stop}", file=sys.stderr, flush=True)
            return 1
        return 0
    if not 1 <= args.tables <= 64:
        ap.error("--tables is 1 to 64 (a class file's limit)")
    if args.rounds < 1 or (args.moves is not None and args.moves < 1) or args.think < 0:
        ap.error("--rounds and --moves are at least 1, --think at least 0")
    print(f"the referee's round trip: {machine()}; {args.rounds} round{'s' if args.rounds != 1 else ''}, "
          f"{f'{args.think:g} s to think' if args.think else 'people acting at once'}"
          f"{'' if args.deflate else ', no compression'}", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-referee-base-") as base_tmp:
        sides: dict[str, Path | None] = {"": None}
        try:
            if args.base:
                sides[" @ " + args.base] = checkout(args.base, Path(base_tmp))
            arrangements = {name + side: (args.bots if name == "bots" else {}, code) for name in args.runs for side, code in sides.items()}
            rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in arrangements}
            for number in range(1, args.rounds + 1):  # the arrangements take turns: a machine that drifts moves both alike
                for name, (bots, code) in arrangements.items():
                    print(f"{name}, round {number} ({arrangement(args.tables, bots)}):", flush=True)
                    rounds[name].append(play_round(name, args, bots, number, code))
        except Stop as stop:
            print(f"bench/referee.py: {stop}", file=sys.stderr, flush=True)
            return 1
    results = [summary(name, args, bots, rounds[name]) for name, (bots, _) in arrangements.items()]
    print("\n" + json.dumps({"bench": "referee", "machine": machine(), "think_s": args.think, "deflate": args.deflate,
                             "goal_p95_ms": GOAL_MS, "runs": results}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
