"""One spelling of color in the code (issue #10, "one vocabulary"): no name, key, option,
template variable or CSS class says ``colour``. English prose (messages, comments) keeps the
British spelling it uses throughout; the earlier names live on only as the aliases that read
them (``RENAMED_SETTINGS``, the options' second names) and in the migrations that moved them."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "weiqi"
#: Where the earlier spelling is read on purpose: the migrations that stored or renamed it,
#: and the aliases that read it.
ALIASES = {
    "tournament/settings.py": {"colour_policy", "online_colours"},
    "cli/event.py": {"--colours", "--online-colours", "--board-colours"},
}
NAME = re.compile(r"^[a-z_][A-Za-z0-9_-]*$|^--[a-z-]+$")


def _names(path: Path) -> list[tuple[int, str]]:
    """The names of a module that say colour: identifiers, and strings that are a key, a
    field or an option (one word, no space), not prose."""
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline):
        text = tok.string
        if "colour" not in text.lower():
            continue
        if tok.type == tokenize.NAME:
            found.append((tok.start[0], text))
        elif tok.type == tokenize.STRING:
            body = text.strip("rbfRBF").strip("'\"")
            if NAME.match(body):
                found.append((tok.start[0], body))
    return found


def test_no_name_in_the_code_says_colour() -> None:
    wrong = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("store/migrations/versions/"):
            continue
        wrong += [
            f"{rel}:{line}: {name}"
            for line, name in _names(path)
            if name not in ALIASES.get(rel, set())
        ]
    assert wrong == []


def test_no_template_script_or_style_name_says_colour() -> None:
    """Jinja expressions, ES modules and style sheets: their names, not their prose."""
    wrong = []
    for path in sorted(SRC.glob("server/templates/*.html")):
        for m in re.finditer(r"\{\{.*?\}\}|\{%.*?%\}", path.read_text("utf-8"), re.S):
            code = re.sub(r"_\(\"[^\"]*\"\)|_\('[^']*'\)", "", m.group(0))  # prose, translated
            wrong += [f"{path.name}: {w}" for w in re.findall(r"\w*colour\w*", code)]
    for path in sorted(SRC.glob("server/static/*")):
        text = path.read_text("utf-8")
        code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)  # comments are prose
        wrong += [f"{path.name}: {w}" for w in re.findall(r"\w*colour\w*", code)]
    assert wrong == []
