"""Limits and guards for everything that comes from outside: files, replies, output.

One place for the rules that keep hostile input from hanging, crashing or
corrupting a run (site/limits.md documents the figures):

* :func:`read_regular_file` reads only a regular file, never blocks on opening a
  FIFO or a device, and refuses one over :data:`MAX_FILE_BYTES`;
* :func:`strict_json` parses RFC 8259 JSON only: no ``NaN``/``Infinity``, no
  integer over Python's conversion limit, no nesting over :data:`MAX_JSON_DEPTH`,
  no lone surrogate;
* :func:`read_json_file` reads a JSON file from outside (a fuzz shard, a positions
  file) through both of those, each key once;
* :func:`clean_text` makes text from outside (adapter output, titles, file names)
  safe to print on a terminal or write into a report, and :func:`clean_name` keeps a
  name on one line;
* :func:`place` is the one rule for where the suite writes: names it made, inside the
  folder the user named, never through a link;
* :func:`atomic_write_text` writes a file through a temporary file and a rename,
  so a failure part-way never destroys the previous good file;
* :func:`signals_deferred` holds the stop signals while a child process is started
  and recorded, or a message is written or read whole.

It imports only the standard library, so every stage of the package may use it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import signal
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

__all__ = [
    "DEFAULT_STARTUP_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "MAX_FILE_BYTES",
    "MAX_FOLDER_DEPTH",
    "MAX_FUZZ_DEALS",
    "MAX_FUZZ_JOBS",
    "MAX_FUZZ_SHARDS",
    "MAX_INT_DIGITS",
    "MAX_JSON_DEPTH",
    "MAX_TIMEOUT",
    "MAX_YAML_DEPTH",
    "MAX_YAML_NODES",
    "FileRefused",
    "JsonRefused",
    "atomic_write_text",
    "clean_json",
    "clean_name",
    "clean_text",
    "json_depth_exceeds",
    "one_line",
    "place",
    "read_json_file",
    "read_regular_file",
    "signals_deferred",
    "strict_json",
]

MAX_FILE_BYTES = 1024 * 1024
"""The largest scenario or expectations file read (the largest scenario is under 10 KiB)."""
MAX_YAML_NODES = 100_000
"""Nodes a YAML document may have, counting every alias as a copy of its target."""
MAX_YAML_DEPTH = 64
"""How deeply YAML collections may nest."""
MAX_JSON_DEPTH = 64
"""How deeply arrays and objects may nest in a protocol line or a JSON file."""
MAX_INT_DIGITS = 4300
"""Python's limit on converting decimal digits to an integer (``sys.int_info``)."""
MAX_FOLDER_DEPTH = 32
"""How many folders deep scenario files are searched for."""
MAX_TIMEOUT = 24 * 60 * 60.0
"""The longest ``--timeout``, ``--startup-timeout`` or ``--max-time`` accepted (one day)."""
MAX_FUZZ_DEALS = 10_000_000
"""The most deals one fuzz run (``--deals``), or the shards merged together, may hold: ten
million is over ten minutes of 64 jobs; more is several runs with different seeds.  A
shard file cannot ask for more, so a few bytes never expand to a billion indices."""
MAX_FUZZ_SHARDS = 10_000
"""The largest N of a fuzz shard ``I/N`` (``fuzz --shard`` and a shard report alike)."""
MAX_FUZZ_JOBS = 64
"""The most adapter processes ``fuzz --jobs`` starts (and a shard may say it ran)."""
DEFAULT_TIMEOUT = 10.0
"""Seconds an adapter has to answer one run message."""
DEFAULT_STARTUP_TIMEOUT = 30.0
"""Seconds an adapter has to start and answer hello (virtual machines start slowly)."""


# ---- reading files -------------------------------------------------------------------


class FileRefused(Exception):
    """A path that is not a readable regular file within the limits."""


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_regular_file(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    The file is checked before opening and again on the open descriptor (opened
    non-blocking, so a FIFO swapped in between cannot block); anything else raises
    :class:`FileRefused` with a message for the user.
    """
    try:
        before = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise FileRefused("a symbolic link to a file that does not exist") from None
        raise FileRefused("no such file") from None
    except OSError as error:
        raise FileRefused(f"cannot read file: {error.strerror or error}") from None
    if not stat.S_ISREG(before.st_mode):
        raise FileRefused(f"{_kind(before.st_mode)}; only regular files are read")
    if before.st_size > limit:
        raise FileRefused(
            f"the file is {before.st_size:,} bytes, over the {limit:,}-byte limit (site/limits.md)"
        )
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise FileRefused(f"cannot read file: {error.strerror or error}") from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise FileRefused(f"{_kind(opened.st_mode)}; only regular files are read")
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise FileRefused(f"the file grew over the {limit:,}-byte limit while being read")
            chunks.append(chunk)
    except OSError as error:
        raise FileRefused(f"cannot read file: {error.strerror or error}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


# ---- strict JSON ---------------------------------------------------------------------


class JsonRefused(ValueError):
    """Text that is not strict JSON within the limits."""


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abAB]|\\u[dD][c-fC-F]")
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")


def _outside_strings(data: bytes) -> bytes:
    """``data`` without its JSON strings: escapes dropped, then every other quoted part.

    Once escaped backslashes and escaped quotes are gone, every remaining quote
    opens or closes a string, so the even parts of a split on quotes are what lies
    outside strings.  All C-speed operations, no regular expression.
    """
    parts = data.replace(b"\\\\", b"").replace(b'\\"', b"").split(b'"')
    return b"".join(parts[::2])


def json_depth_exceeds(data: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether arrays and objects in ``data`` nest deeper than ``limit`` (strings ignored).

    Cheap for the common case: fewer brackets than the limit cannot nest deeper.
    Otherwise strings are cut out, everything but brackets dropped, and innermost
    pairs removed one level at a time (each pass is a C-speed ``replace``); if
    brackets remain after ``limit`` passes, the nesting is deeper (or unbalanced,
    which the parser refuses anyway).
    """
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    brackets = _outside_strings(data).translate(None, _BRACKETS)
    for _ in range(limit):
        if not brackets:
            return False
        shorter = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if len(shorter) == len(brackets):
            return True  # unbalanced: not JSON
        brackets = shorter
    return bool(brackets)


def _refuse_constant(name: str) -> Any:
    raise JsonRefused(f"{name} is not JSON (RFC 8259 has no NaN or Infinity)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonRefused(f"the number {text[:40]} is out of range (it would be infinite)")
    return value


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)
"""Made once: ``json.loads`` with options builds a new decoder on every call."""


def _each_key_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:  # Python's parser would keep the last one without a word
            raise JsonRefused(f"{key!r} appears twice in one object; expected each key once")
        seen.add(key)
    return dict(pairs)


_UNIQUE_KEYS_DECODER = json.JSONDecoder(
    parse_constant=_refuse_constant, parse_float=_finite_float, object_pairs_hook=_each_key_once
)
"""For files people write (``unique_keys``); protocol lines skip the check's cost."""


def strict_json(data: bytes | str, *, unique_keys: bool = False) -> Any:
    """Parse RFC 8259 JSON within the limits; raise :class:`JsonRefused` otherwise.

    With ``unique_keys`` a key said twice in one object is refused too (RFC 8259 leaves
    what it means to the parser).

    ``json.JSONDecodeError`` (a subclass of ``ValueError``) still reports syntax
    errors; everything else that Python's parser would accept or choke on —
    ``NaN``, ``Infinity``, ``1e400`` (infinite as a float), an integer over
    :data:`MAX_INT_DIGITS` digits, nesting
    over :data:`MAX_JSON_DEPTH`, a lone surrogate — is a :class:`JsonRefused`.
    """
    raw = data.encode("utf-8", errors="surrogatepass") if isinstance(data, str) else data
    if json_depth_exceeds(raw):
        raise JsonRefused(f"arrays and objects nest deeper than {MAX_JSON_DEPTH} levels")
    text = data if isinstance(data, str) else data.decode("utf-8")
    try:
        value = (_UNIQUE_KEYS_DECODER if unique_keys else _DECODER).decode(text)
    except RecursionError:
        raise JsonRefused(f"arrays and objects nest deeper than {MAX_JSON_DEPTH} levels") from None
    except json.JSONDecodeError:
        raise
    except ValueError as error:
        if isinstance(error, JsonRefused):
            raise
        raise JsonRefused(
            f"a number is too long to convert (over {MAX_INT_DIGITS:,} digits)"
        ) from None
    if _SURROGATE_ESCAPE.search(raw) and _has_lone_surrogate(value):
        raise JsonRefused("a string holds a lone surrogate (\\ud800-\\udfff), which is not text")
    return value


def read_json_file(path: str | Path, limit: int = MAX_FILE_BYTES) -> Any:
    """The strict JSON of a file from outside (a fuzz shard, a positions file): read by
    :func:`read_regular_file` (only a regular file, at most ``limit`` bytes), then UTF-8,
    then :func:`strict_json` with each key once.  Every refusal is a :class:`FileRefused`
    (the file) or a :class:`JsonRefused` (its text) whose message says where and what was
    found, never a traceback; the caller still checks the shape of what it got."""
    data = read_regular_file(path, limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JsonRefused(f"not UTF-8 text ({error.reason} at byte {error.start})") from None
    try:
        return strict_json(text, unique_keys=True)
    except json.JSONDecodeError as error:
        raise JsonRefused(
            f"line {error.lineno}, column {error.colno}: not JSON: {error.msg}"
        ) from None


# ---- text from outside ---------------------------------------------------------------

_FORMAT_CHARACTERS = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f"
)
"""Unicode's format characters (category Cf): bidi embeddings, overrides and isolates
(U+202A-U+202E, U+2066-U+2069) that make a line read backwards, zero-width spaces and
joiners that hide text, tags.  Written out rather than looked up (``unicodedata`` over
every code point costs a tenth of a second); a test holds the list to Unicode's."""
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff{_FORMAT_CHARACTERS}]")
_UNSAFE_IN_A_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff{_FORMAT_CHARACTERS}]")
""":data:`_UNSAFE` with newlines and tabs: for a name that must stay one line."""


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean_text(text: str) -> str:
    """``text`` safe for a terminal or a report file: control characters shown as ``\\xNN``.

    Escape sequences (ANSI colours, OSC titles and links, cursor moves), NUL, DEL, BEL,
    C1 controls (``\\x9b`` too) and carriage returns become visible escapes, so nothing
    from outside can restyle the terminal or overwrite a line; so do Unicode's format
    characters (bidi overrides and isolates, zero-width spaces), so no line can be made
    to read backwards or hide a word, and the line and paragraph separators, which YAML
    and some terminals take as line breaks; a lone surrogate becomes U+FFFD so the text
    can always be encoded.  Newlines and tabs are kept.  The one escaper of every
    renderer: text, Markdown, JSON strings shown on a terminal, comments in written YAML.
    """
    if text.isprintable() or not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(_escape_char, text)


def clean_name(name: str | os.PathLike[str]) -> str:
    """A file name (or any text that must stay on one line) safe to print: as
    :func:`clean_text`, and newlines and tabs escaped too, so a name holding a newline
    prints as one line that shows it."""
    text = os.fspath(name)
    if text.isprintable():
        return text
    return _UNSAFE_IN_A_LINE.sub(_escape_char, text)


def one_line(text: str) -> str:
    """:func:`clean_text` on one line: runs of whitespace (newlines too) become one space."""
    return " ".join(clean_text(text).split())


def clean_json(value: Any) -> Any:
    """A copy of a JSON value with :func:`clean_text` applied to every string (keys too)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_text(str(k)): clean_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean_json(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


# ---- writing files -------------------------------------------------------------------


def place(folder: Path, *names: str) -> Path:
    """Where the suite writes ``names`` (a folder, then a file) inside ``folder``: the one
    rule for every file the suite makes.

    Each name must be a plain name the suite made (no separator, no ``..``, no NUL, not
    hidden), so the result lies inside ``folder``; and no part of the way below
    ``folder`` may be a symbolic link, as ``new`` refuses a linked area: writing through
    a link would land outside the folder the user named, and replacing one would leave
    its target stale.  ``folder`` itself is the user's choice and is taken as named.
    Raises :class:`FileRefused` with a message for the user.
    """
    path = folder
    for name in names:
        if (
            not name
            or name in (".", "..")
            or name.startswith(".")
            or any(c in name for c in "/\\\0")
            or len(name.encode("utf-8", "surrogatepass")) > 255
        ):
            raise FileRefused(f"{clean_name(name)!r} is not a plain file name")
        path = path / name
        if os.path.islink(path):
            raise FileRefused(
                f"{clean_name(path)} is a symbolic link; the suite writes only into plain "
                "folders and files inside the folder named, never through a link"
            )
    return path


def atomic_write_text(path: Path, text: str, *, exclusive: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file beside it and a rename.

    Until the rename the previous file is untouched; a failure removes the temporary
    file.  With ``exclusive`` an existing ``path`` (even a dangling symbolic link)
    raises :class:`FileExistsError` instead of being replaced.  A ``path`` that leads to
    a device, a FIFO or a socket (``-o /dev/stdout``, ``-o /dev/null``) is written into
    as a shell's ``>`` would, never replaced by a file.
    """
    data = text.encode("utf-8")
    if not exclusive and _special(path):
        _write_into(path, data)
        return
    directory = path.parent
    import tempfile  # only a write needs it; reading and serving never do

    fd, temporary = tempfile.mkstemp(prefix=f".{path.name[:40]}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            os.chmod(temporary, 0o666 & ~_umask())
        if exclusive:
            os.link(temporary, path)  # fails if anything exists at ``path``
            os.unlink(temporary)
        else:
            if path.is_dir():
                raise IsADirectoryError(21, "Is a directory", str(path))
            os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _special(path: Path) -> bool:
    """Whether ``path`` is a stream to write into rather than a file to replace: it leads,
    through any links, to something that is neither a file nor a folder, or one of those
    links is the system's own, in ``/dev`` or ``/proc`` (``/dev/stdout`` leads to whatever
    standard output is, a file included, and replacing that link would break the machine
    for every program).  A plain file in ``/dev/shm`` is a file like any other."""
    try:
        mode = os.stat(path).st_mode
    except OSError:  # nothing there, or a system link to nothing (a closed stdout)
        return _through_system_link(path)
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)) or _through_system_link(path)


def _through_system_link(path: Path) -> bool:
    """Whether a symbolic link on the way from ``path`` to its target lies in ``/dev`` or
    ``/proc``."""
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on links in a row
        if current.startswith(("/dev/", "/proc/")) and os.path.islink(current):
            return True
        try:
            target = os.readlink(current)
        except OSError:  # not a link (or gone): the end of the chain
            return False
        current = os.path.abspath(os.path.join(os.path.dirname(current), target))
    return False


def _write_into(path: Path, data: bytes) -> None:
    """Write into a device, a FIFO or a redirected stream.  Opened without waiting, so
    that a FIFO nobody reads is an error rather than a hang, and for appending, so that a
    file standard output goes to keeps what it holds; then written in full (a slow reader
    is waited for)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        if error.errno == errno.ENXIO:  # a FIFO with no reader, or a socket
            raise OSError(errno.ENXIO, "nothing reads it (a FIFO or a socket)") from None
        raise
    try:
        os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


if sys.flags.int_max_str_digits not in (-1, 0):  # pragma: no cover - set by the environment
    MAX_INT_DIGITS = sys.flags.int_max_str_digits


# ---- signals ------------------------------------------------------------------------

_STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP while a child is started and recorded, or a message
    goes over a pipe.

    Their handlers raise (KeyboardInterrupt, or a command's stop exception).  Raised while
    ``Popen`` waits for the exec, or before the caller has recorded the new child, the
    exception would leave a running adapter that nothing kills; raised in the middle of a
    message on a pipe, it would leave half a message behind.  A signal arriving inside
    is noted and raised again, to its own handler, on the way out.  Masking the signals
    instead (``pthread_sigmask``) would be inherited by the adapter; an ignored signal is
    left ignored, so that the child inherits that as before.  Outside the main thread
    nothing changes.
    """
    caught: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous = {}
    try:
        for number in _STOP_SIGNALS:
            if signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, note)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        # Put every handler back before any signal can run one: one arriving half-way
        # would raise in here and leave the others noting signals for ever.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, previous) if previous else None
        try:
            for number, handler in previous.items():
                signal.signal(number, handler)
        finally:
            if blocked is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        for number in caught:
            signal.raise_signal(number)
