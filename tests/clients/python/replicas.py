"""Drives two stateless showcase replicas behind a round-robin proxy with
the official MCP Python SDK's client in `auto` mode (2026-07-28): the
listing, ten `deploy_notes` question rounds (whose two legs the proxy sends
to different replicas, which share the request-state secret), and, with a
bearer token, `whoami`.

Usage: python replicas.py <http://host:port/mcp> [bearer token]
"""

import sys

import anyio
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from checks import check, summary, texts


async def answer(context, params):
    return types.ElicitResult(action="accept", content={"environment": "staging", "canary": False})


async def main(url, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else None
    http = create_mcp_http_client(headers=headers)
    transport = streamable_http_client(url, http_client=http)
    async with Client(transport, mode="auto", elicitation_callback=answer) as c:

        async def listing():
            assert c.protocol_version == "2026-07-28", c.protocol_version
            names = [p.name for p in (await c.list_prompts()).prompts]
            assert "deploy_notes" in names, names
            assert ("whoami" in names) == (token is not None), names

        await check("the listing", listing)

        async def rounds():
            done = 0
            for i in range(10):
                r = await c.get_prompt("deploy_notes", {"service": f"svc{i}"})
                want = f"Write deployment notes for svc{i} going to staging (canary: false)."
                assert texts(r) == [("user", want)], r
                done += 1
            assert done == 10, done

        await check("ten question rounds across replicas", rounds)

        if token:

            async def whoami():
                r = await c.get_prompt("whoami", {})
                assert texts(r) == [("user", "You are carol, with scopes: deploy prompts.")], r

            await check("whoami", whoami)

    return summary()


if __name__ == "__main__":
    sys.exit(0 if anyio.run(main, *sys.argv[1:3]) else 1)
