"""Writer locks across the processes sharing a game database: a byte of ``<db>.writers`` (the
file ``vedette serve`` makes beside the database), locked with an open-file-description lock
(Linux ``F_OFD_SETLKW``) on a descriptor its holder opens for itself. The lock belongs to that
descriptor, not to the process (two threads of one process never look to the kernel like one
process deadlocking with itself), a waiter is woken the moment the byte is let go, and the
kernel frees it if its holder dies.

Byte ``gid``: the writer of game ``gid`` (the web app's requests, ``web/sessions.py``). Byte
:data:`DATABASE`: the server processes' one write transaction of the database at a time
(``engine/store.py``): game ids start at 1, so it is never a game's."""

from __future__ import annotations

import os
import stat
import struct

try:
    import fcntl
except ImportError:  # not a POSIX system: no locks across processes (SQLite's own still hold)
    fcntl = None  # type: ignore[assignment]

#: file locks can be taken on this system
AVAILABLE = fcntl is not None
#: the byte of the database's write transaction
DATABASE = 0

OFD = getattr(fcntl, "F_OFD_SETLKW", None) if fcntl is not None else None


def lock_file(db: str) -> str:
    """The lock file of the database at ``db``."""
    return db + ".writers"


def open_private(path: str, create: bool = False) -> int:
    """A new descriptor of the lock file ``path``, opened without following a symlink and only
    if it is a regular file of this user that no one else can write (another user cannot plant
    one to freeze the games); ``OSError`` otherwise, or if it is missing and not ``create``."""
    flags = os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_CREAT if create else 0)
    fd = os.open(path, flags, 0o600)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        os.close(fd)
        raise PermissionError(f"{path} is not a private lock file of this user")
    return fd


def lock_byte(fd: int, offset: int) -> None:
    """Lock byte ``offset`` of the file for the open file description ``fd``, waiting for it
    (closing the description lets it go)."""
    assert fcntl is not None
    if OFD is not None:
        # struct flock: l_type, l_whence, l_start, l_len, l_pid (0 for an OFD lock)
        arg = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, offset, 1, 0)
        fcntl.fcntl(fd, OFD, arg)
    else:  # pragma: no cover - no OFD locks: the whole file, per description
        fcntl.flock(fd, fcntl.LOCK_EX)


def hold_database(db: str) -> int | None:
    """The database's write-transaction byte, locked on a descriptor of its own (close it to
    let go); None when there is nothing to lock: no lock file beside the database, an
    in-memory database, or no OFD locks on this system (the whole-file ``flock`` there would
    be held against the game lock its holder already has)."""
    if OFD is None or db == ":memory:":
        return None
    try:
        fd = open_private(lock_file(db))
    except OSError:
        return None
    try:
        lock_byte(fd, DATABASE)
    except BaseException:
        os.close(fd)
        raise
    return fd
