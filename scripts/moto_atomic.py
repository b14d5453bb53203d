"""moto's S3 server with each request handled under one lock.

moto answers a conditional create (`If-None-Match: *`) by checking for the key and
then storing the object in a separate step, so on its threaded server two racing
creates can both succeed. Real S3 decides atomically, and the tests check that ktc
relies on exactly that; serialising requests gives the test server the property and
changes nothing else. Usage: python moto_atomic.py HOST PORT
"""

import os
import sys
import threading

from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import run_simple


def main() -> None:
    host, port = sys.argv[1], int(sys.argv[2])
    os.environ.setdefault("MOTO_PORT", str(port))
    app = DomainDispatcherApplication(create_backend_app)
    lock = threading.Lock()

    def serialised(environ, start_response):
        with lock:
            # Consume the response inside the lock: the work may be lazy.
            return list(app(environ, start_response))

    run_simple(host, port, serialised, threaded=True, request_handler=MotoRequestHandler)


if __name__ == "__main__":
    main()
