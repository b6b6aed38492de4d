"""Drives examples/team_server, served with auth on (`--auth-issuer`), with
the official MCP Python SDK's client in `auto` mode (2026-07-28 to this
server) and `legacy` mode (the initialize handshake), as a developer
(scope `prompts`) and as a release manager (`prompts release`): the Rust
prompts (a choice completed, a question answered), the team's Claude Code
command and VS Code prompt file, rmcp's tool, the prompts as tools, and the
release plan shown only to the release manager. Without a token, nothing
connects.

Usage: python team_server.py <http://host:port/mcp> <developer token> <release manager token>
"""

import sys

import anyio
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

from checks import check, summary, texts

TEAM_PROMPTS = ["changelog", "fix-issue", "incident_report", "onboarding", "review"]


async def answer_incident(context, params):
    """Answers the incident report's question as the person filing it would."""
    schema = params.requested_schema
    assert schema["properties"]["severity"]["enum"] == ["minor", "major", "critical"], schema
    return types.ElicitResult(
        action="accept", content={"severity": "major", "customers_affected": True}
    )


def client(url, token, mode):
    headers = {"Authorization": f"Bearer {token}"} if token else None
    http = create_mcp_http_client(headers=headers)
    return Client(
        streamable_http_client(url, http_client=http),
        mode=mode,
        elicitation_callback=answer_incident,
    )


def tool_texts(result):
    return [block.text for block in result.content]


async def run_mode(url, developer, manager, mode):
    expected = "2025-11-25" if mode == "legacy" else "2026-07-28"

    async def prompts_of_the_team():
        async with client(url, developer, mode) as c:
            assert c.protocol_version == expected, c.protocol_version
            listing = await c.list_prompts()
            assert sorted(p.name for p in listing.prompts) == TEAM_PROMPTS, listing
            review = await c.get_prompt("review", {"code": "fn main() {}", "language": "Rust"})
            assert texts(review) == [
                (
                    "user",
                    "Review this rust code for correctness, tests and naming; "
                    "cite the lines you mean.\n\nfn main() {}",
                )
            ], review
            done = await c.complete(
                types.PromptReference(type="ref/prompt", name="review"),
                {"name": "language", "value": "ty"},
            )
            assert done.completion.values == ["typescript"], done
            try:
                await c.get_prompt("review", {"code": "x", "language": "cobol"})
            except MCPError as err:
                assert err.error.code == -32602, err
                assert "`rust`, `typescript`, `python`, `sql`" in err.error.message, err
            else:
                raise AssertionError("a language outside the choices was accepted")

    await check(f"{mode}: speaks {expected}; the Rust prompts, a choice completed", prompts_of_the_team)

    async def a_question_answered():
        async with client(url, developer, mode) as c:
            r = await c.get_prompt("incident_report", {"service": "billing"})
            assert texts(r) == [
                (
                    "user",
                    "Draft a major incident report for billing; customers noticed it. "
                    "Cover the timeline, the cause and the follow-ups.",
                )
            ], r

    await check(f"{mode}: the incident report asks, and the answer shapes it", a_question_answered)

    async def the_teams_folders():
        async with client(url, developer, mode) as c:
            listing = await c.list_prompts()
            by_name = {p.name: p for p in listing.prompts}
            fix = by_name["fix-issue"]
            assert fix.description == "Fix an issue from the tracker", fix
            assert [(a.name, a.required) for a in fix.arguments] == [
                ("issue-number", True),
                ("priority", False),
            ], fix
            r = await c.get_prompt("fix-issue", {"issue-number": "42", "priority": "high"})
            assert texts(r) == [
                (
                    "user",
                    "Read issue #42 with `gh issue view 42`, find its cause, fix it with a test\n"
                    "that fails without the fix, and say what you changed. Priority: high",
                )
            ], r
            r = await c.get_prompt("onboarding", {"area": "the billing service"})
            assert texts(r)[0][1].startswith("Explain the billing service\nto a teammate"), r

    await check(f"{mode}: the .claude/commands and .github/prompts folders", the_teams_folders)

    async def tools():
        async with client(url, developer, mode) as c:
            listed = await c.list_tools()
            names = sorted(t.name for t in listed.tools)
            assert names == ["get_prompt", "list_prompts", "reading_time"], names
            r = await c.call_tool("reading_time", {"text": "one two three"})
            assert tool_texts(r) == ["3 words: about 1 min"], r
            r = await c.call_tool(
                "get_prompt", {"name": "onboarding", "arguments": {"area": "billing"}}
            )
            assert not r.is_error, r
            assert tool_texts(r)[0].startswith("user:\nExplain billing\n"), r
            r = await c.call_tool("list_prompts", {})
            listed = [p["name"] for p in r.structured_content["prompts"]]
            assert "release_plan" not in listed and "review" in listed, listed

    await check(f"{mode}: rmcp's tool and the prompts as tools", tools)

    async def scoped_to_release_managers():
        async with client(url, developer, mode) as c:
            try:
                await c.get_prompt("release_plan", {"version": "2.0"})
            except MCPError as err:
                assert err.error.code == -32602, err
                assert err.error.message == "Unknown prompt: release_plan", err
            else:
                raise AssertionError("release_plan was served to a developer")
        async with client(url, manager, mode) as c:
            listing = await c.list_prompts()
            assert "release_plan" in [p.name for p in listing.prompts], listing
            r = await c.get_prompt("release_plan", {"version": "2.0"})
            assert texts(r)[0][1].startswith("Plan the release of 2.0"), r

    await check(f"{mode}: release_plan only for the release scope", scoped_to_release_managers)


async def main(url, developer, manager):
    for mode in ["auto", "legacy"]:
        await run_mode(url, developer, manager, mode)

    async def no_token():
        try:
            async with client(url, None, "legacy") as c:
                await c.list_prompts()
        except Exception:  # noqa: BLE001 - a 401 surfaces as the transport's error
            return
        raise AssertionError("connected without a token")

    await check("without a token nothing connects", no_token)
    sys.exit(0 if summary() else 1)


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:4])
