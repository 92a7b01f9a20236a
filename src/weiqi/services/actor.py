"""Who is acting: a logged-in user, the local command line, or nobody (the public).

>>> Actor.local().is_admin
True
>>> ANONYMOUS.user_id is None and not ANONYMOUS.is_admin
True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """The person (or shell) a service acts for."""

    user_id: int | None
    username: str
    is_admin: bool = False

    @property
    def authenticated(self) -> bool:
        return self.user_id is not None

    @classmethod
    def local(cls) -> Actor:
        """Whoever runs the command line on the server's own database: a site administrator."""
        return cls(user_id=None, username=LOCAL_USERNAME, is_admin=True)


ANONYMOUS = Actor(user_id=None, username="", is_admin=False)

LOCAL_USERNAME = "(command line)"
"""Who the command line is in a record (a result entered, a ruling, an edit by hand); pages
show it in the reader's language (the ``person`` filter of ``server.templating``)."""
