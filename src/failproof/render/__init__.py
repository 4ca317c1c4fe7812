"""The rendering layer every report draws with: run, attack, SAFE and MCP reports alike.

One place for what the formats share, so that a fix to escaping or to a format lands once. Its
modules are imported directly (the package exports no names of its own):

* `_text`: outside text made safe per format (`excerpt`, `md_text`, `md_code`, `html_text`,
  `xml_text`); `_console`: the same for a terminal (`plain`).
* `_numbers`: numbers and intervals (`Value`, `format_value`, each report's interval `Notation`).
* `_table`: the `Table` model presenters fill, and the Markdown and HTML table writers.
* `_path`: a path to a break (the steps of an attack, say) in Markdown and HTML.

It sits below every package that renders (it imports only `guard` and `core`), so `safe` and
`attack` draw with it without reaching up to `report`.
"""

__all__: list[str] = []
