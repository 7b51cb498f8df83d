"""The HTTP and WebSocket endpoints, one module a concern; each reaches the server's shared objects through the
application's state (``common.shared``), as Starlette's own examples do.  ``dehla.web.app`` routes to them."""
