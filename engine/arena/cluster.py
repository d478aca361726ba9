"""Games on an existing Dask cluster (``--scheduler tcp://HOST:PORT``), through its client's executor."""

from __future__ import annotations

import gc
import importlib
import re
import socket
import struct
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

from plyscope.engine.errors import UserError
from plyscope.engine.numbers import shown

CONNECT_SECONDS = 5.0
"""How long ``--scheduler`` waits for a TCP connection to the scheduler."""
HANDSHAKE_SECONDS = 3.0
"""How long it then waits for the scheduler's first message (a Dask scheduler speaks first)."""


def check_scheduler(address: str) -> None:
    """Raise ``UserError`` in one line unless a Dask scheduler answers at the TCP ``address`` (``tcp://HOST:PORT``).

    Dask's client, pointed at something else (an HTTP server, say), reads that server's bytes as
    message lengths and may try to allocate exabytes; so this connects first and reads the first
    bytes itself.  A Dask scheduler sends a handshake as soon as a connection is open: a message
    of 8 bytes of total length, 8 of frame count, then the frames' lengths and the frames.
    """
    if re.match(r"(tls|inproc|ws|wss|ucx)://", address):
        # Dask's other transports: nothing listening at HOST:PORT fails at once; the rest is left to Dask
        other = re.fullmatch(r"(?:tls|ws|wss|ucx)://([^:/\s]+|\[[0-9a-fA-F:.]+\]):([0-9]{1,5})/?", address.strip())
        if other is not None and 1 <= int(other.group(2)) <= 65535:
            _connect(address, other.group(1).strip("[]"), int(other.group(2))).close()
        return
    match = re.fullmatch(r"tcp://([^:/\s]+|\[[0-9a-fA-F:.]+\]):([0-9]{1,5})", address.strip())
    if match is None or not 1 <= int(match.group(2)) <= 65535:
        raise UserError(
            f"--scheduler '{shown(address, 60)}': write the address as tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"
        )
    connection = _connect(address, match.group(1).strip("[]"), int(match.group(2)))
    first = b""
    with connection:
        connection.settimeout(HANDSHAKE_SECONDS)
        try:
            while len(first) < 16:
                received = connection.recv(16 - len(first))
                if not received:
                    break
                first += received
        except TimeoutError:
            raise UserError(
                f"--scheduler {address}: connected, but no Dask handshake came within "
                f"{HANDSHAKE_SECONDS:g} s: something else listens there"
            ) from None
        except OSError as error:
            raise UserError(f"--scheduler {address}: the connection failed ({error.strerror or error})") from None
    if len(first) < 16:
        raise UserError(f"--scheduler {address}: the connection closed without a Dask handshake: not a Dask scheduler")
    total, frames = struct.unpack("<QQ", first)
    if not (16 <= total <= 1 << 20 and 1 <= frames <= 64):
        raise UserError(f"--scheduler {address}: something answers there, but not like a Dask scheduler")


def _connect(address: str, host: str, port: int) -> socket.socket:
    """A TCP connection to the scheduler at ``host``:``port``; ``UserError`` naming ``address`` if none is made
    within ``CONNECT_SECONDS``."""
    try:
        return socket.create_connection((host, port), timeout=CONNECT_SECONDS)
    except TimeoutError:
        raise UserError(f"--scheduler {shown(address, 60)}: no answer within {CONNECT_SECONDS:g} s") from None
    except (OSError, UnicodeError) as error:  # UnicodeError: a host name IDNA refuses (a label over 63 characters)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise UserError(f"--scheduler {shown(address, 60)}: cannot connect ({reason})") from None


@contextmanager
def dask_executor(address: str) -> Iterator[tuple[Executor, int]]:
    """The executor of the Dask cluster whose scheduler is at ``address``, and how many games to keep in flight
    there (two a thread); ``UserError`` in one line when Dask is missing or no scheduler answers there."""
    try:
        distributed = importlib.import_module("distributed")
    except ImportError:
        raise UserError(
            "--scheduler needs Dask distributed, an optional dependency: pip install 'plyscope[cluster]'"
        ) from None
    check_scheduler(address)
    reason = None
    try:
        client = distributed.Client(address, timeout="10s")
    except Exception as error:  # Dask's transports fail in many ways (TLS without a context, UCX not installed...)
        reason = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
    if reason is not None:
        # The half-made client's finaliser runs now: left to a later collection, it may run while another client
        # starts Dask's loop runner, and wait for a lock that start holds (a deadlock seen in the test suite).
        gc.collect()
        raise UserError(f"--scheduler {shown(address, 60)}: Dask cannot reach a scheduler there ({reason})")
    try:
        threads = sum(client.nthreads().values())
        executor = client.get_executor(pure=False)
        try:
            yield executor, max(2, 2 * threads)
        finally:
            executor.shutdown(wait=False)
    finally:
        client.close()
