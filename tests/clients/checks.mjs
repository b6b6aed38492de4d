// What the client scripts share: a check that reports and goes on, and
// the totals line the Rust tests read (as python/checks.py does).
const counts = { passed: 0, failed: 0 };

export async function check(name, body) {
  try {
    await body();
    counts.passed += 1;
    console.log(`ok - ${name}`);
  } catch (err) {
    counts.failed += 1;
    console.log(`FAILED - ${name}: ${err && err.stack ? err.stack : err}`);
  }
}

// Prints the totals and ends the process: 0 if every check passed.
export function finish() {
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed === 0 ? 0 : 1);
}
