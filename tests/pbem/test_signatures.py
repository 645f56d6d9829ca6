"""Keys, key files, Ed25519 signatures and SSHSIG signatures (ours and ssh-keygen's)."""

from __future__ import annotations

import base64
import shutil
import stat
import struct
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import ExitCode, SignatureError, UsageError
from pbem.orders.orderblock import canonical_payload, find_blocks, format_block
from pbem.orders.signatures import (
    NAMESPACE,
    KeyFormatError,
    PublicKey,
    generate_keypair,
    load_private_key,
    normalize_signature,
    parse_public_key,
    private_key_file_text,
    public_key_line,
    sign,
    sshsig_armor,
    verify,
    write_keypair,
)

PAYLOAD = canonical_payload("lisbon-2027", "medici", 17, "9c1f2a7b3d4e5f60", ["buy west 2", "end"])
SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(
    SSH_KEYGEN is None, reason="ssh-keygen is not installed, so no real SSH signature to check"
)


def keypair(seed: int = 1) -> tuple[Ed25519PrivateKey, PublicKey]:
    private = Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32)
    return private, PublicKey("ed25519", private.public_key().public_bytes_raw(), "Ada", None)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def test_sign_verify_round_trip() -> None:
    private, public = keypair()
    signature = sign(private, PAYLOAD)
    assert signature.startswith("ed25519 ") and len(signature.split()[1]) == 88
    verify(public, PAYLOAD, signature)
    verify(public, PAYLOAD, signature[:30] + "\n  " + signature[30:])  # rewrapped still fine


def test_tampered_payload_fails() -> None:
    private, public = keypair()
    with pytest.raises(SignatureError, match="bad signature"):
        verify(public, PAYLOAD.replace(b"west 2", b"west 3"), sign(private, PAYLOAD))


def test_wrong_key_fails() -> None:
    private, _ = keypair(1)
    _, other = keypair(2)
    with pytest.raises(SignatureError, match="bad signature"):
        verify(other, PAYLOAD, sign(private, PAYLOAD))


@pytest.mark.parametrize(
    ("signature", "message"),
    [
        ("", "empty"),
        ("ed25519 not*base64", "not valid base64"),
        ("ed25519 " + b64(b"short"), "64 bytes, not 5"),
        ("rsa " + b64(bytes(64)), "must be 'ed25519 <base64>'"),
        ("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n", "no '-----END SSH SIGNATURE-----'"),
        ("-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----", "not in SSHSIG"),
    ],
)
def test_malformed_signatures(signature: str, message: str) -> None:
    _, public = keypair()
    with pytest.raises(SignatureError, match=message) as caught:
        verify(public, PAYLOAD, signature)
    assert caught.value.exit_code == ExitCode.BAD_BLOCK and "\n" not in str(caught.value)


@pytest.mark.parametrize("algorithm", ["sha512", "sha256"])
def test_sshsig_round_trip(algorithm: str) -> None:
    private, public = keypair()
    armored = sshsig_armor(private, PAYLOAD, hash_algorithm=algorithm)
    lines = armored.splitlines()
    assert (
        lines[0] == "-----BEGIN SSH SIGNATURE-----" and lines[-1] == "-----END SSH SIGNATURE-----"
    )
    assert all(len(line) <= 70 for line in lines[1:-1])
    verify(public, PAYLOAD, armored)
    with pytest.raises(SignatureError, match="bad signature"):
        verify(public, PAYLOAD + b"pawn florence\n", armored)


def test_sshsig_wrong_namespace_fails() -> None:
    private, public = keypair()
    with pytest.raises(SignatureError, match="namespace 'file', not 'pbem'"):
        verify(public, PAYLOAD, sshsig_armor(private, PAYLOAD, namespace="file"))


def test_sshsig_by_another_key_fails() -> None:
    private, _ = keypair(1)
    _, other = keypair(2)
    with pytest.raises(SignatureError, match="another key"):
        verify(other, PAYLOAD, sshsig_armor(private, PAYLOAD))


def test_sshsig_with_trailing_bytes_or_truncated_fails() -> None:
    private, public = keypair()
    blob = base64.b64decode("".join(sshsig_armor(private, PAYLOAD).splitlines()[1:-1]))
    for bad in (blob + b"\0", blob[:-10], blob[:6] + struct.pack(">I", 2) + blob[10:]):
        armored = f"-----BEGIN SSH SIGNATURE-----\n{b64(bad)}\n-----END SSH SIGNATURE-----"
        with pytest.raises(SignatureError, match="trailing|truncated|version 2"):
            verify(public, PAYLOAD, armored)


def _ssh_keygen(*args: str, cwd: Path) -> None:
    assert SSH_KEYGEN is not None
    subprocess.run([SSH_KEYGEN, *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@needs_ssh_keygen
def test_real_ssh_keygen_signature_verifies(tmp_path: Path) -> None:
    _ssh_keygen("-q", "-t", "ed25519", "-N", "", "-C", "ada@example.org", "-f", "id", cwd=tmp_path)
    (tmp_path / "orders").write_bytes(PAYLOAD)
    _ssh_keygen("-Y", "sign", "-f", "id", "-n", NAMESPACE, "orders", cwd=tmp_path)
    public = parse_public_key((tmp_path / "id.pub").read_text())
    assert (public.kind, public.name, public.email) == (
        "ssh-ed25519",
        "ada@example.org",
        "ada@example.org",
    )
    armored = (tmp_path / "orders.sig").read_text()
    verify(public, PAYLOAD, armored)
    assert normalize_signature(armored) == armored.strip()  # same wrapping as ssh-keygen
    # The same signature, carried in a block, still verifies against the roster form.
    lines = ["buy west 2", "end"]
    block_text = format_block("lisbon-2027", "medici", 17, "9c1f2a7b3d4e5f60", lines, armored)
    block = find_blocks("> " + block_text.replace("\n", "\r\n> "))[0]
    verify(parse_public_key(public.roster_text()), block.payload(), block.signature or "")
    with pytest.raises(SignatureError, match="bad signature"):
        verify(public, PAYLOAD.replace(b"end", b"pass"), armored)
    # A key made by ssh-keygen also works as a pbem signing key.
    private = load_private_key(tmp_path / "id")
    verify(public, PAYLOAD, sign(private, PAYLOAD))


@needs_ssh_keygen
def test_real_ssh_keygen_other_namespace_fails(tmp_path: Path) -> None:
    _ssh_keygen("-q", "-t", "ed25519", "-N", "", "-f", "id", cwd=tmp_path)
    (tmp_path / "orders").write_bytes(PAYLOAD)
    _ssh_keygen("-Y", "sign", "-f", "id", "-n", "git", "orders", cwd=tmp_path)
    public = parse_public_key((tmp_path / "id.pub").read_text())
    with pytest.raises(SignatureError, match="namespace 'git'"):
        verify(public, PAYLOAD, (tmp_path / "orders.sig").read_text())


def test_write_keypair_files_modes_and_refusal(tmp_path: Path) -> None:
    key_path, pub_path = write_keypair(tmp_path, "medici", "ada@example.org")
    assert (key_path.name, pub_path.name) == ("medici.key", "medici.pub")
    assert stat.S_IMODE(key_path.stat().st_mode) == 0o600
    public = parse_public_key(pub_path.read_text())
    assert (public.kind, public.name, public.email) == ("ed25519", "medici", "ada@example.org")
    verify(public, PAYLOAD, sign(load_private_key(key_path), PAYLOAD))
    before = key_path.read_bytes()
    with pytest.raises(UsageError, match="already exists"):
        write_keypair(tmp_path, "medici", None)
    assert key_path.read_bytes() == before
    prefix_key, prefix_pub = write_keypair(tmp_path / "ada", "Ada Lovelace", None)
    assert (prefix_key.name, prefix_pub.name) == ("ada.key", "ada.pub")
    assert prefix_pub.read_text().endswith(" Ada Lovelace\n")
    with pytest.raises(UsageError, match="cannot be used as a key file name"):
        write_keypair(tmp_path, "../escape", None)


def test_generate_keypair_and_key_file_text() -> None:
    private_bytes, raw = generate_keypair()
    assert private_bytes.startswith(b"-----BEGIN PRIVATE KEY-----") and len(raw) == 32
    private, public = keypair()
    assert private_key_file_text(private).startswith("-----BEGIN PRIVATE KEY-----\n")


def test_load_private_key_errors_never_show_key_material(tmp_path: Path) -> None:
    private, _ = keypair()
    good = private_key_file_text(private)
    body = "".join(good.splitlines()[1:-1])
    damaged = tmp_path / "damaged.key"
    damaged.write_text(good.replace(body[10:30], "A" * 20))
    cases = {
        tmp_path / "missing.key": "cannot read key file",
        damaged: "is not an ed25519 private key",
    }
    rsa_like = tmp_path / "garbage.key"
    rsa_like.write_text(
        "-----BEGIN PRIVATE KEY-----\nTUlJQ2VnSUJBREFO\n-----END PRIVATE KEY-----\n"
    )
    cases[rsa_like] = "is not an ed25519 private key"
    for path, message in cases.items():
        with pytest.raises(UsageError) as caught:
            load_private_key(path)
        text = str(caught.value)
        assert message in text and "\n" not in text
        assert body[:16] not in text and body[-16:] not in text and "TUlJQ2Vn" not in text


@needs_ssh_keygen
def test_encrypted_ssh_key_is_refused(tmp_path: Path) -> None:
    _ssh_keygen("-q", "-t", "ed25519", "-N", "secret phrase", "-f", "id", cwd=tmp_path)
    with pytest.raises(UsageError, match="is encrypted"):
        load_private_key(tmp_path / "id")


def test_public_key_line_and_parse_round_trip() -> None:
    raw = bytes(range(32))
    line = public_key_line(raw, "Ada Lovelace", "ada@example.org")
    assert line == f"ed25519 {b64(raw)} Ada Lovelace <ada@example.org>"
    assert parse_public_key(line) == PublicKey("ed25519", raw, "Ada Lovelace", "ada@example.org")
    assert public_key_line(raw, "Ada", None) == f"ed25519 {b64(raw)} Ada"
    bare = parse_public_key(f"  ed25519 {b64(raw)}\n")
    assert (bare.name, bare.email, bare.roster_text()) == (None, None, f"ed25519 {b64(raw)}")
    with pytest.raises(KeyFormatError):
        public_key_line(raw, "Ada <evil>", None)


def test_parse_openssh_public_key_line() -> None:
    raw = bytes(range(32))
    blob = struct.pack(">I", 11) + b"ssh-ed25519" + struct.pack(">I", 32) + raw
    named = parse_public_key(f"ssh-ed25519 {b64(blob)} Ada Lovelace")
    assert (named.kind, named.raw, named.name, named.email) == (
        "ssh-ed25519",
        raw,
        "Ada Lovelace",
        None,
    )
    assert named.roster_text() == f"ed25519 {b64(raw)}"
    assert parse_public_key(named.roster_text()).fingerprint() == named.fingerprint()
    assert named.fingerprint().startswith("SHA256:") and not named.fingerprint().endswith("=")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "one line"),
        ("ed25519", "one line"),
        ("ssh-rsa AAAAB3NzaC1yc2E Ada", "unsupported key type 'ssh-rsa'"),
        ("ed25519 !!!", "not valid base64"),
        (f"ed25519 {b64(bytes(31))}", "32 bytes, not 31"),
        (f"ssh-ed25519 {b64(bytes(40))}", "ssh-ed25519"),
    ],
)
def test_bad_public_keys(text: str, message: str) -> None:
    with pytest.raises(KeyFormatError, match=message) as caught:
        parse_public_key(text)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, UsageError)


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs OpenSSH's ssh-keygen")
def test_fingerprints_are_openssh_s(tmp_path: Path) -> None:
    """`pbem roster` shows the same fingerprint as `ssh-keygen -lf` for the same key."""
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "x", "-f",
                    str(tmp_path / "id")], check=True)
    shown = subprocess.run(["ssh-keygen", "-lf", str(tmp_path / "id.pub")], check=True,
                           capture_output=True, text=True).stdout.split()[1]
    assert parse_public_key((tmp_path / "id.pub").read_text()).fingerprint() == shown
