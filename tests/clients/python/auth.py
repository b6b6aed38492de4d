"""Drives the showcase serving with auth on (`--auth-issuer`) with the
official MCP Python SDK's client, in `auto` mode (which speaks 2026-07-28
to this server) and in `legacy` mode (the initialize handshake), as two
callers, each with its own bearer token: one granted `prompts read`, the
other `deploy prompts`. Each sees itself in `whoami`; only the second sees
`deploy_notes`, which the first cannot tell from a prompt that does not
exist. Without a token, nothing connects.

Usage: python auth.py <http://host:port/mcp> <reader token> <deployer token>
"""

import sys

import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

from checks import check, summary, texts


def client(url, token, mode):
    headers = {"Authorization": f"Bearer {token}"} if token else None
    http = create_mcp_http_client(headers=headers)
    return Client(streamable_http_client(url, http_client=http), mode=mode)


async def main(url, reader, deployer):
    for mode in ["auto", "legacy"]:
        expected = "2025-11-25" if mode == "legacy" else "2026-07-28"

        async def as_reader():
            async with client(url, reader, mode) as c:
                assert c.protocol_version == expected, c.protocol_version
                listing = await c.list_prompts()
                names = [p.name for p in listing.prompts]
                assert "whoami" in names and "deploy_notes" not in names, names
                if mode != "legacy":
                    # The list depends on who asks.
                    assert listing.cache_scope == "private", listing
                r = await c.get_prompt("whoami", {})
                assert texts(r) == [("user", "You are ann, with scopes: prompts read.")], r
                for name in ["deploy_notes", "no_such_prompt"]:
                    try:
                        await c.get_prompt(name, {"service": "api"})
                    except MCPError as err:
                        assert err.error.code == -32602, err
                        assert err.error.message == f"Unknown prompt: {name}", err
                    else:
                        raise AssertionError(f"{name} was served to a reader")

        await check(f"{mode}: a reader sees itself, and not deploy_notes", as_reader)

        async def as_deployer():
            async with client(url, deployer, mode) as c:
                listing = await c.list_prompts()
                assert "deploy_notes" in [p.name for p in listing.prompts], listing
                r = await c.get_prompt("whoami", {})
                assert texts(r) == [("user", "You are bob, with scopes: deploy prompts.")], r

        await check(f"{mode}: a deployer sees deploy_notes", as_deployer)

        async def anonymous():
            try:
                with anyio.fail_after(20):
                    async with client(url, None, mode) as c:
                        await c.list_prompts()
            except Exception:  # noqa: BLE001 - any refusal will do; none is the failure
                return
            raise AssertionError("a client without a token was served")

        await check(f"{mode}: no token, no service", anonymous)

    return summary()


if __name__ == "__main__":
    sys.exit(0 if anyio.run(main, *sys.argv[1:4]) else 1)
