"""The stylesheet of the bar a filed report is shown under (its permalink, a match's page):
shared by the pages and by the Content-Security-Policy, which allows it by its hash."""

# Only for the bar: the desk's own stylesheet would restyle the report under it.
BAR_CSS = """
nav.desk-bar { font-family: sans-serif; font-size: 14px; background: #f4f6f8;
  border: 1px solid #d5dae0; border-radius: 6px; padding: 6px 10px; margin-bottom: 10px; }
nav.desk-bar .desk-meta span { margin-right: 12px; display: inline-block; }
nav.desk-bar a { margin-right: 12px; }
nav.desk-bar .withdrawn, nav.desk-bar .superseded { color: #a32020; margin: 4px 0; }
nav.desk-bar details.desk-history ol { margin: 4px 0; padding-left: 1.4em; }
nav.desk-bar li.shown { font-weight: bold; }
@media print { nav.desk-bar { display: none; } }
@media screen and (max-width: 720px) { nav.desk-bar { font-size: 16px; } }
"""
