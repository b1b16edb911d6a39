"""Token encryption: key checks, rotation, and the local key file."""

from __future__ import annotations

import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from cryptography.fernet import MultiFernet

from storage import InvalidKey, TokenCipher, UndecryptableToken, generate_key
from storage.crypto import load_or_create_key_file


def test_values_round_trip_and_do_not_show_in_the_token() -> None:
    cipher = TokenCipher(generate_key())
    token = cipher.encrypt("gizli-erişim-jetonu")
    assert b"gizli" not in token
    assert cipher.decrypt(token) == "gizli-erişim-jetonu"


@pytest.mark.parametrize(
    ("keys", "position"),
    [
        pytest.param("not-a-key", "key 1 of 1", id="garbage"),
        pytest.param(f"{generate_key()}, short", "key 2 of 2", id="second-of-string"),
        pytest.param([generate_key(), generate_key(), "x" * 44], "key 3 of 3", id="third-of-list"),
        pytest.param(f"{generate_key()},", "key 2 of 2", id="trailing-comma"),
    ],
)
def test_a_bad_key_is_named_by_position_not_value(keys: str | list[str], position: str) -> None:
    with pytest.raises(InvalidKey, match=position) as caught:
        TokenCipher(keys)
    assert "short" not in str(caught.value)
    assert "xxxx" not in str(caught.value)


@pytest.mark.parametrize("keys", ["", " , ", []])
def test_no_key_at_all_is_refused(keys: str | list[str]) -> None:
    with pytest.raises(InvalidKey, match="no encryption key"):
        TokenCipher(keys)


def test_old_keys_still_decrypt_and_rotate_moves_to_the_first() -> None:
    old_key, new_key = generate_key(), generate_key()
    token = TokenCipher(old_key).encrypt("refresh")

    both = TokenCipher(f"{new_key},{old_key}")
    rotated = both.rotate(token)

    assert both.decrypt(token) == "refresh"
    assert TokenCipher(new_key).decrypt(rotated) == "refresh"
    with pytest.raises(UndecryptableToken):
        TokenCipher(old_key).decrypt(rotated)


def test_foreign_or_damaged_tokens_are_undecryptable() -> None:
    cipher = TokenCipher(generate_key())
    with pytest.raises(UndecryptableToken):
        cipher.decrypt(TokenCipher(generate_key()).encrypt("x"))
    with pytest.raises(UndecryptableToken):
        cipher.rotate(b"not a token")


def test_an_access_token_is_decrypted_once_however_often_it_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cipher = TokenCipher(generate_key())
    token, other = cipher.encrypt("erişim"), cipher.encrypt("başka")
    decrypted: list[bytes] = []
    fernet_decrypt = MultiFernet.decrypt

    def counted(self: MultiFernet, msg: bytes | str, ttl: int | None = None) -> bytes:
        decrypted.append(msg if isinstance(msg, bytes) else msg.encode())
        return fernet_decrypt(self, msg, ttl)

    # The library's cipher counted, not ours: every update's answer decrypts a token.
    monkeypatch.setattr(MultiFernet, "decrypt", counted)
    remembered = [cipher.decrypt_remembered(t) for t in (token, token, other, token)]
    assert remembered == ["erişim", "erişim", "başka", "erişim"]
    assert decrypted == [token, other]
    # A failure is not remembered: each try is refused again, and by the cipher.
    for _ in range(2):
        with pytest.raises(UndecryptableToken):
            cipher.decrypt_remembered(b"damaged")
    assert decrypted == [token, other, b"damaged", b"damaged"]
    # Other tokens (refresh, bot) are decrypted each time, and kept nowhere.
    assert [cipher.decrypt(other), cipher.decrypt(other)] == ["başka", "başka"]
    assert decrypted[-2:] == [other, other]


def test_fingerprints_are_keyed_stable_and_do_not_show_the_value() -> None:
    key = generate_key()
    value = "someone@example.com"

    fingerprint = TokenCipher(key).fingerprint(value)

    assert fingerprint == TokenCipher([key, generate_key()]).fingerprint(value)
    assert fingerprint != TokenCipher(generate_key()).fingerprint(value)
    assert "someone" not in fingerprint
    assert len(fingerprint) == 64


def test_key_file_is_created_private_then_reused(tmp_path: Path) -> None:
    path = tmp_path / "data" / "token.key"

    key, created = load_or_create_key_file(path)
    again, created_again = load_or_create_key_file(path)

    assert created is True
    assert created_again is False
    assert again == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert TokenCipher(key).decrypt(TokenCipher(again).encrypt("x")) == "x"
    assert [entry.name for entry in path.parent.iterdir()] == ["token.key"]


def test_an_existing_key_file_is_never_replaced(tmp_path: Path) -> None:
    path = tmp_path / "token.key"
    existing = generate_key()
    path.write_text(existing + "\n")

    assert load_or_create_key_file(path) == (existing, False)
    assert path.read_text() == existing + "\n"


def test_racing_processes_agree_on_one_key(tmp_path: Path) -> None:
    path = tmp_path / "token.key"
    racers = 8
    start = threading.Barrier(racers, timeout=10)

    def load(_: int) -> tuple[str, bool]:
        start.wait()
        return load_or_create_key_file(path)

    with ThreadPoolExecutor(racers) as pool:
        results = list(pool.map(load, range(racers)))

    assert len({key for key, _ in results}) == 1
    assert [created for _, created in results].count(True) == 1
    assert results[0][0] == path.read_text().strip()
