"""The referee's desk: a web page and a JSON API on the same engine (``adjudicator serve``).

Everything here is imported only by the ``serve`` command (and ``diff --archive``), so that
``adjudicator judge`` does not pay for the web stack.
"""

# A judging worker is replaced after judging this many logs (desk/pool.py says why): about
# 15 MB of clingo's terms for 40-act logs, and a second of one core to start its successor.
RECYCLE = 5000
