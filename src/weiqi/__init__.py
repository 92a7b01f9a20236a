"""weiqi — run Go (围棋) competitions under the Chinese Weiqi Competition Rules.

The functional core (``rules``, ``clock``, ``referee``, ``tournament``, ``league``) is pure and
deterministic; the shell (``store``, ``services``, ``server``, ``engines``, ``formats``, ``cli``)
does the I/O around it.

>>> from weiqi.rules.result import Result
>>> Result.parse("B+1.5").to_zh()
'黑胜3/4子'
"""

__version__ = "0.1.0"
