"""Drives the showcase with the official MCP Python SDK client, over stdio
(it starts the binary) or Streamable HTTP (the server is running).

With `with_rmcp`, the server is examples/with_rmcp.rs: the showcase's prompts
served by an rmcp server that also has a tool, which must answer exactly as
the showcase does.

Usage: python showcase.py <path to the binary | http://host:port/mcp> [with_rmcp]
"""

import sys

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from checks import check, summary, texts


def connect(target):
    if target.startswith("http"):
        return streamable_http_client(target)
    return stdio_client(StdioServerParameters(command=target, args=[]))


async def main(target, with_rmcp=False):
    async with connect(target) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            init = await session.initialize()

            async def capabilities():
                caps = init.capabilities
                # The showcase's catalog is fixed: no change will be announced.
                assert caps.prompts is not None and not caps.prompts.list_changed, caps
                assert caps.completions is not None, caps

            await check("initialize declares prompts and completions", capabilities)

            async def listing():
                prompts = (await session.list_prompts()).prompts
                names = sorted(p.name for p in prompts)
                assert "greet" in names and "release_notes" in names, names
                greet = next(p for p in prompts if p.name == "greet")
                assert [(a.name, a.required) for a in greet.arguments] == [
                    ("name", True),
                    ("tone", False),
                ], greet.arguments

            await check("prompts/list shows the catalog", listing)

            async def prompts():
                r = await session.get_prompt("greet", {"name": "Ann", "tone": "Formal"})
                assert texts(r) == [("user", "Compose a short, formal greeting for Ann.")], r
                r = await session.get_prompt(
                    "release_notes",
                    {"project": "mcp-prompts", "version": "0.2.0", "changes": "a\nb"},
                )
                assert texts(r) == [
                    ("user", "Write release notes for mcp-prompts 0.2.0."),
                    ("assistant", "I will group the changes by kind and keep each line short."),
                    ("user", "Changes:\na\nb"),
                ], r
                r = await session.get_prompt("code_review", {"language": "rust", "code": "fn main() {}"})
                assert texts(r)[0] == ("user", "I am reviewing rust code."), r

            await check("prompts/get returns the exact messages", prompts)

            async def complete(prompt, argument, value, context=None):
                ref = types.PromptReference(type="ref/prompt", name=prompt)
                result = await session.complete(ref, {"name": argument, "value": value}, context)
                return result.completion

            async def languages():
                c = await complete("code_review", "language", "py")
                assert (c.values, c.total) == (["python"], 1), c
                c = await complete("code_review", "language", "c")
                assert c.values == ["c", "cpp", "csharp"], c
                c = await complete("code_review", "language", "J")
                assert c.values == ["java", "javascript"], c
                c = await complete("code_review", "language", "")
                assert (len(c.values), c.total, c.has_more) == (20, 20, False), c
                assert c.values[:3] == ["c", "cpp", "csharp"] and c.values[-1] == "zig", c
                c = await complete("code_review", "language", "zz")
                assert (c.values, c.total) == ([], 0), c

            await check("code_review.language completes from its list", languages)

            async def choices():
                c = await complete("greet", "tone", "f")
                assert c.values == ["formal"], c
                c = await complete("greet", "tone", "")
                assert c.values == ["formal", "casual"], c

            await check("greet.tone completes its choices", choices)

            async def focus():
                c = await complete("code_review", "focus", "", {"language": "rust"})
                assert c.values == ["ownership", "lifetimes", "unsafe code", "error handling"], c
                c = await complete("code_review", "focus", "")
                assert c.values == ["error handling", "performance", "readability"], c
                c = await complete("code_review", "focus", "l", {"language": "rust"})
                assert c.values == ["lifetimes"], c

            await check("code_review.focus depends on the language", focus)

            async def conformance_fixture():
                c = await complete("test_prompt_with_arguments", "arg1", "test")
                assert isinstance(c.values, list), c

            await check("an argument with no completer gets an empty list", conformance_fixture)

            async def errors():
                try:
                    await complete("no_such_prompt", "x", "")
                except MCPError as err:
                    assert err.error.code == -32602, err
                    assert "no_such_prompt" in err.error.message, err
                else:
                    raise AssertionError("an unknown prompt was completed")
                try:
                    await session.get_prompt("greet", {"name": "Ann", "tone": "rude"})
                except MCPError as err:
                    assert err.error.code == -32602, err
                    assert "formal" in err.error.message and "casual" in err.error.message, err
                else:
                    raise AssertionError("a bad choice was accepted")

            await check("errors carry the spec's codes", errors)

            async def tools():
                if not with_rmcp:
                    assert init.capabilities.tools is None, init.capabilities
                    return
                assert init.server_info.name == "mcp-prompts-with-rmcp", init.server_info
                listed = await session.list_tools()
                assert [t.name for t in listed.tools] == ["word_count"], listed
                r = await session.call_tool("word_count", {"text": "one two  three"})
                assert [(c.type, c.text) for c in r.content] == [("text", "3 words")], r

            await check("tools come from rmcp, next to the prompts", tools)

    return summary()


if __name__ == "__main__":
    with_rmcp = sys.argv[2:] == ["with_rmcp"]
    sys.exit(0 if anyio.run(main, sys.argv[1], with_rmcp) else 1)
