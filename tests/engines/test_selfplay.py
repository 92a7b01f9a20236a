"""The GNU Go self-play corpus: reproducible from its seeds, readable, consistent."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.programs import GNUGO
from weiqi.engines.selfplay import PlanItem, load_games, play_game
from weiqi.errors import InputError

CORPUS = Path(__file__).resolve().parent.parent / "data" / "gnugo" / "selfplay.jsonl"
BENCH19 = Path(__file__).resolve().parents[2] / "bench" / "data" / "gnugo19.jsonl"


def test_corpus_has_the_promised_games() -> None:
    games = load_games(CORPUS)
    sizes = Counter(game.size for game in games)
    assert len(games) >= 200
    assert sizes[9] >= 100 and sizes[13] >= 50 and sizes[19] >= 30
    assert len({(g.size, tuple(g.moves)) for g in games}) == len(games)
    for game in games:
        assert game.moves[-2:] == ["pass", "pass"]
        assert set(game.dead) <= set(game.black) | set(game.white)
        assert len(game.final_stones()) == game.size**2
    assert CORPUS.stat().st_size + BENCH19.stat().st_size < 2_000_000
    assert [g for g in games if g.size == 19] == load_games(BENCH19)


@pytest.mark.gnugo
def test_corpus_games_replay_from_their_seeds() -> None:
    """A stored game is what GNU Go plays again with the same settings (so the corpus can be
    regenerated, and a different GNU Go shows up here)."""
    stored = [g for g in load_games(CORPUS) if g.size == 9][:2]
    for game in stored:
        again = play_game(
            size=game.size, komi=game.komi, level=game.level, seed=game.seed, gnugo=GNUGO
        )
        assert again == game


def test_unreadable_corpus_line_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(CORPUS.read_text().splitlines()[0] + "\n{not json}\n")
    with pytest.raises(InputError, match="line 2"):
        load_games(path)


@pytest.mark.parametrize("text", ["9:10", "9:x:1", "30:10:1", "9:10:1:2:3", "9:10:"])
def test_bad_plan_is_an_input_error(text: str) -> None:
    with pytest.raises(InputError, match="plan"):
        PlanItem.parse(text)
