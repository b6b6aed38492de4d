"""Drives a server of another tool's prompt folder (examples/claude-commands,
examples/vscode-prompts, examples/dotprompt) with the official MCP Python
SDK's client, in `legacy` mode and in `auto` mode (2026-07-28): each folder
is listed and its prompts got as those tools' files mean them.

Usage: python folders.py claude|vscode|dotprompt COMMAND [ARGS...]
   or: python folders.py claude|vscode|dotprompt http://host:port/mcp
"""

import json
import sys

import anyio
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from checks import check, summary, texts


def server(target):
    if target[0].startswith("http"):
        return target[0]
    return StdioServerParameters(command=target[0], args=target[1:])


def arguments(prompt):
    return [(a.name, a.required) for a in prompt.arguments or []]


async def claude(c):
    listing = {p.name: p for p in (await c.list_prompts()).prompts}
    assert {"review-pr", "git.commit"} <= set(listing), listing
    review = listing["review-pr"]
    assert review.description == "Review a pull request", review
    # No front matter: described by its first line, as Claude Code does.
    assert listing["explain-code"].description == "Explain the code in plain words", listing
    assert arguments(review) == [("pr-number", True), ("focus", False)], review
    r = await c.get_prompt("git.commit", {"arguments": "the parser reads CRLF files"})
    [(role, text)] = texts(r)
    assert role == "user", r
    assert text.startswith("Write a commit message for these changes: the parser reads CRLF"), text
    r = await c.get_prompt("review-pr", {"pr-number": "42"})
    assert texts(r)[0][1].startswith("Review pull request #42."), r


async def vscode(c):
    listing = {p.name: p for p in (await c.list_prompts()).prompts}
    assert "write-tests" in listing, listing
    write = listing["write-tests"]
    assert arguments(write) == [("function", True)], write
    assert write.arguments[0].description == "The function to test", write
    r = await c.get_prompt("write-tests", {"function": "parse_file"})
    [(role, text)] = texts(r)
    assert role == "user" and text.startswith("Write unit tests for parse_file, covering"), r
    # VS Code's own variables are not arguments: they stay as written.
    assert "${file}" in text, text


async def dotprompt(c):
    listing = {p.name: p for p in (await c.list_prompts()).prompts}
    assert {"explain", "git.changelog"} <= set(listing), listing
    # The partial (_persona.prompt) is not a prompt.
    assert not any("persona" in name for name in listing), listing
    explain = listing["explain"]
    assert arguments(explain) == [
        ("code", True),
        ("language", False),
        ("level", False),
        ("focus", False),
    ], explain
    r = await c.get_prompt(
        "explain",
        {"code": "x = 1 << 3", "level": "EXPERT", "focus": json.dumps(["shifts", "<<"])},
    )
    got = texts(r)
    assert [role for role, _ in got] == ["user", "user"], got
    assert "plainly and briefly" in got[0][1], got
    # Enum values match case aside and take their declared spelling; the
    # template's values are not HTML-escaped.
    assert "code to a expert:\n\nx = 1 << 3" in got[1][1], got
    assert "0. shifts\n1. <<" in got[1][1], got
    r = await c.get_prompt(
        "git.changelog",
        {"version": "2.0", "commits": '["Drop v1 API", "Add streaming"]', "breaking": "true"},
    )
    got = texts(r)
    assert [role for role, _ in got] == ["user", "assistant"], got
    assert "- Drop v1 API\n- Add streaming\n" in got[0][1], got
    assert "Start with the breaking changes" in got[0][1], got
    for bad in ({"version": "2.0", "commits": "Drop v1 API"}, {"version": "2.0", "commits": "[]", "breaking": "maybe"}):
        try:
            await c.get_prompt("git.changelog", bad)
        except MCPError as err:
            assert err.error.code == -32602, err.error
        else:
            raise AssertionError(f"{bad} was accepted")


FOLDERS = {"claude": claude, "vscode": vscode, "dotprompt": dotprompt}


async def main(folder, target):
    body = FOLDERS[folder]

    async def in_mode(mode):
        async with Client(server(target), mode=mode) as c:
            if mode == "auto":
                assert c.protocol_version == "2026-07-28", c.protocol_version
            await body(c)

    await check(f"{folder} folder, legacy", lambda: in_mode("legacy"))
    await check(f"{folder} folder, auto (2026-07-28)", lambda: in_mode("auto"))
    return summary()


if __name__ == "__main__":
    sys.exit(0 if anyio.run(main, sys.argv[1], sys.argv[2:]) else 1)
