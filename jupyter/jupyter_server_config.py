"""Server config for `make lab` and the end-to-end tests.

A stock Jupyter server never sets TCP_NODELAY on its kernel websockets, so Nagle's
algorithm holds each small widget message back for a delayed ACK: about 35 ms on
every click's round trip. Setting it on open removes that delay.
"""

from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

_open = KernelWebsocketHandler.open


async def _open_nodelay(self, *args, **kwargs):  # type: ignore[no-untyped-def]
    self.set_nodelay(True)
    return await _open(self, *args, **kwargs)


if not getattr(KernelWebsocketHandler, "_kum_nodelay", False):
    KernelWebsocketHandler.open = _open_nodelay
    KernelWebsocketHandler._kum_nodelay = True
