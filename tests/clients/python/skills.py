"""Reads a server's skills as plain resources with the official MCP Python
SDK's client, which knows no skills: in `auto` mode (2026-07-28 to this
server) and `legacy` mode (the initialize handshake), `resources/list`
lists every skill file, and `resources/read` gives each one's bytes as
they are on disk, text or blob.

Usage: python skills.py <skills folder,...> <file count> <http://host:port/mcp | command [args...]>

A file is compared with the one at its path in whichever folder holds it
(a skill embedded in the server is compared with its source folder).
"""

import base64
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from checks import check, summary


def client(target, mode):
    if target[0].startswith("http"):
        server = target[0]
    else:
        server = StdioServerParameters(command=target[0], args=target[1:])
    return Client(server, mode=mode)


async def main(roots, count, target):
    roots = [Path(root) for root in roots]
    for mode in ["auto", "legacy"]:

        async def read_every_file():
            async with client(target, mode) as c:
                listing = await c.list_resources()
                uris = [str(r.uri) for r in listing.resources]
                assert len(uris) == count, uris
                for resource in listing.resources:
                    uri = str(resource.uri)
                    assert uri.startswith("skill://"), uri
                    read = await c.read_resource(uri)
                    [content] = read.contents
                    if hasattr(content, "text"):
                        data = content.text.encode("utf-8")
                    else:
                        data = base64.b64decode(content.blob)
                    [source] = [r / uri[len("skill://") :] for r in roots if (r / uri[len("skill://") :]).is_file()]
                    on_disk = source.read_bytes()
                    assert data == on_disk, uri
                    assert resource.size == len(on_disk), (uri, resource.size)
                try:
                    await c.read_resource("skill://alpha/../alpha/SKILL.md")
                except MCPError as err:
                    expected = -32002 if mode == "legacy" else -32602
                    assert err.error.code == expected, err
                else:
                    raise AssertionError("a traversal URI was read")

        await check(f"{mode}: every skill file listed and read byte for byte", read_every_file)
    sys.exit(0 if summary() else 1)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3:])
