"""What both client scripts share: a check that reports and goes on, and
the (role, text) pairs of a prompt result."""

counts = {"passed": 0, "failed": 0}


async def check(name, body):
    try:
        await body()
        counts["passed"] += 1
        print(f"ok - {name}")
    except Exception as err:  # noqa: BLE001 - report every failure and go on
        counts["failed"] += 1
        print(f"FAILED - {name}: {type(err).__name__}: {err}")


def texts(result):
    return [(m.role, m.content.text) for m in result.messages]


def summary():
    """Prints the totals; whether every check passed."""
    print(f"{counts['passed']} passed, {counts['failed']} failed")
    return counts["failed"] == 0
