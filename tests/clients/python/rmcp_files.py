"""Drives an rmcp server that also serves a folder of prompt files
(examples/with_rmcp.rs with --prompts-dir DIR) with the official MCP Python
SDK's client: a prompt file written into the folder, and removed again,
while the client is connected is seen through the announcement and a new
prompts/list; in `legacy` mode through notifications/prompts/list_changed,
in `auto` mode (2026-07-28) through subscriptions/listen.

Usage: python rmcp_files.py DIR COMMAND [ARGS...]
   or: python rmcp_files.py DIR http://host:port/mcp
"""

import os
import sys

import anyio
from mcp import Client, StdioServerParameters, types

from checks import check, summary, texts


def server(target):
    if target[0].startswith("http"):
        return target[0]
    return StdioServerParameters(command=target[0], args=target[1:])


async def names(c):
    listing = await c.list_prompts(cache_mode="bypass")
    return [p.name for p in listing.prompts]


def changes(folder, name):
    """Writes the prompt file `name`.md, then removes it: each step, and
    whether the prompt is served after it."""
    path = os.path.join(folder, f"{name}.md")

    def write():
        with open(path, "w") as f:
            f.write(f"Hello from {name}.\n")

    return [(write, True), (lambda: os.remove(path), False)]


async def legacy(folder, target):
    announced = anyio.Event()

    async def handler(message):
        if isinstance(message, types.ServerNotification) and (
            message.method == "notifications/prompts/list_changed"
        ):
            announced.set()

    async with Client(server(target), mode="legacy", message_handler=handler) as c:
        assert c.server_capabilities.prompts.list_changed is True, c.server_capabilities
        assert c.server_capabilities.tools is not None, c.server_capabilities
        assert "code_review" in await names(c)
        for change, present in changes(folder, "from_legacy"):
            announced = anyio.Event()
            change()
            with anyio.fail_after(10):
                await announced.wait()
            assert ("from_legacy" in await names(c)) == present, present
            if present:
                r = await c.get_prompt("from_legacy", {})
                assert texts(r) == [("user", "Hello from from_legacy.")], r


async def modern(folder, target):
    async with Client(server(target), mode="auto") as c:
        assert c.protocol_version == "2026-07-28", c.protocol_version
        assert c.server_capabilities.prompts.list_changed is True, c.server_capabilities
        assert "code_review" in await names(c)
        async with c.listen(prompts_list_changed=True) as subscription:
            events = subscription.__aiter__()
            for change, present in changes(folder, "from_auto"):
                change()
                with anyio.fail_after(10):
                    await events.__anext__()
                assert ("from_auto" in await names(c)) == present, present


async def main(folder, target):
    await check("legacy: a file's change comes as list_changed", lambda: legacy(folder, target))
    await check(
        "auto (2026-07-28): a file's change comes on subscriptions/listen",
        lambda: modern(folder, target),
    )
    return summary()


if __name__ == "__main__":
    sys.exit(0 if anyio.run(main, sys.argv[1], sys.argv[2:]) else 1)
