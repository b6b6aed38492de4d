"""Drives the prompt tools (`--prompts-as-tools`) with the official MCP
Python SDK's client, in `auto` mode (which speaks 2026-07-28 to this
server) and `legacy` mode (the initialize handshake), over stdio (it starts
the binary with that flag) or Streamable HTTP (the server is running with
it). With `with_rmcp`, the server is examples/with_rmcp.rs: the same
answers from rmcp's tool router.

Usage: python tools.py <path to the binary | http://host:port/mcp> [with_rmcp]
"""

import sys

import anyio
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from checks import check, summary


def client(target, mode):
    if target.startswith("http"):
        server = target
    else:
        server = StdioServerParameters(command=target, args=["--prompts-as-tools"])
    return Client(server, mode=mode)


def texts(result):
    return [block.text for block in result.content]


async def run_mode(target, mode, with_rmcp):
    async def declared():
        async with client(target, mode) as c:
            listing = await c.list_tools()
            names = [t.name for t in listing.tools]
            ours = [n for n in names if n != "word_count"]
            # Ours lists list_prompts first; rmcp's router orders tools its own way.
            if with_rmcp:
                ours.sort(reverse=True)
            assert ours == ["list_prompts", "get_prompt"], names
            assert ("word_count" in names) == with_rmcp, names

    await check(f"{mode}: the prompt tools are declared", declared)

    async def list_prompts():
        async with client(target, mode) as c:
            r = await c.call_tool("list_prompts", {})
            assert not r.is_error, r
            assert "code_review (Review code): Review a code snippet" in texts(r)[0], r
            names = [p["name"] for p in r.structured_content["prompts"]]
            assert "summarize" in names, names
            # The conformance fixtures are kept out of the tools.
            assert not any(n.startswith("test_") for n in names), names
            kept_out = await c.call_tool("get_prompt", {"name": "test_simple_prompt"})
            assert kept_out.is_error, kept_out
            assert texts(kept_out) == ["Unknown prompt: test_simple_prompt"], kept_out

    await check(f"{mode}: list_prompts", list_prompts)

    async def get_prompt():
        async with client(target, mode) as c:
            args = {"name": "summarize", "arguments": {"text": "Hello.", "max_words": "5"}}
            r = await c.call_tool("get_prompt", args)
            assert not r.is_error, r
            assert texts(r) == [
                "user:\nSummarize the following text in at most 5 words:\n\nHello."
            ], r

    await check(f"{mode}: get_prompt", get_prompt)

    async def argument_error():
        async with client(target, mode) as c:
            bad = {"text": "t", "max_words": "many"}
            r = await c.call_tool("get_prompt", {"name": "summarize", "arguments": bad})
            assert r.is_error, r
            try:
                await c.get_prompt("summarize", bad)
            except MCPError as err:
                assert err.error.code == -32602, err
                assert texts(r) == [err.error.message], (texts(r), err.error.message)
            else:
                raise AssertionError("a bad argument was accepted")

    await check(f"{mode}: an argument error is a tool error", argument_error)


async def main(target, with_rmcp):
    for mode in ["auto", "legacy"]:
        await run_mode(target, mode, with_rmcp)
    return summary()


if __name__ == "__main__":
    target = sys.argv[1]
    with_rmcp = len(sys.argv) > 2 and sys.argv[2] == "with_rmcp"
    sys.exit(0 if anyio.run(main, target, with_rmcp) else 1)
