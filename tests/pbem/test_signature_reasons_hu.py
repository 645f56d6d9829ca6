"""A malformed signature is refused with a keyed reason (issue 18): the English as before, the
Hungarian from the catalog, the armor lines quoted as they are."""

from __future__ import annotations

import base64

import pytest

from pbem.errors import SignatureError
from pbem.i18n.errors import say_error
from pbem.orders.signatures import SSH_BEGIN, normalize_signature


def refusal(text: str) -> SignatureError:
    with pytest.raises(SignatureError) as caught:
        normalize_signature(text)
    return caught.value


def test_a_short_signature_is_refused_in_both_languages() -> None:
    error = refusal("ed25519 " + base64.b64encode(b"x" * 10).decode())
    assert str(error) == "an ed25519 signature has 64 bytes, not 10"
    assert say_error(error, "hu") == "egy ed25519-aláírás 64 bájtos, nem 10"


def test_an_unterminated_armor_quotes_its_end_line() -> None:
    error = refusal(f"{SSH_BEGIN}\nAAAA")
    assert str(error) == "the SSH signature has no '-----END SSH SIGNATURE-----' line"
    assert say_error(error, "hu") == \
        "az SSH-aláírásból hiányzik a(z) '-----END SSH SIGNATURE-----' sor"
