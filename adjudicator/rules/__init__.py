"""Running the ASP chapters of asp/: loading, gating, solving."""
