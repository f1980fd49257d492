"""One game on Gareth001/500's server, played by four scripted TCP clients.

The server (``server <port> <password> 0000``) seats four human players in the order they
connect, deals, and then asks one player at a time for input with a prompt line ("bet",
"send", "jokerwant"); everything else it says is either told to every player (a bid, a
card played, the result) or to one (a hand, an error).  This module starts the server
with our rand() shim (so that it waits for the adapter before each shuffle), connects the
four clients, writes what a scenario's step says on the prompted player's socket, and
keeps what the server has said in a ``TableView``.

It decides nothing about the rules: whether a step was taken is whatever the server
answered, and the view records only what the server printed.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import select
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

SEATS = ("N", "E", "S", "W")
READ_TIMEOUT = 4.0  # seconds the server may take to answer one step
CONNECT_TIMEOUT = 5.0

# Lines the server sends to every player (send_to_all); every player's socket gets the
# same sequence of them, which tells the reader when all four sockets are up to date.
_BROADCAST = re.compile(
    r"^(start|redeal|betover|kittyend|jokerdone|roundstart|roundover|gameover|endgame"
    r"|gamenotnover|Betting team (won|lost)!|Betting team has won \d+ trick\(s\)"
    r"|Round \d+|Joker suit chosen\. It is a [SCDH]"
    r"|Player \d (bet .*|passed|played .*|won the bet with .*))$"
)
# Refusals the server writes to the player who is asked, before asking again.
ERRORS = frozenset(
    {
        "Invalid bet",
        "Bet not high enough",
        "A player has already bet misere",
        "Bet must be exactly 7 to bet misere",
        "A player has already bet openmisere",
        "Not a card",
        "You don't have that card",
        "You must play lead suit",
        "Bad length",
        "Not a suit",
    }
)
_CARD = re.compile(r"^(JOKER|(10|[4-9JQKA])[SCDH])$")
_PLAYED = re.compile(r"^Player (\d) played (\S+)\. Player (\d) (winning|won) with (\S+)$")
_BID = re.compile(r"^Player (\d) bet (\S+)$")
_PASSED = re.compile(r"^Player (\d) passed$")
_WON_BET = re.compile(r"^Player (\d) won the bet with (\S+)!$")
_SHOWN = re.compile(r"^Player (\d)'s hand: (.*)$")
_JOKER_SUIT = re.compile(r"^Joker suit chosen\. It is a ([SCDH])$")
_SCORE = re.compile(r"^-?\d+$")


class TableError(Exception):
    """The server or a connection failed in a way no scenario step explains."""


def card_from_server(text: str) -> str:
    return "JK" if text == "JOKER" else text


def card_to_server(card: str) -> str:
    return "JOKER" if card == "JK" else card


def bid_from_server(text: str) -> str:
    if text == "misere":
        return "MIS"
    if text == "openmisere":
        return "OMIS"
    return text[:-1] + "NT" if text.endswith("N") else text


def bid_to_server(call: str) -> str:
    if call == "MIS":
        return "MISERE"
    if call == "OMIS":
        return "OPENMISERE"
    return call[:-2] + "N" if call.endswith("NT") else call


@dataclass
class Trick:
    leader: int
    plays: list[tuple[int, str]] = field(default_factory=list)
    winner: int | None = None


@dataclass
class TableView:
    """What the server has said so far, by server player (0-3)."""

    deals: int = 0
    dealing: bool = False  # a deal has been asked for and its first prompt not yet seen
    hands: dict[int, list[str]] = field(default_factory=dict)
    bids: list[tuple[int, str]] = field(default_factory=list)
    passed: set[int] = field(default_factory=set)
    contract: str | None = None
    declarer: int | None = None
    discards: list[str] = field(default_factory=list)
    joker_suit: str | None = None
    shown: tuple[int, list[str]] | None = None  # the open-misère hand the server shows
    trick: Trick | None = None
    last_trick: Trick | None = None
    tricks: list[int] = field(default_factory=lambda: [0, 0])  # by server team (player % 2)
    made: bool | None = None
    scores: list[int] = field(default_factory=lambda: [0, 0])
    scores_before: list[int] = field(default_factory=lambda: [0, 0])
    deal_over: bool = False
    thrown_in: bool = False
    game_over: bool = False
    pending: dict[int, str] = field(default_factory=dict)  # player -> bet/kitty/joker/play
    first_bidder: int | None = None

    def new_deal(self) -> None:
        self.deals += 1
        self.dealing = True
        self.bids = []
        self.passed = set()
        self.contract = None
        self.declarer = None
        self.discards = []
        self.joker_suit = None
        self.shown = None
        self.trick = None
        self.last_trick = None
        self.tricks = [0, 0]
        self.made = None
        self.scores_before = list(self.scores)
        self.deal_over = False
        self.thrown_in = False
        self.first_bidder = None


@dataclass
class _Client:
    player: int
    sock: socket.socket
    buffer: bytes = b""
    closed: bool = False
    broadcasts: int = 0
    context: str = "lobby"  # kitty between "You won!" and "kittyend", else as the prompt
    score_lines: int = 0
    replies: list[str] = field(default_factory=list)  # lines since our last write


class Table:
    """The server process and its four clients for one scenario."""

    def __init__(self, server: str, shim: str) -> None:
        self.server = server
        self.shim = shim
        self.view = TableView()
        self.clients: list[_Client] = []
        self.process: subprocess.Popen[bytes] | None = None
        self.folder = tempfile.TemporaryDirectory(prefix="gareth001-")
        self.pipe_path = os.path.join(self.folder.name, "rand")
        os.mkfifo(self.pipe_path)
        # Read-write, so that opening never waits for the server and the server's reads
        # block (rather than end) while no deal has been written.
        self.pipe = os.open(self.pipe_path, os.O_RDWR)
        self.log_path = os.path.join(self.folder.name, "server.log")

    # ---- starting and stopping -------------------------------------------------------

    def open(self) -> None:
        password = secrets.token_hex(4)
        for _attempt in range(5):
            port = _free_port()
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(
                    [self.server, str(port), password, "0000"],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env={
                        **os.environ,
                        "LD_PRELOAD": self.shim,
                        "GARETH001_RAND_PIPE": self.pipe_path,
                    },
                )
            try:
                self._connect_all(port, password)
                return
            except TableError:
                if self.process.poll() is None:
                    raise
                self._close_clients()  # the port was taken: try another
        raise TableError(f"the server would not start: {self.log_tail()}")

    def _connect_all(self, port: int, password: str) -> None:
        for player in range(4):
            sock = self._connect(port)
            client = _Client(player, sock)
            self.clients.append(client)
            for text in (password, f"seat{player}"):
                sock.sendall(text.encode() + b"\n")
                if self._next_line(client) != "yes":
                    raise TableError(f"the server refused player {player}'s {text!r}")
        for client in self.clients:
            if self._next_line(client) != "start":
                raise TableError("the server did not start the game")
            client.sock.sendall(b"yes\n")
        for client in self.clients:
            if self._next_line(client) != "start":
                raise TableError("the server did not confirm the start")
            client.broadcasts = 2
            for _ in range(4):  # the players' details
                self._next_line(client)
            client.context = "waiting"

    def _connect(self, port: int) -> socket.socket:
        deadline = time.monotonic() + CONNECT_TIMEOUT
        while True:
            try:
                return socket.create_connection(("127.0.0.1", port), timeout=READ_TIMEOUT)
            except OSError as error:
                assert self.process is not None
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise TableError(f"cannot connect to the server: {error}") from error
                time.sleep(0.01)

    def _next_line(self, client: _Client) -> str:
        """One line during the handshake, read directly."""
        deadline = time.monotonic() + READ_TIMEOUT
        while b"\n" not in client.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TableError(f"player {client.player}: no answer from the server")
            client.sock.settimeout(left)
            try:
                data = client.sock.recv(4096)
            except OSError as error:
                raise TableError(f"player {client.player}: {error}") from error
            if not data:
                raise TableError(f"player {client.player}: the server closed the connection")
            client.buffer += data
        line, client.buffer = client.buffer.split(b"\n", 1)
        return line.decode("ascii", "replace")

    def close(self) -> None:
        self._close_clients()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=2)
        os.close(self.pipe)
        self.folder.cleanup()

    def _close_clients(self) -> None:
        for client in self.clients:
            with contextlib.suppress(OSError):
                client.sock.close()
        self.clients = []

    def log_tail(self) -> str:
        try:
            with open(self.log_path, "rb") as log:
                return log.read()[-600:].decode("ascii", "replace")
        except OSError:
            return ""

    # ---- talking to the server -------------------------------------------------------

    def deal(self, rand_values: Sequence[int]) -> None:
        """Let the server shuffle with these rand() values, and wait for its first prompt."""
        self.view.new_deal()
        for client in self.clients:
            client.context = "dealing"
        os.write(self.pipe, (" ".join(str(v) for v in rand_values) + "\n").encode())
        self.settle()
        self.view.dealing = False
        if len(self.view.pending) == 1:
            self.view.first_bidder = next(iter(self.view.pending))

    def say(self, player: int, text: str) -> list[str]:
        """Write one line as this player, wait until the server waits again, and return
        what it said to that player in answer."""
        client = self.clients[player]
        client.replies = []
        self.view.pending.pop(player, None)
        try:
            client.sock.sendall(text.encode("ascii") + b"\n")
        except OSError as error:
            raise TableError(f"player {player}: cannot write: {error}") from error
        self.settle()
        return client.replies

    def settle(self) -> None:
        """Read until the server is waiting: for one player's answer, for the next deal
        (after a deal ends), or gone (after the game ends)."""
        deadline = time.monotonic() + READ_TIMEOUT
        while not self._waiting():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TableError(f"the server said nothing more for {READ_TIMEOUT:.0f} s")
            self._read(left)
        self._read(0)  # anything already arrived
        if not self._waiting():
            self.settle()

    def _waiting(self) -> bool:
        open_clients = [c for c in self.clients if not c.closed]
        if not open_clients:
            if not self.view.game_over:
                raise TableError(f"the server closed the connections: {self.log_tail()}")
            return True
        if len(open_clients) < 4:
            return False  # the server is ending the game: read to the end
        if len({c.broadcasts for c in open_clients}) != 1:
            return False
        if len(self.view.pending) == 1:
            return True
        return all(c.context == "waiting" for c in open_clients)

    def _read(self, timeout: float) -> None:
        socks = [c.sock for c in self.clients if not c.closed]
        ready, _, _ = select.select(socks, [], [], timeout)
        for client in self.clients:
            if client.sock not in ready:
                continue
            try:
                data = client.sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                client.closed = True
                continue
            client.buffer += data
            while b"\n" in client.buffer:
                raw, client.buffer = client.buffer.split(b"\n", 1)
                self._take(client, raw.decode("ascii", "replace"))

    # ---- what the server says --------------------------------------------------------

    def _take(self, client: _Client, line: str) -> None:
        client.replies.append(line)
        view = self.view
        player = client.player
        if _BROADCAST.match(line):
            client.broadcasts += 1
            self._context(client, line)
            if player == 0:
                self._take_broadcast(line)
            return
        if line == "bet":
            view.pending[player] = "bet"
        elif line == "send" and client.context != "kitty":
            view.pending[player] = "play"
        elif line.startswith("Pick ") and client.context == "kitty":
            view.pending[player] = "kitty"  # the line after "send" during the discard
        elif line == "jokerwant":
            view.pending[player] = "joker"
        elif line.startswith("You won! Pick 3 cards to discard: "):
            client.context = "kitty"
            view.hands[player] = _cards(line.split(": ", 1)[1])
        elif (shown := _SHOWN.match(line)) is not None:
            view.shown = (int(shown.group(1)), _cards(shown.group(2)))
        elif _SCORE.match(line) and player == 0 and client.score_lines < 2:
            # Player 0 hears its own team's total (team 0) first, then the other's.
            view.scores[client.score_lines] = int(line)
            client.score_lines += 1
        elif line and all(_CARD.match(token) for token in line.split(" ")):
            view.hands[player] = _cards(line)

    def _context(self, client: _Client, line: str) -> None:
        if line in ("gamenotnover", "redeal"):
            client.context = "waiting"
        elif line in ("kittyend", "roundstart"):
            client.context = "play"
        elif line.startswith("Betting team won") or line.startswith("Betting team lost"):
            client.score_lines = 0

    def _take_broadcast(self, line: str) -> None:
        view = self.view
        if (bid := _BID.match(line)) is not None:
            view.bids.append((int(bid.group(1)), bid_from_server(bid.group(2))))
        elif (passed := _PASSED.match(line)) is not None:
            view.passed.add(int(passed.group(1)))
        elif (won := _WON_BET.match(line)) is not None:
            view.declarer = int(won.group(1))
            view.contract = bid_from_server(won.group(2))
        elif (joker := _JOKER_SUIT.match(line)) is not None:
            view.joker_suit = joker.group(1)
        elif (played := _PLAYED.match(line)) is not None:
            player, card = int(played.group(1)), card_from_server(played.group(2))
            if view.trick is None:
                view.trick = Trick(player)
            view.trick.plays.append((player, card))
            with contextlib.suppress(ValueError):
                view.hands.get(player, []).remove(card)
            if view.shown is not None and view.shown[0] == player:
                with contextlib.suppress(ValueError):
                    view.shown[1].remove(card)
            if played.group(4) == "won":
                view.trick.winner = int(played.group(3))
                view.tricks[view.trick.winner % 2] += 1
                view.last_trick, view.trick = view.trick, None
        elif line in ("Betting team won!", "Betting team lost!"):
            view.made = line == "Betting team won!"
        elif line == "redeal":
            view.deal_over = view.thrown_in = True
        elif line == "gamenotnover":
            view.deal_over = True
        elif line == "endgame":
            view.deal_over = view.game_over = True


def _cards(text: str) -> list[str]:
    return [card_from_server(token) for token in text.split(" ") if token]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def build(checkout: str, run: Callable[..., subprocess.CompletedProcess[bytes]]) -> str:
    """Run the checkout's own ``make server`` and return the server's path."""
    done = run(["make", "-s", "server"], cwd=checkout, capture_output=True, timeout=120)
    if done.returncode != 0:
        text = (done.stderr or done.stdout or b"").decode("utf-8", "replace").strip()
        raise TableError(f"make server failed in {checkout}: {text[-300:]}")
    return os.path.join(checkout, "server")
