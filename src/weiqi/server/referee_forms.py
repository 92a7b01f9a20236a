"""What the referee's forms of a game share, over the board (the game page, ``routes.games``)
and live (the referee's page of a game, ``routes.live_referee``): a refused form's state, the
service's field names as the forms name them, and the choices each form offers, named once.
The forms themselves are the macros of ``templates/referee_forms.html``.

>>> r = Refusal("record-ruling", {"loser": "请选择黑方或白方"}, {"reason": "迟到"})
>>> r.focus, r.value("record-ruling", "reason"), r.value("record-infraction", "reason")
('loser', '迟到', '')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from starlette.requests import Request

from weiqi.errors import Conflict, InputError, InvalidSetting
from weiqi.i18n import render_value
from weiqi.referee.infractions import InfractionKind
from weiqi.referee.rulings import RulingKind
from weiqi.server.templating import locale_of, say

__all__ = [
    "INFRACTION_FIELDS",
    "RULING_FIELDS",
    "Refusal",
    "choices",
    "refusal",
]


@dataclass(frozen=True)
class Refusal:
    """A form of a game's page the service refused (a stale second tab, a correction without a
    reason, a forfeit without its loser…): the page comes back with each problem next to its
    field (``""``: the whole form), what was sent kept, and the first problem focused — never a
    bare error page."""

    form: str
    """The ``id`` of the form sent."""
    errors: Mapping[str, str]
    """Each problem, in the reader's language, by the form's field (``""``: the whole form)."""
    values: Mapping[str, str] = field(default_factory=dict)
    """What was sent, by field."""

    @property
    def focus(self) -> str:
        """The field to focus: the first with a problem, else the first sent (``""``: the
        form's message itself)."""
        named = [f for f in self.errors if f]
        return named[0] if named else next(iter(self.values), "")

    def value(self, form: str, name: str) -> str:
        """What was sent in ``name`` when ``form`` was the one sent (else nothing)."""
        return self.values.get(name, "") if form == self.form else ""


def refusal(
    request: Request,
    form: str,
    err: Conflict | InputError | InvalidSetting,
    values: Mapping[str, str],
    fields: Mapping[str, str] | None = None,
) -> Refusal:
    """``err`` shown on the form ``form``: next to its field when the error names one of the
    form's (``fields`` maps the service's field names to the form's), else above the form."""
    named = (fields or {}).get(err.field, "")
    text = say(request, err.reason if named else err.msg)
    return Refusal(form, {named: text}, dict(values))


RULING_FIELDS = {"ruling": "kind", "reason": "reason", "loser": "loser"}
"""The fields of a refused ruling (``referee_input.ruling``) as the ruling form names them."""
INFRACTION_FIELDS = {
    "infraction": "kind",
    "offender": "offender",
    "penalty": "penalty",
    "points": "points",
    "note": "note",
}
"""The fields of a refused infraction (``referee_input.infraction``) as its form names them."""


def choices(
    request: Request, kinds: Iterable[InfractionKind | RulingKind]
) -> list[tuple[str, str]]:
    """``kinds`` as a form offers them: each value with its name in the reader's language
    (the name a message gives it too)."""
    locale = locale_of(request)
    return [(k.value, render_value(k, locale)) for k in kinds]
