"""The Ed25519 check itself (libsodium through PyNaCl): it accepts what OpenSSL signs, and the
length guard keeps a short signature from borrowing the message's first bytes."""

from __future__ import annotations

import base64
import os

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import SignatureError
from pbem.orders import signatures


def test_every_openssl_signature_passes_and_any_flipped_bit_fails() -> None:
    for index in range(40):
        private = Ed25519PrivateKey.from_private_bytes(bytes([index + 1]) * 32)
        raw = private.public_key().public_bytes_raw()
        message = os.urandom(index * 7)
        signature = private.sign(message)
        signatures._check(raw, signature, message)  # no error: a good signature
        bit = index * 13 % (len(signature) * 8)
        flipped = bytearray(signature)
        flipped[bit // 8] ^= 1 << bit % 8
        with pytest.raises(SignatureError):
            signatures._check(raw, bytes(flipped), message)
        if message:
            with pytest.raises(SignatureError):
                signatures._check(raw, signature, message[:-1])


def test_a_short_signature_cannot_borrow_the_message() -> None:
    """libsodium reads the first 64 bytes of signature + message: 63 bytes of a real signature
    followed by a message that starts with its last byte would pass without the guard."""
    private = Ed25519PrivateKey.from_private_bytes(b"\x07" * 32)
    raw = private.public_key().public_bytes_raw()
    signed = b"the payload that was really signed"
    signature = private.sign(signed)
    with pytest.raises(SignatureError):
        signatures._check(raw, signature[:63], signature[63:] + signed)
    with pytest.raises(SignatureError):
        signatures._check(raw, signature + b"\x00", signed)


def test_keys_of_the_wrong_length_or_small_order_are_refused() -> None:
    private = Ed25519PrivateKey.from_private_bytes(b"\x09" * 32)
    raw = private.public_key().public_bytes_raw()
    signature = private.sign(b"m")
    for bad in (raw[:31], raw + b"\x00", bytes(32), b"\x01" + bytes(31)):  # the last two: order 1
        with pytest.raises(SignatureError):
            signatures._check(bad, signature, b"m")


def test_pbem_signs_the_bytes_openssl_signs() -> None:
    """Ed25519 is deterministic (RFC 8032): libsodium's signature is OpenSSL's, byte for byte."""
    for index in range(20):
        private = Ed25519PrivateKey.from_private_bytes(bytes([index + 40]) * 32)
        message = os.urandom(index * 11)
        assert signatures.sign(private, message) == \
            f"ed25519 {base64.b64encode(private.sign(message)).decode()}"
