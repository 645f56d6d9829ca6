"""Mutations for the fuzz families: each takes a `random.Random` and something valid, and
returns something a careless client, a mangling mail server or a hostile sender could send."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

JUNK = ["", " ", "\t", "\x00", "\r", "\x0b", "\u00e9", "\U0001d54f", "\u202e", "\ufeff", "'",
        '"', "#", "-", "--", "=", ":", "9" * 30, "-1", "0", "1e309", "nan", "${x}", "%s",
        "{{x}}", "<>", "a" * 300, "end", "done", "pass", "buy", "\\", "[", "{", "*", "&x",
        "!!python/object:os.system", "\udcff"]


def junk(rng: random.Random) -> str:
    if rng.random() < 0.2:
        return "".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(1, 8)))
    return rng.choice(JUNK)


def line(rng: random.Random, legal: str) -> str:
    words = legal.split(" ")
    match rng.randint(0, 6):
        case 0:
            return legal
        case 1:
            words[rng.randrange(len(words))] = junk(rng)
        case 2:
            del words[rng.randrange(len(words))]
        case 3:
            words.insert(rng.randrange(len(words) + 1), junk(rng))
        case 4:
            words = [w.upper() if rng.random() < 0.5 else w for w in words]
        case 5:
            words = [str(rng.choice((-1, 0, 7, 10**20))) if w.isdigit() else w for w in words]
        case _:
            return junk(rng) + legal + junk(rng)
    return " ".join(words)


def text(rng: random.Random, source: str) -> str:
    lines = source.split("\n")
    for _ in range(rng.randint(1, 3)):
        lines = lines or [""]  # an earlier edit may have deleted the last line
        at = rng.randrange(len(lines))
        match rng.randint(0, 9):
            case 0:
                del lines[at]
            case 1:
                lines.insert(at, lines[at])
            case 2:
                lines.insert(at, junk(rng))
            case 3:
                other = rng.randrange(len(lines))
                lines[at], lines[other] = lines[other], lines[at]
            case 4:
                cut = rng.randrange(len(lines[at]) + 1)
                lines[at] = lines[at][:cut] + junk(rng) + lines[at][cut + 1:]
            case 5:
                lines = lines[: at + 1]
                lines[-1] = lines[-1][: rng.randrange(len(lines[-1]) + 1)]
            case 6:
                lines = ["> " + x for x in lines]
            case 7:
                lines = [x + "\r" for x in lines]
            case 8:
                key = rng.choice(("seq", "state", "player", "game"))
                lines = [f"{key}: {junk(rng)}" if x.startswith(f"{key}:") else x for x in lines]
            case _:
                lines.insert(at, "-----BEGIN PBEM ORDERS-----")
    return "\n".join(lines)


BAD_HEADERS = [b"From: a@", b"Message-ID: <>", b"From: =?utf-8?q?<a=0Ab@x>?=",
               b"Reply-To: =?utf-8?q?<a=0Ab@x>?=", b"From: \xff\xfe@example.org",
               b"Subject: =?unknown-8bit?b?////?=", b"Content-Type: text/plain; charset=utf-7",
               b"Content-Type: text/plain; charset=bogus-1", b"Content-Type: multipart/mixed",
               b"Content-Type: multipart/mixed; boundary=\"x\"",
               b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: x-uuencode",
               b"Content-Transfer-Encoding: quoted-printable", b"Auto-Submitted: auto-replied",
               b"Content-Type: text/plain; format=flowed; delsp=yes",
               b"Content-Type: text/html", b"X-Long: " + b"a" * 5000, b"To: ,,,,",
               b"Date: Feb 30 99999", b"In-Reply-To: <" + b"x" * 900 + b">", b"From:"]
BAD_BODIES = [b"\xff\xfe\x00", b"foo =3D +2D8-", b"=ZZ=\n", b"--x\n\n--x--", b"\x00" * 10,
              b"====", b"+ADw-script+AD4-", b"begin 644 x\n`\nend"]


def mail(rng: random.Random, raw: bytes) -> bytes:
    head, _, body = raw.partition(b"\n\n")
    headers = head.split(b"\n")
    for _ in range(rng.randint(1, 3)):
        match rng.randint(0, 4):
            case 0 | 1:
                new = rng.choice(BAD_HEADERS)
                name = new.split(b":")[0].lower() + b":"
                headers = [h for h in headers if not h.lower().startswith(name)] + [new]
            case 2:
                at = rng.randrange(len(body) + 1)
                body = body[:at] + rng.choice(BAD_BODIES) + body[at:]
            case 3:
                del headers[rng.randrange(len(headers))]
            case _:
                body = body.replace(b"\n", rng.choice((b"\r\n", b"\r", b"\n\n", b"\n> ")))
    return b"\n".join(headers) + b"\n\n" + body


def yaml_text(rng: random.Random, source: str) -> str:
    lines = source.split("\n")
    for _ in range(rng.randint(1, 2)):
        at = rng.randrange(len(lines))
        match rng.randint(0, 5):
            case 0:
                value = ": " + _scalar(rng)
                lines[at] = re.sub(r":( .*)?$", lambda _, v=value: v, lines[at])  # type: ignore[misc]
            case 1:
                del lines[at]
            case 2:
                lines.insert(at, lines[at])
            case 3:
                lines[at] = rng.choice(("\t", "  ", " ", "- ")) + lines[at]
            case 4:
                lines = lines[:at]
            case _:
                cut = rng.randrange(len(lines[at]) + 1)
                lines[at] = lines[at][:cut] + junk(rng) + lines[at][cut:]
    return "\n".join(lines)


def _scalar(rng: random.Random) -> str:
    return rng.choice(("0", "-1", "99999999999999999999", "null", "[]", "{}", "true", "~",
                       "'x'", ".nan", "1.5", "!!binary AAAA", "*x", "&x 1", "2027-13-45",
                       "[1, [2, [3]]]", '"\\u0000"', "|\n  x"))


VALUES: list[Any] = [None, 0, -1, 10**30, 1.5, float("nan"), "", "x", "nobody", True, [], {},
                     [None], {"x": 1}, "a" * 300, ["x", 1], {"": None}]


def structure(rng: random.Random, data: Any) -> Any:
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        holder, key = _pick(rng, data)
        if holder is None:
            return rng.choice(VALUES)
        move = rng.randint(0, 3)
        if move == 0 and isinstance(holder, dict):
            holder.pop(key, None)
        elif move == 1 and isinstance(holder, dict):
            holder[rng.choice(("unknown", "extra", "x"))] = rng.choice(VALUES)
        else:
            holder[key] = copy.deepcopy(rng.choice(VALUES))
    return data


def _pick(rng: random.Random, data: Any) -> tuple[Any, Any]:
    """A container in `data` and one of its keys (or indexes), found by a random walk."""
    holder, key = None, None
    node = data
    for _ in range(rng.randint(1, 5)):
        if isinstance(node, dict) and node:
            holder, key = node, rng.choice(list(node))
        elif isinstance(node, list) and node:
            holder, key = node, rng.randrange(len(node))
        else:
            break
        node = holder[key]
    return holder, key


PATHS = ["{g}", "{d}", "{d}/ada.pub", "{d}/nodir/x", "{d}/Maildir", "-", "/proc/x",
         "/dev/null", "{d}/pbem.toml", "{d}/lisbon.seed", "{d}/ada.key"]
WORDS = ["nobody", "coeur", "marchionni", "moderator", "72h", "0h", "-1h", "99999999d",
         "default=72h", "x=y", "=", "coeur=Europe/Lisbon", "coeur=America/Argentina",
         "coeur=" + "X" * 300, "coeur=daily", "2027-03-01T00:00Z", "9999-12-31T23:59:59Z",
         "0001-01-01T00:00:00+14:00", "yesterday", "-5", "0", "99999999999999999999", "1.5",
         "text", "markdown", "bbcode", "aor", "pax", "chess", "end=epoch1", "map=1550",
         "imap://127.0.0.1:1/INBOX", "imaps://x@127.0.0.1:1/", "ftp://x", "", " ", "\u00e9",
         "\u202e", "a@b", "not an address", "1:abcd", "5:0000000000000000", "skip", "wait"]
COMMANDS = ["map", "cards", "send", "inbox", "post", "remind", "timeout", "deadlines", "roster",
            "digest", "replace-player", "keygen", "new", "sign", "payload", "apply", "options",
            "report", "status", "verify", "reveal", "scenario"]  # selfplay: whole games, slow
OPTIONS = ["--for", "--seq", "--out", "--ruleset", "--json", "--to", "--outbox", "--mail-config",
           "--now", "--maildir", "--mbox", "--imap", "--verbose", "--format", "--again",
           "--player", "--force", "--mail", "--set", "--unset", "--nmr", "--timezone",
           "--digest", "--allowed-signers", "--key", "--email", "--dir", "--seed", "--open",
           "--id", "--map", "--moderator", "--option", "--game", "--seal", "--dry-run",
           "--commit", "--secrets", "--expect", "--quiet", "--bogus", "-o", "--help"]


def argv(rng: random.Random, key: str) -> list[str]:
    """A command line: a subcommand, positional values, then options with values."""
    out = [rng.choice(COMMANDS) if rng.random() < 0.95 else junk(rng)]
    for _ in range(rng.randint(0, 2)):
        out.append(rng.choice(PATHS) if rng.random() < 0.7 else rng.choice(WORDS))
    for _ in range(rng.randint(0, 4)):
        out.append(rng.choice(OPTIONS))
        if rng.random() < 0.8:
            pick = rng.random()
            out.append(key if pick < 0.1 else rng.choice(PATHS) if pick < 0.4 else
                       rng.choice(WORDS) if pick < 0.9 else junk(rng))
    return out
