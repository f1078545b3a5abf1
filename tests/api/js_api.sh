#!/usr/bin/env bash
# The JavaScript SDK's API (the TypeScript declarations sdk/js/*.d.ts,
# entry index.d.ts) held to its report, tests/api/ptc-conformance-sdk.api.md,
# with @microsoft/api-extractor (https://api-extractor.com/): its report
# lists every exported declaration; a report that differs from the committed
# one fails, the difference printed (an export removed, a signature
# changed; an addition too, so that the record follows every change).
#
#   API_EXTRACTOR=path/to/node_modules/.bin/api-extractor tests/api/js_api.sh          # CI
#   API_EXTRACTOR=... tests/api/js_api.sh --local   # after a deliberate change: rewrite the report
#
# api-extractor reads the package.json beside its config, so the
# declarations and package.json are copied with the config into a scratch
# directory (nothing is written under sdk/).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
: "${API_EXTRACTOR:?set API_EXTRACTOR to the api-extractor executable (npm install @microsoft/api-extractor)}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root"/sdk/js/*.d.ts "$root"/sdk/js/package.json "$work/"
sed "s|REPORT_FOLDER|$here/|" "$here/api-extractor.json" > "$work/api-extractor.json"
set +e
"$API_EXTRACTOR" run "$@" --config "$work/api-extractor.json" > "$work/log" 2>&1
status=$?
set -e
sed -e 's/\x1b\[[0-9;]*m//g' -e "s|$work/temp/|(new report) |g" -e "s|$work/||g" "$work/log" | grep -v '^\s*$'
if [ $status -ne 0 ] && [ -f "$work/temp/ptc-conformance-sdk.api.md" ]; then
  echo "--- the difference, recorded report (tests/api/ptc-conformance-sdk.api.md) to the declarations' now:"
  diff -u "$here/ptc-conformance-sdk.api.md" "$work/temp/ptc-conformance-sdk.api.md" | tail -n +3 || true
  echo "A change of the JavaScript SDK's API: if it is incompatible (a port written against the recorded API would break), keep the old name with a deprecation warning printed once, or make a new major version with a migration note in sdk/js/CHANGELOG.md; then rewrite the report (tests/api/js_api.sh --local)"
fi
exit $status
