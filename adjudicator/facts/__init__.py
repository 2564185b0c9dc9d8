"""The only place that turns an Incident and its analysis into clingo Symbols."""
