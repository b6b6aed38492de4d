"""Drives the fixture server, whose catalog is live, with the official MCP
Python SDK's client: a prompt removed, added back, disabled and enabled
again while the client is connected is seen through the announcement and
a new prompts/list; in `legacy` mode through notifications/prompts/
list_changed, in `auto` mode (2026-07-28) through subscriptions/listen.
Over stdio (it starts the binary) or Streamable HTTP (the server is running).

Usage: python live.py <path to the fixture server | http://host:port/mcp>
"""

import sys

import anyio
from mcp import Client, StdioServerParameters, types

from checks import check, summary, texts

CHANGES = [
    ("remove", "whoami", False),
    ("add", "whoami", True),
    ("disable", "whoami", False),
    ("enable", "whoami", True),
]


def server(target):
    return target if target.startswith("http") else StdioServerParameters(command=target, args=[])


async def names(c):
    listing = await c.list_prompts(cache_mode="bypass")
    return [p.name for p in listing.prompts]


async def legacy(target):
    announced = anyio.Event()

    async def handler(message):
        nonlocal announced
        if isinstance(message, types.ServerNotification) and (
            message.method == "notifications/prompts/list_changed"
        ):
            announced.set()

    async with Client(server(target), mode="legacy", message_handler=handler) as c:
        assert c.server_capabilities.prompts.list_changed is True, c.server_capabilities
        assert "whoami" in await names(c)
        for change, name, present in CHANGES:
            announced = anyio.Event()
            r = await c.get_prompt("change", {"change": change, "name": name})
            assert texts(r) == [("user", f"{change.capitalize()} {name}: true")], r
            with anyio.fail_after(5):
                await announced.wait()
            assert (name in await names(c)) == present, (change, name)


async def modern(target):
    async with Client(server(target), mode="auto") as c:
        assert c.protocol_version == "2026-07-28", c.protocol_version
        assert c.server_capabilities.prompts.list_changed is True, c.server_capabilities
        assert "whoami" in await names(c)
        async with c.listen(prompts_list_changed=True) as subscription:
            events = subscription.__aiter__()
            for change, name, present in CHANGES:
                r = await c.get_prompt("change", {"change": change, "name": name})
                assert texts(r) == [("user", f"{change.capitalize()} {name}: true")], r
                with anyio.fail_after(5):
                    await events.__anext__()
                assert (name in await names(c)) == present, (change, name)


async def main(target):
    await check("legacy: changes come as list_changed", lambda: legacy(target))
    await check("auto (2026-07-28): changes come on subscriptions/listen", lambda: modern(target))
    return summary()


if __name__ == "__main__":
    sys.exit(0 if anyio.run(main, sys.argv[1]) else 1)
