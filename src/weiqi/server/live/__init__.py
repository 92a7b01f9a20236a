"""Live games in the web server (issue #11): the push bus, the rooms and their clocks.

``bus.py`` fans out pushes (an interface: in this process today, Redis across workers later,
issue #12); ``rooms.py`` runs the rooms of one process — who is connected, the one task per
running game that wakes at its clock's deadline or next call-out, and the order of pushes.
The rules, the record and the clock stay in the services (``services/live.py``).
"""
