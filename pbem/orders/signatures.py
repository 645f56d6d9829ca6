"""Signing and verifying: Ed25519 signatures, and SSHSIG (`ssh-keygen -Y sign`) ones. Key files
are read and written by pbem.orders.keyfiles (its names are also importable from here).

Messages never contain key material: they name the file or the form expected, not the bytes.
"""

from __future__ import annotations

import base64
import hashlib
import re
import struct
from collections.abc import Callable, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from engine.core.errors import Verbatim
from pbem.errors import SignatureError
from pbem.lazy import lazy

# The key files' names, importable from here as before the split (pbem.orders.keyfiles).
from pbem.orders.keyfiles import KINDS as KINDS
from pbem.orders.keyfiles import SSH_KEY_TYPE as _SSH_KEY_TYPE
from pbem.orders.keyfiles import KeyFormatError as KeyFormatError
from pbem.orders.keyfiles import PublicKey as PublicKey
from pbem.orders.keyfiles import Reader as _Reader
from pbem.orders.keyfiles import b64 as _b64
from pbem.orders.keyfiles import b64decode as _b64decode
from pbem.orders.keyfiles import generate_keypair as generate_keypair
from pbem.orders.keyfiles import load_private_key as load_private_key
from pbem.orders.keyfiles import parse_public_key as parse_public_key
from pbem.orders.keyfiles import private_key_file_text as private_key_file_text
from pbem.orders.keyfiles import public_key_line as public_key_line
from pbem.orders.keyfiles import raw_public as _raw_public
from pbem.orders.keyfiles import ssh_public_blob as _ssh_public_blob
from pbem.orders.keyfiles import write_keypair as write_keypair

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

# libsodium loads on first use: reading a game never checks a signature.
_sodium = lazy("nacl.bindings")
_nacl_exceptions = lazy("nacl.exceptions")
_SIGNATURE_BYTES = 64
_KEY_BYTES = 32

NAMESPACE = "pbem"

SSH_BEGIN = "-----BEGIN SSH SIGNATURE-----"
SSH_END = "-----END SSH SIGNATURE-----"
_SSHSIG_MAGIC = b"SSHSIG"
_SSH_LINE = 70  # ssh-keygen wraps the armored base64 at 70 columns
_HASHES: Mapping[bytes, Callable[[bytes], bytes]] = MappingProxyType(
    {
        b"sha256": lambda data: hashlib.sha256(data).digest(),
        b"sha512": lambda data: hashlib.sha512(data).digest(),
    }
)


def sign(private: Ed25519PrivateKey, payload: bytes) -> str:
    """`ed25519 <base64 signature>` over the canonical payload. Ed25519 signatures are
    deterministic: libsodium writes OpenSSL's bytes, in two thirds of the time."""
    signed: bytes = _sodium.crypto_sign(payload, _sodium_secret(private))
    return f"ed25519 {_b64(signed[:_SIGNATURE_BYTES])}"


@lru_cache(maxsize=64)
def _sodium_secret(private: Ed25519PrivateKey) -> bytes:
    """libsodium's secret key (the seed and the public key) of a key object, made once per
    key object (self-play signs every block with a few keys)."""
    secret: bytes = _sodium.crypto_sign_seed_keypair(private.private_bytes_raw())[1]
    return secret


def verify(key: PublicKey, payload: bytes, signature: str) -> None:
    """Check an `ed25519 <b64>` or armored SSHSIG signature; SignatureError if it fails."""
    if ONE_LINE.fullmatch(signature):  # already canonical: decoded once, not three times
        _check(key.raw, base64.b64decode(signature[8:]), payload)
        return
    text = normalize_signature(signature)
    if text.startswith(SSH_BEGIN):
        _verify_sshsig(key, payload, text)
        return
    _check(key.raw, _b64decode(text.split()[1], SignatureError, "the signature"), payload)


# `ed25519 ` and the base64 of 64 bytes exactly as `_b64` writes it (86 characters, the last
# with its 2 unused bits zero, then `==`): the form normalize_signature returns, unchanged.
ONE_LINE = re.compile(r"ed25519 [A-Za-z0-9+/]{85}[AQgw]==")


def normalize_signature(text: str) -> str:
    """The one canonical form of a signature, whatever its wrapping; SignatureError if malformed.

    `ed25519 <b64>` on one line, or the SSHSIG armor re-wrapped as ssh-keygen writes it.
    """
    if ONE_LINE.fullmatch(text):  # what pbem writes and stores: already canonical
        return text
    lines = [line.strip() for line in text.replace("\r", "\n").split("\n")]
    lines = [line for line in lines if line]
    if not lines:
        raise SignatureError.keyed("reason:pbem.signature_empty")
    if lines[0].upper() == SSH_BEGIN:
        ends = [index for index, line in enumerate(lines) if line.upper() == SSH_END]
        if not ends:
            raise SignatureError.keyed("reason:pbem.sig_no_end", end=Verbatim(SSH_END))
        if ends[0] != len(lines) - 1:
            raise SignatureError.keyed("reason:pbem.sig_text_after", end=Verbatim(SSH_END))
        encoded = "".join("".join(lines[1 : ends[0]]).split())
        blob = _b64decode(encoded, SignatureError, "the SSH signature")
        if not blob.startswith(_SSHSIG_MAGIC):
            raise SignatureError.keyed("reason:pbem.sig_not_sshsig")
        return _armor(blob)
    words = " ".join(lines).split()
    if words[0].lower() != "ed25519" or len(words) < 2:
        raise SignatureError.keyed("reason:pbem.sig_form")
    raw = _b64decode("".join(words[1:]), SignatureError, "the signature")
    if len(raw) != 64:
        raise SignatureError.keyed("reason:pbem.sig_length", length=len(raw))
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


def _verify_sshsig(key: PublicKey, payload: bytes, armored: str) -> None:
    blob = base64.b64decode("".join(armored.splitlines()[1:-1]))
    reader = _Reader(blob)
    reader.take(len(_SSHSIG_MAGIC))
    version = reader.uint32()
    if version != 1:
        raise SignatureError.keyed("reason:pbem.sig_version", version=version)
    signer = _ssh_public_blob(reader.string(), SignatureError)
    namespace, reserved, algorithm = reader.string(), reader.string(), reader.string()
    signature_blob = reader.string()
    reader.finish("the SSH signature")
    if namespace != NAMESPACE.encode("ascii"):
        shown = namespace.decode("utf-8", "replace")[:40]
        raise SignatureError.keyed("reason:pbem.sig_namespace", shown=Verbatim(repr(shown)),
                                   namespace=Verbatim(repr(NAMESPACE)))
    if algorithm not in _HASHES:
        shown = algorithm.decode("utf-8", "replace")[:20]
        raise SignatureError.keyed("reason:pbem.sig_hash", shown=Verbatim(repr(shown)))
    if signer != key.raw:
        raise SignatureError.keyed("reason:pbem.sig_other_key")
    inner = _Reader(signature_blob)
    if inner.string() != _SSH_KEY_TYPE:
        raise SignatureError.keyed("reason:pbem.sig_not_ed25519")
    signature = inner.string()
    inner.finish("the SSH signature")
    _check(key.raw, signature, _sshsig_signed_data(namespace, reserved, algorithm, payload))


def _check(raw_key: bytes, signature: bytes, message: bytes) -> None:
    """libsodium's Ed25519 check (PyNaCl): half OpenSSL's time on these machines, and stricter
    (it also refuses small-order keys and points), so nothing OpenSSL refused passes."""
    if len(signature) != _SIGNATURE_BYTES or len(raw_key) != _KEY_BYTES:
        # crypto_sign_open reads the first 64 bytes of signature + message as the signature:
        # a short signature would borrow the message's first bytes.
        raise SignatureError.keyed("reason:pbem.bad_signature")
    try:
        _sodium.crypto_sign_open(signature + message, raw_key)
    except (_nacl_exceptions.CryptoError, ValueError):
        raise SignatureError.keyed("reason:pbem.bad_signature") from None


def _sshsig_signed_data(
    namespace: bytes, reserved: bytes, algorithm: bytes, payload: bytes
) -> bytes:
    digest = _HASHES[algorithm](payload)
    return b"".join(
        (_SSHSIG_MAGIC, _string(namespace), _string(reserved), _string(algorithm), _string(digest))
    )


def _armor(blob: bytes) -> str:
    encoded = _b64(blob)
    body = [encoded[start : start + _SSH_LINE] for start in range(0, len(encoded), _SSH_LINE)]
    return "\n".join([SSH_BEGIN, *body, SSH_END])


def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


