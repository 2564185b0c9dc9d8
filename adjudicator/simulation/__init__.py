"""Legal Taiwanese 16-tile games, simulated from a seed, written as incident logs.

The simulator is an instrument, not part of the pipeline: it knows who won, from whom, and
where it put a fault, independently of the engine, so the engine's rulings can be checked
against it at scale (tests/simulation, bench/simulate.py).  It imports nothing from the
engine's analysis: its hand test is its own (complete.py).
"""
