#!/usr/bin/env python
"""Django's command-line utility for administrative tasks (``euchre-school`` once installed)."""

from euchre_site.cli import main

if __name__ == "__main__":
    main()
