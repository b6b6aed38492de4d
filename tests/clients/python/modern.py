"""Drives the showcase with the official MCP Python SDK's high-level client
in every protocol mode it has: `auto` (probes server/discover, so speaks
2026-07-28 to this server), pinned to 2026-07-28, and `legacy` (the
initialize handshake), each with and without an elicitation callback, over
stdio (it starts the binary) or Streamable HTTP (the server is running).

Usage: python modern.py <path to the showcase binary | http://host:port/mcp>
"""

import sys

import anyio
from mcp import Client, StdioServerParameters, types
from mcp.shared.exceptions import MCPError

from checks import check, summary, texts


class User:
    """Answers forms as a user would, and remembers what it was asked."""

    def __init__(self, action="accept"):
        self.action = action
        self.asked = []

    async def __call__(self, context, params):
        self.asked.append(params.message)
        schema = params.requested_schema
        if self.action != "accept":
            return types.ElicitResult(action=self.action)
        if "service" in schema["properties"]:
            return types.ElicitResult(action="accept", content={"service": "db"})
        assert schema["properties"]["environment"]["enum"] == ["staging", "production"], schema
        assert schema["properties"]["canary"] == {
            "type": "boolean",
            "default": False,
            "description": "Deploy as a canary first",
        }, schema
        return types.ElicitResult(
            action="accept", content={"environment": "production", "canary": True}
        )


def client(target, mode, user=None):
    server = target if target.startswith("http") else StdioServerParameters(command=target, args=[])
    return Client(server, mode=mode, elicitation_callback=user)


async def run_mode(target, mode):
    expected = "2025-11-25" if mode == "legacy" else "2026-07-28"

    async def same_catalog():
        async with client(target, mode) as c:
            assert c.protocol_version == expected, c.protocol_version
            listing = await c.list_prompts()
            names = [p.name for p in listing.prompts]
            assert "greet" in names and "deploy_notes" in names, names
            if mode != "legacy":
                assert (listing.ttl_ms, listing.cache_scope) == (60000, "public"), listing
            r = await c.get_prompt("greet", {"name": "Ann", "tone": "Formal"})
            assert texts(r) == [("user", "Compose a short, formal greeting for Ann.")], r
            done = await c.complete(
                types.PromptReference(type="ref/prompt", name="greet"),
                {"name": "tone", "value": "f"},
            )
            assert done.completion.values == ["formal"], done
            try:
                await c.get_prompt("greet", {"name": "Ann", "tone": "rude"})
            except MCPError as err:
                assert err.error.code == -32602, err
            else:
                raise AssertionError("a bad choice was accepted")

    await check(f"{mode}: speaks {expected}; list, get, complete and errors", same_catalog)

    async def accepted():
        user = User()
        async with client(target, mode, user) as c:
            r = await c.get_prompt("deploy_notes", {"service": "api"})
            assert texts(r) == [
                ("user", "Write deployment notes for api going to production (canary: true).")
            ], r
            assert user.asked == ["Where is api being deployed?"], user.asked

    await check(f"{mode}: deploy_notes asks, and the answer is used", accepted)

    async def declined():
        user = User("decline")
        async with client(target, mode, user) as c:
            r = await c.get_prompt("deploy_notes", {"service": "api"})
            assert texts(r) == [("user", "Write generic deployment notes for api.")], r
            assert len(user.asked) == 1, user.asked

    await check(f"{mode}: deploy_notes declined", declined)

    async def unable():
        async with client(target, mode) as c:
            r = await c.get_prompt("deploy_notes", {"service": "api"})
            assert texts(r) == [("user", "Write generic deployment notes for api.")], r
            try:
                await c.get_prompt("deploy_notes", {})
            except MCPError as err:
                assert err.error.code == -32602, err
            else:
                raise AssertionError("a missing argument was accepted")

    await check(f"{mode}: a client that cannot elicit is not asked", unable)

    async def missing():
        user = User()
        async with client(target, mode, user) as c:
            r = await c.get_prompt("deploy_notes", {})
            assert texts(r) == [
                ("user", "Write deployment notes for db going to production (canary: true).")
            ], r
            assert user.asked == [
                "The prompt `Deployment notes` needs: `service`",
                "Where is db being deployed?",
            ], user.asked

    await check(f"{mode}: a missing argument is asked for", missing)


async def main(target):
    for mode in ["auto", "2026-07-28", "legacy"]:
        await run_mode(target, mode)
    return summary()


if __name__ == "__main__":
    sys.exit(0 if anyio.run(main, sys.argv[1]) else 1)
