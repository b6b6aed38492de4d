"""Asks the showcase for prompts in the user's language (SEP-2792) with the
official MCP Python SDK's client, sending the preference as raw `_meta`
(`io.modelcontextprotocol/acceptLanguage`) on each request, in both eras:
`auto` (2026-07-28 with this server) and `legacy` (the initialize
handshake). The server serves a folder of prompt files with `review.md`,
`review.fr.md` and `review.de.md`, and the showcase's `greet`, whose
French and German texts come from Fluent files.

Usage: python languages.py <path to the showcase binary | http://host:port/mcp> DIR
"""

import sys

import anyio
from mcp import Client, StdioServerParameters

from checks import check, summary, texts

PREFERENCE = "io.modelcontextprotocol/acceptLanguage"
CONTENT = "io.modelcontextprotocol/contentLanguage"


def client(target, folder, mode):
    server = (
        target
        if target.startswith("http")
        else StdioServerParameters(command=target, args=["--prompts-dir", folder])
    )
    return Client(server, mode=mode)


def wants(preference):
    return {PREFERENCE: preference}


def language_of(result):
    meta = result.meta or {}
    return meta.get(CONTENT)


async def run_mode(target, folder, mode):
    async def get(c, preference, name="review", arguments=None):
        arguments = arguments or {"code": "x = 1"}
        meta = None if preference is None else wants(preference)
        return await c.get_prompt(name, arguments, meta=meta)

    async def lookup():
        async with client(target, folder, mode) as c:
            for preference, language, text in [
                ("fr-CH, en;q=0.5", "fr", "Relis ce code : x = 1"),
                ("de-AT", "de", "Prüfe diesen Code: x = 1"),
                ("ja", "en", "Review this code: x = 1"),
                ("*", "en", "Review this code: x = 1"),
                ("fr;q=0, de", "de", "Prüfe diesen Code: x = 1"),
                ("en, fr;q=0.9", "en", "Review this code: x = 1"),
            ]:
                r = await get(c, preference)
                assert texts(r) == [("user", text)], (preference, r)
                assert language_of(r) == language, (preference, r.meta)

    await check(f"{mode}: RFC 4647 lookup over the weighted ranges", lookup)

    async def request_scoped():
        async with client(target, folder, mode) as c:
            french = await get(c, "fr")
            german = await get(c, "de")
            plain = await get(c, None)
            assert texts(french) == [("user", "Relis ce code : x = 1")], french
            assert texts(german) == [("user", "Prüfe diesen Code: x = 1")], german
            assert texts(plain) == [("user", "Review this code: x = 1")], plain
            assert language_of(plain) is None, plain.meta
            assert french.description == "Relire du code", french

    await check(f"{mode}: each request gets its own language; none is kept", request_scoped)

    async def listing():
        async with client(target, folder, mode) as c:
            listed = await c.list_prompts(meta=wants("fr"))
            assert listed.meta and listed.meta.get(CONTENT) == "fr", listed.meta
            by_name = {p.name: p for p in listed.prompts}
            assert by_name["review"].title == "Relecture", by_name["review"]
            assert by_name["review"].arguments[0].description == "Le code", by_name["review"]
            assert by_name["greet"].title == "Salutation", by_name["greet"]
            # Prompts with no French keep their own texts.
            assert by_name["code_review"].title == "Review code", by_name["code_review"]
            nothing = await c.list_prompts(meta=wants("ja"))
            assert nothing.meta.get(CONTENT) == "en", nothing.meta
            assert {p.name: p for p in nothing.prompts}["review"].title == "Review"
            plain = await c.list_prompts(cache_mode="bypass")
            assert (plain.meta or {}).get(CONTENT) is None, plain.meta
            if mode != "legacy":
                # Localized: never cached for everyone.
                assert listed.cache_scope == "private", listed.cache_scope

    await check(f"{mode}: listings in the language asked for", listing)

    async def rust_prompts():
        async with client(target, folder, mode) as c:
            arguments = {"name": "Ann", "tone": "formal"}
            r = await get(c, "fr", "greet", arguments)
            assert texts(r) == [("user", "Rédige une salutation courte et soutenue pour Ann.")], r
            assert language_of(r) == "fr", r.meta
            r = await get(c, "de-CH, fr;q=0.3", "greet", arguments)
            assert texts(r) == [("user", "Verfasse eine kurze, förmliche Begrüßung für Ann.")], r
            r = await get(c, "es", "greet", arguments)
            assert texts(r) == [("user", "Compose a short, formal greeting for Ann.")], r
            assert language_of(r) == "en", r.meta

    await check(f"{mode}: #[prompt]s with Fluent texts choose their body", rust_prompts)

    async def malformed():
        async with client(target, folder, mode) as c:
            r = await get(c, "fr;q=2")
            assert texts(r) == [("user", "Review this code: x = 1")], r
            assert language_of(r) is None, r.meta

    await check(f"{mode}: a malformed preference is no preference", malformed)


async def main(target, folder):
    for mode in ["auto", "legacy"]:
        await run_mode(target, folder, mode)
    return summary()


if __name__ == "__main__":
    sys.exit(0 if anyio.run(main, sys.argv[1], sys.argv[2]) else 1)
