"""A game record's head signed with a key of the site, so that a record rewritten outside weiqi
no longer verifies.

The hash chain of :mod:`weiqi.referee.record` is unkeyed: each link proves the order of what
came before it, but whoever can write the stored log can rewrite it from any event on, recompute
every hash and store the new head beside it, and the record is consistent again. The head signed
with an HMAC under a key that is not in the record closes that: a rewritten log needs a new
signature, which only the holder of the key can make.

The key for records is derived from the site's secret — ``HMAC-SHA256(secret, "weiqi record
v1")`` — rather than being the secret itself, so the record signatures and the session cookies
(signed with the secret) never share a key, and a later scheme can take a new label. The
signature also covers where the record is stored (``context``, e.g. ``game_records/7``), so a
record copied whole from another game does not verify in its new place either.

Pure: the key is passed in; the shell (``services.games``) keeps it.

>>> key = record_key("the site's secret")
>>> head = "ab" * 32
>>> signature = sign_head(key, head, "game_records/7")
>>> len(signature), check_signature(key, head, signature, "game_records/7")
(64, None)
>>> check_signature(key, head, signature, "game_records/8")
Traceback (most recent call last):
...
weiqi.errors.InputError: game record: its signature does not match its head: ...
>>> check_signature(key, head, None, "game_records/7")
Traceback (most recent call last):
...
weiqi.errors.InputError: game record: it has no signature: ...
"""

from __future__ import annotations

import hashlib
import hmac

from weiqi.errors import InputError
from weiqi.messages import Msg

#: What the record key is derived with; a new scheme takes a new label (and re-signs).
RECORD_KEY_LABEL = b"weiqi record v1"


def record_key(secret: str | bytes) -> bytes:
    """The key that signs game records, derived from the site's ``secret``."""
    raw = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(raw, RECORD_KEY_LABEL, hashlib.sha256).digest()


def signing_context(table: str, game_id: int) -> str:
    """Where a stored record lives, as its signature covers it: ``table/game_id``."""
    return f"{table}/{game_id}"


def sign_head(key: bytes, head: str, context: str) -> str:
    """The signature (64 hex digits) of a record whose last hash is ``head``, stored at
    ``context``."""
    return hmac.new(key, f"{context}\n{head}".encode(), hashlib.sha256).hexdigest()


def check_signature(key: bytes, head: str, signature: str | None, context: str) -> None:
    """Nothing when ``signature`` is ``head``'s at ``context`` under ``key``; else an
    :class:`InputError` saying what does not hold."""
    if signature is None:
        raise InputError(
            "game record",
            Msg(
                "it has no signature: it was never signed with this site's key, so it cannot "
                "be trusted"
            ),
        )
    if not hmac.compare_digest(sign_head(key, head, context), signature):
        raise InputError(
            "game record",
            Msg(
                "its signature does not match its head: it was changed outside weiqi, moved "
                "from another game or signed with another site's key"
            ),
        )


# -- a board's seal (``weiqi.store.seals``): pure, so that a reader without SQLAlchemy checks it

Players = tuple[int | str | None, ...]


def board_seal(
    key: bytes,
    table: str,
    board_id: int,
    players: Players,
    result: str | None,
    confirmed: bool,
    warnings: tuple[int, int],
    head: str | None,
) -> str:
    """The seal (64 hex digits) of board ``board_id`` of ``table`` as it counts."""
    fields = (*players, result or "", int(bool(confirmed)), *warnings, head or "")
    message = signing_context(table, board_id) + "\n" + "\x1f".join(map(str, fields))
    # hmac.digest: the one-shot C path, the same bytes as hmac.new(…).digest() for a fraction
    # of the cost, which counts when the standings of 45,000 boards check every seal
    return hmac.digest(key, message.encode(), "sha256").hex()


def holds(
    key: bytes,
    table: str,
    board_id: int,
    players: Players,
    result: str | None,
    confirmed: bool,
    warnings: tuple[int, int],
    head: str | None,
    seal: str | None,
) -> bool:
    """Whether the board may count as stored: its seal holds, or it was never played."""
    if seal is None:
        return result is None and head is None and not confirmed
    expected = board_seal(key, table, board_id, players, result, confirmed, warnings, head)
    return hmac.compare_digest(expected, seal)
