"""Views and reports: what each reader may see, rendered through Jinja2 templates in text,
markdown or BBCode; deadline rows for status and reports."""
