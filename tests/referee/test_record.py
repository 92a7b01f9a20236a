"""The game record: JSON, the hash chain, rejecting tampered or reordered logs."""

from __future__ import annotations

import json

import pytest

from weiqi.errors import InputError
from weiqi.referee.events import InfractionRuled, Move
from weiqi.referee.infractions import Infraction, InfractionKind
from weiqi.referee.record import GENESIS, GameRecord, link, replay
from weiqi.rules.ruleset import IllegalMoves

from .scripts import BLACK, KO, REF, WALLS, B, new_game, pass_and_count, play, pt


def finished_game() -> GameRecord:
    rec, clock = new_game(mode=IllegalMoves.STRICT)
    play(rec, clock, KO)
    rec.append(Move(pt("B1")), BLACK, clock())  # void ko capture
    rec.append(InfractionRuled(Infraction(InfractionKind.SMOKING, B)), REF, clock())
    return rec


def test_record_round_trips_through_json_exactly() -> None:
    rec = finished_game()
    text = rec.to_json()
    again = GameRecord.from_json(text)
    assert again.entries == rec.entries
    assert again.state == rec.state == replay(rec)
    assert again.to_json() == text
    assert rec.state.result is not None  # the second warning lost the game


def test_each_entry_is_chained_to_the_one_before() -> None:
    rec = finished_game()
    prev = GENESIS
    for i, entry in enumerate(rec.entries):
        assert entry.seq == i and entry.prev == prev
        assert entry.hash == link(prev, entry.body())
        prev = entry.hash


def test_entries_record_who_when_and_at_which_move() -> None:
    rec, clock = new_game()
    play(rec, clock, WALLS)
    pass_and_count(rec, clock)
    moves = [e for e in rec.entries if e.event.kind == "move"]
    assert [e.move_number for e in moves] == list(range(1, 11))
    assert moves[0].actor == BLACK and moves[0].at == 2


def _doc(rec: GameRecord) -> dict:  # type: ignore[type-arg]
    return json.loads(rec.to_json())


def test_an_altered_event_is_rejected_naming_it() -> None:
    doc = _doc(finished_game())
    doc["entries"][3]["event"]["point"] += 1
    with pytest.raises(InputError, match=r"event 3 \(move\): altered"):
        GameRecord.from_data(doc)


def test_a_recomputed_hash_breaks_the_chain_after_it() -> None:
    """Re-signing one altered entry is not enough: the next entry no longer follows it."""
    doc = _doc(finished_game())
    entry = doc["entries"][3]
    entry["at"] = entry["at"] + 0.5
    body = {k: v for k, v in entry.items() if k != "hash"}
    import hashlib

    from weiqi.referee.codec import canonical

    entry["hash"] = hashlib.sha256((entry["prev"] + canonical(body)).encode()).hexdigest()
    with pytest.raises(InputError, match=r"event 4 \(move\): does not follow"):
        GameRecord.from_data(doc)


def test_out_of_order_events_are_rejected() -> None:
    doc = _doc(finished_game())
    doc["entries"][2], doc["entries"][3] = doc["entries"][3], doc["entries"][2]
    with pytest.raises(InputError, match=r"event 3 \(move\): out of order: expected event 2"):
        GameRecord.from_data(doc)


def test_a_dropped_event_is_rejected() -> None:
    doc = _doc(finished_game())
    del doc["entries"][4]
    with pytest.raises(InputError, match=r"event 5 .*out of order"):
        GameRecord.from_data(doc)


def test_unknown_version_and_kind_are_rejected() -> None:
    doc = _doc(finished_game())
    with pytest.raises(InputError, match="version 2 is not supported"):
        GameRecord.from_data({**doc, "version": 2})
    doc["entries"][1]["event"]["kind"] = "teleport"
    with pytest.raises(InputError, match="event 1: unknown event kind 'teleport'"):
        GameRecord.from_data(doc)
    with pytest.raises(InputError, match="not JSON"):
        GameRecord.from_json("{")


def test_a_consistent_but_impossible_log_is_rejected_by_the_rules() -> None:
    """A log re-signed end to end still has to obey the rules: the replay refuses it."""
    rec, clock = new_game()
    play(rec, clock, ["C3"])
    entries = list(rec.entries)
    forged = GameRecord()
    prev = GENESIS
    from dataclasses import replace

    for e in [*entries, replace(entries[1], seq=2, at=99)]:
        body_entry = replace(e, prev=prev, hash="")
        e = replace(body_entry, hash=link(prev, body_entry.body()))
        prev = e.hash
        forged._entries.append(e)
    with pytest.raises(InputError, match=r"event 2 \(move\): move 2 at C3: occupied"):
        GameRecord.from_json(forged.to_json())


def test_time_must_not_go_backwards() -> None:
    rec, _ = new_game()
    with pytest.raises(InputError, match="before the previous"):
        rec.play(B, "C3", at=0)


def test_a_rewritten_chain_is_caught_by_the_stored_head() -> None:
    """Re-signing every entry after a change makes the chain consistent again; the head kept
    apart (with the confirmed result) still catches it, and a log that goes on past it."""
    rec = finished_game()
    head = rec.head
    assert GameRecord.from_json(rec.to_json(), head=head).state == rec.state
    doc = _doc(rec)
    entries = doc["entries"]
    entries[2]["at"] += 0.5  # White's B2 said to be half a second later, every hash redone
    import hashlib

    from weiqi.referee.codec import canonical

    prev = entries[1]["hash"]
    for entry in entries[2:]:
        entry["prev"] = prev
        body = {k: v for k, v in entry.items() if k != "hash"}
        entry["hash"] = prev = hashlib.sha256((prev + canonical(body)).encode()).hexdigest()
    rewritten = GameRecord.from_data(doc)  # consistent on its own
    assert rewritten.head != head
    with pytest.raises(InputError, match="the log was rewritten"):
        GameRecord.from_data(doc, head=head)
    with pytest.raises(InputError, match="at event 2 and goes on"):
        GameRecord.from_json(rec.to_json(), head=rec.entries[2].hash)
