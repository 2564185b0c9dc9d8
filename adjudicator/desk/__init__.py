"""The referee's desk: a web page and a JSON API on the same engine (``adjudicator serve``).

Everything here is imported only by the ``serve`` command (and ``diff --archive``), so that
``adjudicator judge`` does not pay for the web stack.
"""

# A judging worker is replaced after judging this many logs (desk/pool.py says why): some
# 10 MB of clingo's terms for 40-act logs, and about a second of one core to start its
# successor (under load, a worker's every minute or so).
RECYCLE = 2000
