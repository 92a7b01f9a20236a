"""Use cases: each public function opens (and owns) one transaction on a ``Database``, checks
the actor's permission, and returns plain values — never ORM objects bound to a session.
Routes and CLI commands both call these.
"""
