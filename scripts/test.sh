#!/usr/bin/env bash
# Runs every test: the lit suite and pytest. Fails if either fails or runs nothing.
set -uo pipefail
cd "$(dirname "$0")/.."
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
status=0
echo "== lit tests/filecheck"
out=$(lit -v tests/filecheck 2>&1); rc=$?
echo "$out" | grep -v "^PASS:" | tail -n 200
echo "$out" | grep -E "^\s*(Passed|Failed|Unsupported|Unresolved)" || true
if [ $rc -ne 0 ]; then status=1; fi
if ! echo "$out" | grep -qE "Passed\s*:\s*[1-9]"; then echo "lit ran no passing test"; status=1; fi
echo "== pytest"
python -m pytest -q -p no:cacheprovider "$@"; rc=$?
if [ $rc -ne 0 ]; then echo "pytest failed (exit $rc; 5 means no tests ran)"; status=1; fi
exit $status
