#!/usr/bin/env bash
# `npm test`: set up what is missing, then run every test (vitest) and end with the plain line
# "N passed, N failed" from vitest's own counts.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure.sh || { echo "set-up failed"; echo "0 passed, 1 failed"; exit 1; }
set +e
report=$(mktemp)
npx vitest run --reporter=default --reporter=json --outputFile="$report" "$@"
status=$?
node -e '
const fs = require("fs");
let r = {};
try { r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch {}
const passed = r.numPassedTests ?? 0;
const failed = (r.numFailedTests ?? 0) + ((r.numFailedTestSuites ?? 0) > 0 && !r.numFailedTests ? r.numFailedTestSuites : 0);
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report"
rm -f "$report"
exit $status
