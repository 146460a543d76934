"""The ``euchre-school`` command: Django's manage.py for an installed package.

manage.py is not in the wheel (it sits beside the packages in a checkout), so the
package's console script runs the same management commands: ``euchre-school migrate``,
``euchre-school check --deploy``, ``euchre-school collectstatic``.
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
