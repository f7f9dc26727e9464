"""The hash functions vedette uses, without importing :mod:`hashlib` (start-up time, issue
26.8): importing hashlib loads OpenSSL (3-5 ms of every CLI step), while the interpreter's
builtin modules give the same BLAKE2b and SHA-256 (the same digests: they are the standard
functions). An interpreter built without them falls back to hashlib."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the builtin modules have no type information: hashlib's are the same)
    from hashlib import blake2b, sha256
else:
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - an interpreter without the builtin module
        from hashlib import blake2b
    try:  # Python 3.12 and later
        from _sha2 import sha256
    except ImportError:
        try:  # Python 3.11
            from _sha256 import sha256
        except ImportError:  # pragma: no cover - an interpreter without the builtin module
            from hashlib import sha256

__all__ = ["blake2b", "sha256"]
