"""File formats of the shell: SGF game records (``formats.sgf``) and the time settings they carry.

Nothing outside this package touches a third-party format library; callers get typed values.
"""
