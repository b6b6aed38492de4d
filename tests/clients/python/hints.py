"""What the listing says of typed arguments, and what a form asks, as the
official MCP Python SDK's client sees them over stdio from the fixture
server, in `legacy` mode and in `auto` mode (2026-07-28): a date's format,
a number's range and default, JSON; a value outside its range refused with
-32602; a form asking for a date with the JSON Schema `format` `date`.

Usage: python hints.py <path to the fixture server>
"""

import sys

import anyio
from mcp import Client, StdioServerParameters, types
from mcp.shared.exceptions import MCPError

from checks import check, summary, texts


def described(listing, name):
    prompt = next(p for p in listing.prompts if p.name == name)
    return {a.name: a.description for a in prompt.arguments or []}


async def run(target, mode):
    asked = []

    async def answer(context, params):
        asked.append(params.requested_schema)
        return types.ElicitResult(action="accept", content={"day": "2026-07-28"})

    server = StdioServerParameters(command=target, args=[])
    async with Client(server, mode=mode, elicitation_callback=answer) as c:

        async def listing():
            listed = await c.list_prompts()
            assert described(listed, "dated") == {
                "day": "The day (format: YYYY-MM-DD)",
                "hours": "Hours of focus (from 1 to 8; default: 4)",
            }, described(listed, "dated")
            assert described(listed, "typed.args")["list"] == "Format: JSON", listed

        async def in_range():
            r = await c.get_prompt("dated", {"day": "2026-07-28", "hours": "8"})
            assert texts(r) == [("user", "Focus 8 h on 2026-07-28.")], r

        async def out_of_range():
            try:
                await c.get_prompt("dated", {"day": "2026-07-28", "hours": "9"})
            except MCPError as err:
                assert err.error.code == -32602, err.error
                assert err.error.message == (
                    "invalid value for argument `hours`: expected an integer from 1 to 8 (got `9`)"
                ), err.error.message
            else:
                raise AssertionError("9 hours were accepted")

        async def a_bad_date():
            try:
                await c.get_prompt("dated", {"day": "28/07/2026"})
            except MCPError as err:
                assert err.error.code == -32602, err.error
                assert err.error.message.startswith(
                    "invalid value for argument `day`: expected a date such as 2026-07-28 ("
                ), err.error.message
            else:
                raise AssertionError("a bad date was accepted")

        async def a_form_asks_for_a_date():
            r = await c.get_prompt("ask_day", {})
            assert texts(r) == [("user", "On 2026-07-28.")], r
            schema = asked[-1]
            assert schema["properties"]["day"]["format"] == "date", schema

        await check(f"{mode}: the listing says formats and ranges", listing)
        await check(f"{mode}: a value in range", in_range)
        await check(f"{mode}: a value out of range is -32602", out_of_range)
        await check(f"{mode}: a bad date is -32602", a_bad_date)
        await check(f"{mode}: a form asks for a date", a_form_asks_for_a_date)


async def main(target):
    for mode in ["legacy", "auto"]:
        await run(target, mode)
    return summary()


if __name__ == "__main__":
    sys.exit(0 if anyio.run(main, sys.argv[1]) else 1)
