"""Drives the showcase serving a directory of prompt files with the official
MCP Python SDK's client: a file added, edited, broken, fixed and deleted
while the client is connected is seen through the announcement and a new
prompts/list; in `legacy` mode through notifications/prompts/list_changed,
in `auto` mode (2026-07-28) through subscriptions/listen. Over stdio (it
starts the showcase with --prompts-dir DIR) or Streamable HTTP (the showcase
is running with --prompts-dir DIR).

Usage: python prompt_files.py <path to the showcase | http://host:port/mcp> DIR
"""

import os
import sys

import anyio
from mcp import Client, StdioServerParameters, types

from checks import check, summary, texts


def server(target, directory):
    if target.startswith("http"):
        return target
    return StdioServerParameters(command=target, args=["--prompts-dir", directory])


def prompt(body):
    return (
        '+++\ndescription = "Meeting notes"\n\n[[arguments]]\nname = "topic"\n'
        f'choices = ["design", "release"]\n+++\n{body}\n'
    )


def steps(path):
    def write(body):
        def change():
            with open(path, "w", encoding="utf-8") as f:
                f.write(prompt(body))

        return change

    return [
        ("add", write("Notes on {topic}."), "Notes on design."),
        ("edit", write("Minutes: {topic}."), "Minutes: design."),
        ("break", write("Minutes: {topc}."), None),
        ("fix", write("Fixed: {topic}."), "Fixed: design."),
        ("delete", lambda: os.remove(path), None),
    ]


async def names(c):
    listing = await c.list_prompts(cache_mode="bypass")
    return [p.name for p in listing.prompts]


async def served_as(c, name, count, step, expected):
    now = await names(c)
    assert (name in now) == (expected is not None), (step, now)
    assert len(now) == count + (expected is not None), (step, now)
    if expected is not None:
        r = await c.get_prompt(name, {"topic": "Design"})
        assert texts(r) == [("user", expected)], (step, r)


async def legacy(target, directory):
    announced = anyio.Event()

    async def handler(message):
        if isinstance(message, types.ServerNotification) and (
            message.method == "notifications/prompts/list_changed"
        ):
            announced.set()

    name = "notes_py_legacy"
    async with Client(server(target, directory), mode="legacy", message_handler=handler) as c:
        assert c.server_capabilities.prompts.list_changed is True, c.server_capabilities
        count = len(await names(c))
        for step, change, expected in steps(os.path.join(directory, f"{name}.md")):
            announced = anyio.Event()
            change()
            with anyio.fail_after(5):
                await announced.wait()
            await served_as(c, name, count, step, expected)


async def modern(target, directory):
    name = "notes_py_auto"
    async with Client(server(target, directory), mode="auto") as c:
        assert c.protocol_version == "2026-07-28", c.protocol_version
        count = len(await names(c))
        async with c.listen(prompts_list_changed=True) as subscription:
            events = subscription.__aiter__()
            for step, change, expected in steps(os.path.join(directory, f"{name}.md")):
                change()
                with anyio.fail_after(5):
                    await events.__anext__()
                await served_as(c, name, count, step, expected)


async def main(target, directory):
    await check("legacy: edited files come as list_changed", lambda: legacy(target, directory))
    await check(
        "auto (2026-07-28): edited files come on subscriptions/listen",
        lambda: modern(target, directory),
    )
    return summary()


if __name__ == "__main__":
    sys.exit(0 if anyio.run(main, sys.argv[1], sys.argv[2]) else 1)
