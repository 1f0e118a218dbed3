# Sourced by scripts/bench.sh and scripts/quality.sh (the commands that read the dev
# corpus), after `cd` to the repository root: `source scripts/bench-common.sh LABEL`.
# Exports SIMHASH_DEVCORPUS (default target/devcorpus) and builds the corpus if it is
# missing; when this machine cannot build it, ends the calling script with one
# `SKIP LABEL: …` line and status 0.
export SIMHASH_DEVCORPUS="${SIMHASH_DEVCORPUS:-$PWD/target/devcorpus}"
corpus_rc=0; bash scripts/setup.sh --corpus || corpus_rc=$?
if [ "$corpus_rc" = 3 ]; then echo "SKIP $*: the dev corpus cannot be built on this machine"; exit 0; fi
[ "$corpus_rc" = 0 ] || exit "$corpus_rc"

# build_bench NAME: compiles `cargo bench --bench NAME` with its output in
# target/bench-logs/build-NAME.log, shown (compiler errors and all) if the build fails,
# so the run that follows prints the benchmark's own output only.
build_bench() {
  local log="target/bench-logs/build-$1.log"
  mkdir -p target/bench-logs
  if ! cargo bench --locked --no-run --bench "$1" > "$log" 2>&1; then
    cat "$log" >&2
    echo "building the $1 benchmark failed (the output above is in $log)" >&2
    exit 1
  fi
}
