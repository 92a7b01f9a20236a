"""Allowance for network lag, lichess-style: a press may carry the client's own think time.

The server measures a move from when it started the mover's clock until the press reached it;
that includes the network's delay both ways. The client reports how long the player actually
thought. The difference (the lag) is forgiven, but only out of a per-player quota: each move adds
``gain`` to the quota, it never exceeds ``cap``, and what is forgiven is spent from it. A client
that lies about its think time can therefore win at most ``gain`` per move on average.

The quota also delays the fall of the flag by as much, so a move sent in time but delayed on the
way can still count (see :meth:`weiqi.clock.Clock.next_deadline`).

>>> policy = LagPolicy(gain=1.0, cap=3.0)
>>> policy.initial_ms
3000
>>> policy.compensate(quota=3000, server=10_500, client=10_000)  # 0.5 s lag forgiven
(10000, 3000)
>>> policy.compensate(quota=500, server=12_000, client=10_000)   # only 0.5 s left to forgive
(11500, 1000)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg


@dataclass(frozen=True)
class LagPolicy:
    """``gain`` seconds of quota per move, at most ``cap``; the quota starts full unless
    ``initial`` says otherwise."""

    gain: float = 1.0
    cap: float = 3.0
    initial: float | None = None

    def __post_init__(self) -> None:
        for name in ("gain", "cap", "initial"):
            value = getattr(self, name)
            if value is None:
                continue
            if not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
                raise InvalidSetting(
                    f"lag.{name}",
                    Msg("must be a number of seconds >= 0, not %(value)s", value=value),
                )
        if self.initial is not None and self.initial > self.cap:
            raise InvalidSetting("lag.initial", Msg("must not exceed lag.cap"))

    @property
    def initial_ms(self) -> int:
        return round(1000 * (self.cap if self.initial is None else self.initial))

    def compensate(self, quota: int, server: int, client: int | None) -> tuple[int, int]:
        """(time charged, new quota) in ms for a move the server measured as ``server`` ms and
        the client reported as ``client`` ms (``None``: no report, nothing forgiven)."""
        lag = 0 if client is None else max(0, server - max(0, client))
        forgiven = min(lag, quota)
        new_quota = min(quota - forgiven + round(1000 * self.gain), round(1000 * self.cap))
        return server - forgiven, new_quota

    def to_dict(self) -> dict[str, Any]:
        return {"gain": self.gain, "cap": self.cap, "initial": self.initial}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LagPolicy:
        return cls(**data)
