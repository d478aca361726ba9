"""Writing files so that a reader (or a crash) never sees half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path | str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``: a reader sees the old file or the new one, never a mix.

    The text goes to a temporary file in the same directory, is flushed to disk, and then
    replaces ``path`` in one ``os.replace``; on any failure the temporary file is removed
    and ``path`` is left as it was.
    """
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or Path("."))
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
