"""Ed25519 key files: making a pair (NAME.key, NAME.pub), reading a private key, and reading a
public key line with its comment (`NAME (lang=hu) <ADDR>`: the owner's name, language and
address). Signing and verifying are in pbem.orders.signatures; the SSH wire reader is here
because an OpenSSH public key line needs it too.

Messages never contain key material: they name the file or the form expected, not the bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
import struct
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, cast

from engine.core.records import dataclass_on_first_use
from pbem.errors import SignatureError, UsageError
from pbem.lazy import lazy

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

# cryptography loads on first use: reading a game (status, options, report) never needs it.
_exceptions = lazy("cryptography.exceptions")
_ed25519 = lazy("cryptography.hazmat.primitives.asymmetric.ed25519")


def _serialization() -> ModuleType:
    # Not lazy(): this package puts itself into sys.modules while loading, which LazyLoader refuses.
    from cryptography.hazmat.primitives import serialization
    return serialization


KINDS = ("ed25519", "ssh-ed25519")
SSH_KEY_TYPE = b"ssh-ed25519"
_EMAIL = re.compile(r"[^\s<>@]+@[^\s<>@]+")
# A language preference in a key's comment, before the address: `Ada (lang=hu) <ada@...>`.
_LANGUAGE = re.compile(r"\(lang=([a-z]{2,3}(?:_[A-Z]{2})?)\)")


class KeyFormatError(UsageError, ValueError):
    """A public key line that is not in one of the accepted forms."""


@dataclass_on_first_use(frozen=True)
class PublicKey:
    kind: str  # "ed25519" (our format) or "ssh-ed25519"
    raw: bytes  # the 32 raw public key bytes
    name: str | None = None
    email: str | None = None
    language: str | None = None  # the owner's reading language, from `(lang=hu)` in the comment

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise KeyFormatError(f"unsupported key type {self.kind!r} (expected ed25519)")
        if len(self.raw) != 32:
            raise KeyFormatError(f"an ed25519 public key has 32 bytes, not {len(self.raw)}")

    def roster_text(self) -> str:
        """The form stored in the game file's roster; the same for both kinds."""
        return f"ed25519 {b64(self.raw)}"

    def fingerprint(self) -> str:
        """OpenSSH's form, as `ssh-keygen -lf KEY.pub` prints it: SHA-256 of the key's wire
        blob (string "ssh-ed25519", string key), base64 without padding."""
        blob = b"".join(len(part).to_bytes(4, "big") + part for part in (b"ssh-ed25519", self.raw))
        return "SHA256:" + b64(hashlib.sha256(blob).digest()).rstrip("=")


def generate_keypair() -> tuple[bytes, bytes]:
    """(private key file bytes, raw 32-byte public key)."""
    private = _ed25519.Ed25519PrivateKey.generate()
    return private_key_file_text(private).encode("ascii"), raw_public(private)


def private_key_file_text(private: Ed25519PrivateKey) -> str:
    """Unencrypted PKCS#8 PEM: the file is protected by its mode, like an SSH key."""
    pem = private.private_bytes(_serialization().Encoding.PEM, _serialization().PrivateFormat.PKCS8,
                          _serialization().NoEncryption())
    return pem.decode("ascii")


def public_key_line(raw: bytes, name: str, email: str | None,
                    language: str | None = None) -> str:
    """`ed25519 BASE64 NAME (lang=LANG) <ADDR>`, without ` (lang=LANG)` when no language is
    given and without ` <ADDR>` when there is no address."""
    key = PublicKey("ed25519", raw)
    if any(char in name for char in "<>") or not name.isprintable():
        raise KeyFormatError("a key name must be printable and hold no '<' or '>'")
    if email is not None and not _EMAIL.fullmatch(email):
        raise KeyFormatError(f"{email!r} does not look like a mail address")
    if language is not None and not _LANGUAGE.fullmatch(f"(lang={language})"):
        raise KeyFormatError(f"{language[:20]!r} is not a language code such as 'hu'")
    parts = [key.roster_text(), name.strip()]
    if language is not None:
        parts.append(f"(lang={language})")
    if email is not None:
        parts.append(f"<{email}>")
    return " ".join(part for part in parts if part)


def write_keypair(directory_or_prefix: Path, name: str, email: str | None,
                  language: str | None = None) -> tuple[Path, Path]:
    """Write NAME.key (mode 0600) and NAME.pub; never overwrite an existing file.

    A directory gets `NAME.key` and `NAME.pub` inside it; any other path is a prefix
    (`keys/ada` gives `keys/ada.key`).
    """
    try:
        key_path, pub_path = _new_key_paths(directory_or_prefix, name)
    except OSError as error:  # a name too long for the file system, say
        raise UsageError(f"{str(directory_or_prefix / name)[:60]!r} cannot be used for a key "
                         f"file: {error.strerror or error}") from None
    private = _ed25519.Ed25519PrivateKey.generate()
    pub_text = public_key_line(raw_public(private), name, email, language) + "\n"
    _write_new(key_path, private_key_file_text(private).encode("ascii"), 0o600)
    try:
        _write_new(pub_path, pub_text.encode("utf-8"), 0o644)
    except UsageError:
        key_path.unlink()  # never leave half a pair behind
        raise
    return key_path, pub_path


def _new_key_paths(directory_or_prefix: Path, name: str) -> tuple[Path, Path]:
    if directory_or_prefix.is_dir():
        if not name or name in (".", "..") or any(char in name for char in "/\\\0"):
            raise UsageError(f"{name!r} cannot be used as a key file name")
        base = directory_or_prefix / name
    else:
        base = directory_or_prefix
    key_path = base.with_name(base.name + ".key")
    pub_path = base.with_name(base.name + ".pub")
    for path in (key_path, pub_path):
        if path.exists():
            raise UsageError(f"{path} already exists; remove it first to make a new key")
    return key_path, pub_path


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """Our PEM key file, or an unencrypted OpenSSH ed25519 key made by ssh-keygen."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read key file {path}: {error.strerror}") from None
    private: object
    try:
        if data.lstrip().startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----"):
            private = _serialization().load_ssh_private_key(data, password=None)
        else:
            private = _serialization().load_pem_private_key(data, password=None)
    except TypeError:
        raise UsageError(f"key file {path} is encrypted; pbem needs an unencrypted key") from None
    except (ValueError, _exceptions.UnsupportedAlgorithm):
        # The library's message is not shown: it could quote part of the file.
        raise UsageError(f"key file {path} is not an ed25519 private key") from None
    if not isinstance(private, _ed25519.Ed25519PrivateKey):
        raise UsageError(f"key file {path} holds a key of another type; pbem needs ed25519")
    return cast("Ed25519PrivateKey", private)


@lru_cache(maxsize=256)
def parse_public_key(text: str) -> PublicKey:
    """Read `ed25519 BASE64 [NAME] [<ADDR>]` or an OpenSSH `ssh-ed25519 AAAA... comment` line.
    Cached: a key is frozen, and verify reads each player's key for every block."""
    line = text.strip()
    parts = line.split(None, 2)
    if len(parts) < 2 or "\n" in line:
        raise KeyFormatError(
            "a public key is one line: 'ed25519 BASE64 NAME <ADDR>' or 'ssh-ed25519 AAAA... NAME'"
        )
    kind, encoded = parts[0], parts[1]
    comment = parts[2] if len(parts) == 3 else ""
    if kind == "ed25519":
        raw = b64decode(encoded, KeyFormatError, "the public key")
    elif kind == "ssh-ed25519":
        raw = ssh_public_blob(b64decode(encoded, KeyFormatError, "the public key"))
    else:
        raise KeyFormatError(
            f"unsupported key type {kind[:30]!r} (expected ed25519 or ssh-ed25519)"
        )
    if len(raw) != 32:
        raise KeyFormatError(f"an ed25519 public key has 32 bytes, not {len(raw)}")
    name, email = _split_comment(comment)
    name, language = _split_language(name)
    return PublicKey(kind, raw, name, email, language)


class Reader:
    """SSH wire format: uint32 lengths, then bytes."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._position = 0

    def take(self, count: int) -> bytes:
        if self._position + count > len(self._data):
            raise SignatureError("the SSH signature is truncated")
        chunk = self._data[self._position : self._position + count]
        self._position += count
        return chunk

    def uint32(self) -> int:
        value: int = struct.unpack(">I", self.take(4))[0]
        return value

    def string(self) -> bytes:
        return self.take(self.uint32())

    def finish(self, what: str) -> None:
        if self._position != len(self._data):
            raise SignatureError(f"{what} has trailing bytes")


def ssh_public_blob(blob: bytes, error: type[Exception] = KeyFormatError) -> bytes:
    """The 32 raw bytes inside an ssh-ed25519 public key blob."""
    try:
        reader = Reader(blob)
        key_type, raw = reader.string(), reader.string()
        reader.finish("the public key")
    except SignatureError:
        raise error("the ssh-ed25519 public key is truncated or has trailing bytes") from None
    if key_type != SSH_KEY_TYPE or len(raw) != 32:
        raise error("the key is not a valid ssh-ed25519 key")
    return raw


def _split_comment(comment: str) -> tuple[str | None, str | None]:
    """`Ada Lovelace <ada@example.org>` -> name and address; a bare address is both."""
    comment = comment.strip()
    # `NAME <ADDR>` with the address in the last <...>; no regex: `(.*?)\s*<...>` is
    # quadratic on a long comment.
    start = comment.rfind("<")
    if comment.endswith(">") and start >= 0 and ">" not in comment[start + 1 : -1]:
        return comment[:start].strip() or None, comment[start + 1 : -1].strip() or None
    if _EMAIL.fullmatch(comment):
        return comment, comment
    return comment or None, None


def _split_language(name: str | None) -> tuple[str | None, str | None]:
    """`Ada (lang=hu)` -> the name and the language; a name without one is as it was."""
    if name is None or not name.endswith(")"):
        return name, None
    start = name.rfind("(lang=")
    found = _LANGUAGE.fullmatch(name[start:]) if start >= 0 else None
    if found is None:
        return name, None
    return name[:start].strip() or None, found.group(1)


def raw_public(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(_serialization().Encoding.Raw,
                                            _serialization().PublicFormat.Raw)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64decode(text: str, error: type[Exception], what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise error(f"{what} is not valid base64") from None


def _write_new(path: Path, data: bytes, mode: int) -> None:
    """Create `path` exclusively with `mode`, so a key file is never readable by others."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        raise UsageError(f"{path} already exists; remove it first to make a new key") from None
    except OSError as error:
        raise UsageError(f"cannot create {path}: {error.strerror}") from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            if not mode & 0o077:
                os.fchmod(handle.fileno(), mode)  # exactly 0600 whatever the umask
            handle.write(data)
    except OSError as error:
        path.unlink(missing_ok=True)
        raise UsageError(f"cannot write {path}: {error.strerror}") from None

