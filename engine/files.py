"""Writing files so that a reader (or a crash) never sees half of one."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

import orjson

from plyscope.engine.collector import cyclic_gc_paused
from plyscope.engine.errors import UserError
from plyscope.engine.numbers import shown

KINDS = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}
"""What a path that is not a regular file is, for the message that refuses it."""


NUL = "\x00"
NUL_WORDS = "a file's name cannot hold a NUL character"
"""Why a path holding NUL is refused (the system calls take none: Python raises ``ValueError``)."""

MOST_SHOWN = 200
"""The most characters of a path a message quotes."""


class FileRefused(UserError):
    """A file that cannot be read as asked: missing, unreadable, not a regular file, or too large."""


NO_FILES = "files are off in a served session (plyscope serve --allow-files turns them on)"
"""Why a session ``plyscope serve`` started reads and writes no file."""

_files_off: str | None = None
"""Why this process reads and writes no file a user names (a session ``plyscope serve`` started); ``None``."""
_files_folder: Path | None = None
"""The one folder (resolved) whose files this process may read and write (a session ``plyscope serve
--allow-files`` started); ``None``: anywhere the user may."""


def set_files_off(reason: str | None) -> None:
    """From now on refuse every file read or written here with ``reason`` (``None``: allow them again)."""
    global _files_off
    _files_off = reason


def set_files_folder(folder: Path | str | None) -> None:
    """From now on read and write only files inside ``folder``, symbolic links resolved (``None``: anywhere)."""
    global _files_folder
    _files_folder = None if folder is None else Path(os.path.realpath(folder))


def _check_files_on(path: Path | str) -> None:
    """Refuse ``path`` when files are off, or when it is outside the one folder files are kept in (``..``, an
    absolute path elsewhere, a symbolic link that leads out)."""
    if _files_off is not None:
        raise FileRefused(_files_off)
    if _files_folder is None:
        return
    named = shown(path, MOST_SHOWN)
    if NUL in str(path):
        raise FileRefused(f"{named}: {NUL_WORDS}")
    real = os.path.realpath(path)
    if os.path.commonpath([real, _files_folder]) != str(_files_folder):
        raise FileRefused(
            f"{named} is outside {shown(_files_folder, MOST_SHOWN)}, the one folder files are kept in here"
        )


def read_regular_file(path: Path | str, limit: int, what: str) -> bytes:
    """The bytes of ``path``, which must be a regular file of at most ``limit`` bytes (``what`` it should be,
    e.g. ``a saved game``, names it in the messages).

    A named pipe, a device or a socket is refused at once, before it is opened (reading one
    could block for ever), and a file too large is refused without being read.  The file is
    opened without blocking and read at most ``limit + 1`` bytes, in case it changed since.
    """
    _check_files_on(path)
    named = shown(path, MOST_SHOWN)
    if NUL in str(path):
        raise FileRefused(f"cannot read {named}: {NUL_WORDS}")
    try:
        status = os.stat(path)
    except OSError as error:
        raise FileRefused(f"cannot read {named}: {error.strerror or error}") from None
    if not stat.S_ISREG(status.st_mode):
        kind = KINDS.get(stat.S_IFMT(status.st_mode), "not a regular file")
        raise FileRefused(f"{named} is {kind}, not a file: it cannot be {what}")
    if status.st_size > limit:
        raise FileRefused(f"{named}: {status.st_size:,} bytes is too large to be {what} (at most {limit:,})")
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(handle, "rb") as stream:
            data = stream.read(limit + 1)
    except OSError as error:
        raise FileRefused(f"cannot read {named}: {error.strerror or error}") from None
    if len(data) > limit:
        raise FileRefused(f"{named}: too large to be {what} (over {limit:,} bytes)")
    return data


class NotJson(ValueError):
    """Bytes that are not a JSON document of the kind asked for; the message says why in a few words (``not JSON
    (line 3: ...)``, ``not UTF-8 text``, ``nested more than 5 levels deep``)."""


ORJSON_NESTING = 1024
"""The deepest nesting orjson reads (arrays and objects one inside another, the document's own counted; deeper is
its ``depth limit exceeded``, since orjson 3.9.15)."""

BOM = "\ufeff"
"""The byte order mark some editors put at the start of a UTF-8 file (``EF BB BF``): not part of the text."""


def parse_json(data: bytes | str, nesting: int) -> object:
    """The JSON document ``data`` holds (UTF-8, a byte order mark at its start left out), nested at most
    ``nesting`` levels deep (the document itself is level 1: the deepest its format goes); raises ``NotJson`` for
    anything else.

    Read by orjson (a saved search of 100,000 steps is tens of megabytes: about three times faster than the
    standard library), with the cycle collector held off while it builds the document's objects (each
    collection would walk them all, for nothing).  The nesting is checked by orjson itself, for nothing: the
    text is read as the innermost item of ``ORJSON_NESTING - nesting`` arrays, so that it passes orjson's limit
    exactly when it is deeper than ``nesting`` (no walk over the document, which would cost about as much as
    reading it, and nothing nested deeper than its format reaches code that recurses over it).  Whatever a
    hostile file holds ends as ``NotJson``, never as another exception: text that is not UTF-8, bad syntax,
    nesting deeper than ``nesting``, ``NaN`` and ``Infinity`` (not JSON), and numbers such as ``1e400`` that
    are infinite as floats.  Integers past 64 bits are read as floats (the readers then refuse them as numbers
    of the wrong type).
    """
    assert 1 <= nesting < ORJSON_NESTING
    padding = ORJSON_NESTING - nesting
    unpadded: bytes | str
    if isinstance(data, str):
        unpadded = data.removeprefix(BOM)
        padded: bytes | str = "".join(("[" * padding, unpadded, "]" * padding))
    else:
        unpadded = data.removeprefix(BOM.encode())
        padded = b"".join((b"[" * padding, unpadded, b"]" * padding))
    with cyclic_gc_paused():
        try:
            try:
                document = orjson.loads(padded)
            except orjson.JSONDecodeError as error:
                if "depth limit" not in error.msg:
                    orjson.loads(unpadded)  # raises, saying what is wrong with the text itself ("[1," ends early)
                raise NotJson(f"nested more than {nesting} levels deep, deeper than the format goes") from None
            for _ in range(padding):
                if type(document) is not list or len(document) != 1:  # not one document ("", "1, 2"): orjson says so
                    orjson.loads(unpadded)
                document = document[0]
            return document
        except orjson.JSONDecodeError as error:
            raise NotJson(_json_error(error)) from None


def _json_error(error: orjson.JSONDecodeError) -> str:
    """What is wrong, in a few words, with the line it is on."""
    if "UTF-8" in error.msg:
        return "not UTF-8 text"
    return f"not JSON (line {error.lineno}: {error.msg})"


def _not_a_file(path: Path | str) -> str | None:
    """What ``path`` is when something other than a regular file is there (``a named pipe``...), else ``None``."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else KINDS.get(stat.S_IFMT(mode), "not a regular file")


def check_writable(name: str, option: str) -> Path:
    """The path ``name`` names, if ``write_atomic`` can write a file there; raises ``FileRefused`` (one line,
    starting with ``option``) before any work is done otherwise.

    Refused: no name, a name ending in ``/``, a folder, a named pipe or a device (replacing one
    with a file would be wrong; as root, ``/dev/null`` itself would be replaced), a folder that
    does not exist, and a folder where no file can be made (read-only, ``/proc``, a name too
    long): a temporary file is made there, as ``write_atomic`` will, and removed at once.
    """
    _check_files_on(name)
    quoted = f"{option} '{name}'" if not name.strip() else f"{option} {shown(name, MOST_SHOWN)}"
    if not name.strip():
        raise FileRefused(f"{quoted}: no file name")
    path = Path(name)
    kind = _not_a_file(path)
    if kind is not None:
        raise FileRefused(f"{quoted} is {kind}, not a file: it cannot be written")
    if name.endswith(("/", os.sep)):
        raise FileRefused(f"{quoted} ends in '/': that names a folder, not a file")
    folder = path.parent
    if not folder.is_dir():
        raise FileRefused(f"{quoted}: the folder {shown(folder, MOST_SHOWN)} does not exist")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise FileRefused(f"{quoted}: cannot write there ({error.strerror or error})") from None
    os.close(handle)
    Path(temporary).unlink(missing_ok=True)
    return path


def _mode_for(path: Path) -> int:
    """The permissions a save at ``path`` gets: those of the file it replaces, else as a new file (the umask's)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomic(path: Path | str, text: str | bytes, *, named_by_user: bool = True) -> None:
    """Write ``text`` (UTF-8; or bytes as they are: an image) to ``path``: a reader sees the old file or the new
    one, never a mix.

    The text goes to a temporary file in the same directory, is flushed to disk, and then
    replaces ``path`` in one ``os.replace``; on any failure the temporary file is removed
    and ``path`` is left as it was.  Something there that is not a regular file (a named pipe,
    a device, a folder) is not replaced: ``OSError`` says what it is.  A file the program names
    itself (``named_by_user=False``: a crash report) is written even where files a user names are
    refused (a served session).
    """
    if named_by_user:
        _check_files_on(path)
    if NUL in str(path):
        raise OSError(errno.EINVAL, NUL_WORDS, str(path))
    path = Path(path)
    kind = _not_a_file(path)
    if kind is not None:
        raise OSError(errno.EEXIST, f"it is {kind}, not a file", str(path))
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or Path("."))
    try:
        os.fchmod(handle, _mode_for(path))  # mkstemp's 0600 would make every save private to its writer
        with os.fdopen(handle, "wb") as stream:
            stream.write(text.encode() if isinstance(text, str) else text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
