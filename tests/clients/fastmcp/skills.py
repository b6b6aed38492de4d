"""Lists, verifies and downloads a server's skills with FastMCP's client
(SEP-2640: `skills/list`, `skills/get`, then every file through
`resources/read`), as a host would before it trusts them: every file's
size and sha256 digest against the entry, the entry's front matter field
by field against the downloaded SKILL.md, and the downloaded tree byte
for byte against the folder the server reads.

Usage: python skills.py <skills folder,...> <skill path,...> <http://host:port/mcp | command [args...]>

Each downloaded file must be in one of the folders (a skill embedded in
the server's binary is compared with the folder it was embedded from).
"""

import base64
import hashlib
import sys
import tempfile
from pathlib import Path

import anyio
import mcp_types
import yaml
from fastmcp import Client
from fastmcp.client.transports import StdioTransport
from fastmcp.skills.client import SkillsClientExtension

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
from checks import check, summary  # noqa: E402


def client(target):
    if target[0].startswith("http"):
        transport = target[0]
    else:
        transport = StdioTransport(command=target[0], args=target[1:])
    return Client(transport, extensions=[SkillsClientExtension()])


def front_matter(text):
    _, front, _ = text.split("---\n", 2)
    return yaml.safe_load(front)


async def main(roots, expected, target):
    roots = [Path(root) for root in roots]

    async def listed():
        async with client(target) as c:
            skills = await c.list_skills()
            paths = sorted(str(s.uri)[len("skill://") : -len("/SKILL.md")] for s in skills)
            assert paths == sorted(expected), paths
            for skill in skills:
                got = await c.get_skill_mcp(str(skill.uri))
                assert got.skill == skill, (got.skill, skill)

    await check("skills/list and skills/get agree, every skill listed", listed)

    async def downloaded():
        async with client(target) as c:
            with tempfile.TemporaryDirectory() as into:
                into = Path(into)
                for skill in await c.list_skills():
                    for entry in skill.resources:
                        uri = str(entry.uri)
                        [content] = await c.read_resource(uri)
                        if isinstance(content, mcp_types.TextResourceContents):
                            data = content.text.encode("utf-8")
                        else:
                            data = base64.b64decode(content.blob)
                        assert len(data) == entry.size, (uri, len(data), entry.size)
                        digest = "sha256:" + hashlib.sha256(data).hexdigest()
                        assert digest == entry.digest, (uri, digest, entry.digest)
                        path = into / uri[len("skill://") :]
                        path.parent.mkdir(parents=True, exist_ok=True)
                        path.write_bytes(data)
                    skill_md = (into / str(skill.uri)[len("skill://") :]).read_text("utf-8")
                    frontmatter = skill.frontmatter.model_dump(mode="json", by_alias=True, exclude_none=True)
                    assert frontmatter == front_matter(skill_md), (frontmatter, skill_md)
                # What was downloaded is what is on disk.
                for path in into.rglob("*"):
                    if path.is_file():
                        sources = [root / path.relative_to(into) for root in roots]
                        [source] = [s for s in sources if s.is_file()]
                        assert path.read_bytes() == source.read_bytes(), path

    await check("every file downloads byte for byte, digests and front matter verified", downloaded)
    sys.exit(0 if summary() else 1)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1].split(","), sys.argv[2].split(","), sys.argv[3:])
