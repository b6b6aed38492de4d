"""Skills as prompts, through the official MCP Python SDK's client in
`auto` mode (2026-07-28 to this server) and `legacy` mode (2025-11-25):
each skill is a prompt named by its path whose messages are the SKILL.md
embedded under its skill:// URI, links to the skill's own files and the
request; a skill whose name another prompt has is no prompt; and the
prompt tools reach the same.

Usage: python skill_prompts.py <skills folder> <http://host:port/mcp | command [args...]>
"""

import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from checks import check, summary


async def main(root, command):
    root = Path(root)
    if command[0].startswith("http"):
        server = command[0]
    else:
        server = StdioServerParameters(command=command[0], args=command[1:])
    for mode in ["auto", "legacy"]:

        async def prompts():
            async with Client(server, mode=mode) as c:
                listing = await c.list_prompts()
                by_name = {p.name: p for p in listing.prompts}
                assert "alpha" in by_name and "alpha.beta" in by_name, list(by_name)
                assert by_name["alpha"].description == "The first skill", by_name["alpha"]
                # The showcase's own `greet`, not the skill of that name.
                assert by_name["greet"].description != "Collides with a prompt", by_name["greet"]
                r = await c.get_prompt("alpha", {"request": "Summarize the notes"})
                kinds = [m.content.type for m in r.messages]
                assert kinds == ["resource", "resource_link", "resource_link", "text"], kinds
                embedded = r.messages[0].content.resource
                assert str(embedded.uri) == "skill://alpha/SKILL.md", embedded
                assert embedded.text.encode() == (root / "alpha/SKILL.md").read_bytes()
                links = [str(m.content.uri) for m in r.messages[1:3]]
                assert links == ["skill://alpha/data/logo.bin", "skill://alpha/notes.txt"], links
                assert r.messages[3].content.text == "Summarize the notes", r.messages[3]
                # The skill embedded in the binary is a prompt too.
                guide = await c.get_prompt("showcase-guide", {})
                kinds = [m.content.type for m in guide.messages]
                assert kinds == ["resource", "resource_link"], kinds
                assert str(guide.messages[1].content.uri) == "skill://showcase-guide/references/arguments.md"

        await check(f"{mode}: each skill a prompt, the SKILL.md embedded, links, the request", prompts)

        async def tools():
            async with Client(server, mode=mode) as c:
                r = await c.call_tool("get_prompt", {"name": "alpha.beta"})
                assert not r.is_error, r
                assert any("Nested in alpha" in str(block) for block in r.content), r

        await check(f"{mode}: the prompt tools reach a skill's prompt", tools)
    sys.exit(0 if summary() else 1)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2:])
