"""Ed25519 keys, key files, signing and verifying; SSHSIG (`ssh-keygen -Y sign`) verification.

Messages never contain key material: they name the file or the form expected, not the bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
    load_ssh_private_key,
)

from pbem.errors import SignatureError, UsageError

NAMESPACE = "pbem"
KINDS = ("ed25519", "ssh-ed25519")

SSH_BEGIN = "-----BEGIN SSH SIGNATURE-----"
SSH_END = "-----END SSH SIGNATURE-----"
_SSHSIG_MAGIC = b"SSHSIG"
_SSH_KEY_TYPE = b"ssh-ed25519"
_SSH_LINE = 70  # ssh-keygen wraps the armored base64 at 70 columns
_HASHES: Mapping[bytes, Callable[[bytes], bytes]] = MappingProxyType(
    {
        b"sha256": lambda data: hashlib.sha256(data).digest(),
        b"sha512": lambda data: hashlib.sha512(data).digest(),
    }
)
_EMAIL = re.compile(r"[^\s<>@]+@[^\s<>@]+")


class KeyFormatError(UsageError, ValueError):
    """A public key line that is not in one of the accepted forms."""


@dataclass(frozen=True)
class PublicKey:
    kind: str  # "ed25519" (our format) or "ssh-ed25519"
    raw: bytes  # the 32 raw public key bytes
    name: str | None = None
    email: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise KeyFormatError(f"unsupported key type {self.kind!r} (expected ed25519)")
        if len(self.raw) != 32:
            raise KeyFormatError(f"an ed25519 public key has 32 bytes, not {len(self.raw)}")

    def roster_text(self) -> str:
        """The form stored in the game file's roster; the same for both kinds."""
        return f"ed25519 {_b64(self.raw)}"

    def fingerprint(self) -> str:
        """OpenSSH's form, as `ssh-keygen -lf KEY.pub` prints it: SHA-256 of the key's wire
        blob (string "ssh-ed25519", string key), base64 without padding."""
        blob = b"".join(len(part).to_bytes(4, "big") + part for part in (b"ssh-ed25519", self.raw))
        return "SHA256:" + _b64(hashlib.sha256(blob).digest()).rstrip("=")


def generate_keypair() -> tuple[bytes, bytes]:
    """(private key file bytes, raw 32-byte public key)."""
    private = Ed25519PrivateKey.generate()
    return private_key_file_text(private).encode("ascii"), _raw_public(private)


def private_key_file_text(private: Ed25519PrivateKey) -> str:
    """Unencrypted PKCS#8 PEM: the file is protected by its mode, like an SSH key."""
    pem = private.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    return pem.decode("ascii")


def public_key_line(raw: bytes, name: str, email: str | None) -> str:
    """`ed25519 BASE64 NAME <ADDR>`, without ` <ADDR>` when there is no address."""
    key = PublicKey("ed25519", raw)
    if any(char in name for char in "<>") or not name.isprintable():
        raise KeyFormatError("a key name must be printable and hold no '<' or '>'")
    if email is not None and not _EMAIL.fullmatch(email):
        raise KeyFormatError(f"{email!r} does not look like a mail address")
    parts = [key.roster_text(), name.strip()]
    if email is not None:
        parts.append(f"<{email}>")
    return " ".join(part for part in parts if part)


def write_keypair(directory_or_prefix: Path, name: str, email: str | None) -> tuple[Path, Path]:
    """Write NAME.key (mode 0600) and NAME.pub; never overwrite an existing file.

    A directory gets `NAME.key` and `NAME.pub` inside it; any other path is a prefix
    (`keys/ada` gives `keys/ada.key`).
    """
    try:
        key_path, pub_path = _new_key_paths(directory_or_prefix, name)
    except OSError as error:  # a name too long for the file system, say
        raise UsageError(f"{str(directory_or_prefix / name)[:60]!r} cannot be used for a key "
                         f"file: {error.strerror or error}") from None
    private = Ed25519PrivateKey.generate()
    pub_text = public_key_line(_raw_public(private), name, email) + "\n"
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
            private = load_ssh_private_key(data, password=None)
        else:
            private = load_pem_private_key(data, password=None)
    except TypeError:
        raise UsageError(f"key file {path} is encrypted; pbem needs an unencrypted key") from None
    except (ValueError, UnsupportedAlgorithm):
        # The library's message is not shown: it could quote part of the file.
        raise UsageError(f"key file {path} is not an ed25519 private key") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise UsageError(f"key file {path} holds a key of another type; pbem needs ed25519")
    return private


def parse_public_key(text: str) -> PublicKey:
    """Read `ed25519 BASE64 [NAME] [<ADDR>]` or an OpenSSH `ssh-ed25519 AAAA... comment` line."""
    line = text.strip()
    parts = line.split(None, 2)
    if len(parts) < 2 or "\n" in line:
        raise KeyFormatError(
            "a public key is one line: 'ed25519 BASE64 NAME <ADDR>' or 'ssh-ed25519 AAAA... NAME'"
        )
    kind, encoded = parts[0], parts[1]
    comment = parts[2] if len(parts) == 3 else ""
    if kind == "ed25519":
        raw = _b64decode(encoded, KeyFormatError, "the public key")
    elif kind == "ssh-ed25519":
        raw = _ssh_public_blob(_b64decode(encoded, KeyFormatError, "the public key"))
    else:
        raise KeyFormatError(
            f"unsupported key type {kind[:30]!r} (expected ed25519 or ssh-ed25519)"
        )
    if len(raw) != 32:
        raise KeyFormatError(f"an ed25519 public key has 32 bytes, not {len(raw)}")
    name, email = _split_comment(comment)
    return PublicKey(kind, raw, name, email)


def sign(private: Ed25519PrivateKey, payload: bytes) -> str:
    """`ed25519 <base64 signature>` over the canonical payload."""
    return f"ed25519 {_b64(private.sign(payload))}"


def verify(key: PublicKey, payload: bytes, signature: str) -> None:
    """Check an `ed25519 <b64>` or armored SSHSIG signature; SignatureError if it fails."""
    text = normalize_signature(signature)
    if text.startswith(SSH_BEGIN):
        _verify_sshsig(key, payload, text)
        return
    _check(key.raw, _b64decode(text.split()[1], SignatureError, "the signature"), payload)


def normalize_signature(text: str) -> str:
    """The one canonical form of a signature, whatever its wrapping; SignatureError if malformed.

    `ed25519 <b64>` on one line, or the SSHSIG armor re-wrapped as ssh-keygen writes it.
    """
    lines = [line.strip() for line in text.replace("\r", "\n").split("\n")]
    lines = [line for line in lines if line]
    if not lines:
        raise SignatureError("the signature is empty")
    if lines[0].upper() == SSH_BEGIN:
        ends = [index for index, line in enumerate(lines) if line.upper() == SSH_END]
        if not ends:
            raise SignatureError(f"the SSH signature has no {SSH_END!r} line")
        if ends[0] != len(lines) - 1:
            raise SignatureError(f"there is text after the {SSH_END!r} line")
        encoded = "".join("".join(lines[1 : ends[0]]).split())
        blob = _b64decode(encoded, SignatureError, "the SSH signature")
        if not blob.startswith(_SSHSIG_MAGIC):
            raise SignatureError("the SSH signature is not in SSHSIG format")
        return _armor(blob)
    words = " ".join(lines).split()
    if words[0].lower() != "ed25519" or len(words) < 2:
        raise SignatureError("a signature must be 'ed25519 <base64>' or an armored SSH signature")
    raw = _b64decode("".join(words[1:]), SignatureError, "the signature")
    if len(raw) != 64:
        raise SignatureError(f"an ed25519 signature has 64 bytes, not {len(raw)}")
    return f"ed25519 {_b64(raw)}"


def sshsig_armor(
    private: Ed25519PrivateKey,
    payload: bytes,
    namespace: str = NAMESPACE,
    *,
    hash_algorithm: str = "sha512",
) -> str:
    """An armored SSHSIG over `payload`, as `ssh-keygen -Y sign -n NAMESPACE` would write it."""
    algorithm = hash_algorithm.encode("ascii")
    if algorithm not in _HASHES:
        raise ValueError(f"hash algorithm must be sha256 or sha512, not {hash_algorithm!r}")
    ns = namespace.encode("utf-8")
    signature = private.sign(_sshsig_signed_data(ns, b"", algorithm, payload))
    blob = b"".join(
        (
            _SSHSIG_MAGIC,
            struct.pack(">I", 1),
            _string(_string(_SSH_KEY_TYPE) + _string(_raw_public(private))),
            _string(ns),
            _string(b""),
            _string(algorithm),
            _string(_string(_SSH_KEY_TYPE) + _string(signature)),
        )
    )
    return _armor(blob)


class _Reader:
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


def _verify_sshsig(key: PublicKey, payload: bytes, armored: str) -> None:
    blob = base64.b64decode("".join(armored.splitlines()[1:-1]))
    reader = _Reader(blob)
    reader.take(len(_SSHSIG_MAGIC))
    version = reader.uint32()
    if version != 1:
        raise SignatureError(f"SSH signature version {version} is not supported (expected 1)")
    signer = _ssh_public_blob(reader.string(), SignatureError)
    namespace, reserved, algorithm = reader.string(), reader.string(), reader.string()
    signature_blob = reader.string()
    reader.finish("the SSH signature")
    if namespace != NAMESPACE.encode("ascii"):
        shown = namespace.decode("utf-8", "replace")[:40]
        raise SignatureError(f"the SSH signature is for namespace {shown!r}, not {NAMESPACE!r}")
    if algorithm not in _HASHES:
        shown = algorithm.decode("utf-8", "replace")[:20]
        raise SignatureError(f"the SSH signature uses hash {shown!r}; expected sha256 or sha512")
    if signer != key.raw:
        raise SignatureError("the SSH signature was made with another key than the player's")
    inner = _Reader(signature_blob)
    if inner.string() != _SSH_KEY_TYPE:
        raise SignatureError("the SSH signature is not an ssh-ed25519 signature")
    signature = inner.string()
    inner.finish("the SSH signature")
    _check(key.raw, signature, _sshsig_signed_data(namespace, reserved, algorithm, payload))


def _check(raw_key: bytes, signature: bytes, message: bytes) -> None:
    try:
        Ed25519PublicKey.from_public_bytes(raw_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        raise SignatureError(
            "bad signature: the block was changed after signing, or signed with another key"
        ) from None


def _sshsig_signed_data(
    namespace: bytes, reserved: bytes, algorithm: bytes, payload: bytes
) -> bytes:
    digest = _HASHES[algorithm](payload)
    return b"".join(
        (_SSHSIG_MAGIC, _string(namespace), _string(reserved), _string(algorithm), _string(digest))
    )


def _ssh_public_blob(blob: bytes, error: type[Exception] = KeyFormatError) -> bytes:
    """The 32 raw bytes inside an ssh-ed25519 public key blob."""
    try:
        reader = _Reader(blob)
        key_type, raw = reader.string(), reader.string()
        reader.finish("the public key")
    except SignatureError:
        raise error("the ssh-ed25519 public key is truncated or has trailing bytes") from None
    if key_type != _SSH_KEY_TYPE or len(raw) != 32:
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


def _armor(blob: bytes) -> str:
    encoded = _b64(blob)
    body = [encoded[start : start + _SSH_LINE] for start in range(0, len(encoded), _SSH_LINE)]
    return "\n".join([SSH_BEGIN, *body, SSH_END])


def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def _raw_public(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _b64decode(text: str, error: type[Exception], what: str) -> bytes:
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
