"""A whole match (將): hand after hand, the deal and streak carried, a ledger per person.

format.py reads a ``.match`` file, carry.py carries the deal, the 圈 and the seats from one
hand's ruling to the next, run.py judges the hands in order, ledger.py books the money by
name and report.py renders the match report.
"""
