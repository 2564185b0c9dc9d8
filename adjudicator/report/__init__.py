"""The referee's report: one model rendered to terminal, Markdown and HTML."""
