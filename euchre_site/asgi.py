"""ASGI entry point, for servers such as uvicorn: `euchre_site.asgi:application`."""

import os
import warnings

from django.core.asgi import get_asgi_application

# WhiteNoise hands Django a file as a synchronous iterator, which Django's ASGI handler
# reads in a thread before sending it, warning about it on every static file. The files
# are small (a reverse proxy in front may serve them itself), so the warning is only noise.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")

application = get_asgi_application()
