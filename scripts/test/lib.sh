# Sourced by each part of `npm test` (scripts/test/*.sh), which runs alone from a fresh
# clone as `npm run PART`: moves to the repository root, puts the project's tools first on
# PATH, and gives the helpers below. Suite logs go to target/test-logs/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
log=target/test-logs; mkdir -p "$log"
step() { printf '\n=== %s\n' "$*"; }

# run LOG CMD...: runs a suite into target/test-logs/LOG, shows its summary lines, and
# ends the part if the suite fails (with the log's last 60 lines).
run() {
  local name="$1"; shift
  local rc=0
  "$@" > "$log/$name" 2>&1 || rc=$?
  grep -E '^(test result|running [0-9]+ test|# (tests|pass|fail|skipped))|FAILED|panicked|^not ok' "$log/$name" || true
  if [ "$rc" != 0 ]; then
    echo "--- $name failed (exit $rc); its last 60 lines:" >&2
    tail -n 60 "$log/$name" >&2
    exit 1
  fi
}

# passed WHAT N: records N passed tests of a suite (target/test-logs/counts, which
# scripts/test.sh sums for its closing line); a suite that ran zero tests ends the part.
passed() {
  echo "$1: $2 tests passed"
  [ "$2" -gt 0 ] || { echo "$1 ran zero tests" >&2; exit 1; }
  printf '%s\t%s\n' "$2" "$1" >> "$log/counts"
}

# count_cargo WHAT LOG...: sums "N passed" over every "test result:" line of cargo logs.
count_cargo() {
  local what="$1"; shift
  passed "$what" "$(cat "$@" | grep -Eo 'test result: ok\. [0-9]+ passed' | awk '{s += $4} END {print s + 0}')"
}

# count_node WHAT LOG: reads node --test's "# pass N".
count_node() {
  local n; n=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$2")
  passed "$1" "${n:-0}"
}

# build_pkg: the npm package in pkg/, rebuilt only when a source is newer (the build's
# output in target/test-logs/build.log).
build_pkg() {
  run build.log bash scripts/build.sh --if-stale
}

# part_done: the part's closing line, with its time.
part_done() { printf '\n=== %s passed (%d s)\n' "$1" "$SECONDS"; }
