#!/bin/sh
# bench-compare.sh runs edapply's benchmarks (./bench) in interleaved rounds
# and prints edapply's times as ratios to GNU patch, git apply and a plain
# copy measured in the same run, against the targets of the "Performance"
# issue. With benchstat installed (go install golang.org/x/perf/cmd/benchstat@latest)
# it also prints benchstat's summary.
#
#   scripts/bench-compare.sh [-count N] [-benchtime T] [-bench REGEXP] [-o DIR]
#   scripts/bench-compare.sh -ratios FILE     # ratios of an earlier run's output
#
# Rounds are interleaved (every benchmark once, N times) rather than -count=N,
# so a burst of load on a shared machine spreads over all benchmarks instead
# of skewing one. The files edited live in $BENCH_TMPDIR, default /dev/shm
# when it exists, so disk write-back (which ext4 starts on every
# replace-by-rename) does not swamp the CPU cost being compared; set
# BENCH_TMPDIR to a disk directory to include it. Medians are reported, of
# wall time (ns/op) and of CPU time (cpu-ns/op: this process and the
# commands it runs), which a loaded machine disturbs much less.
set -eu

count=5
benchtime=500ms
bench=.
out=
ratios_only=
while [ $# -gt 0 ]; do
	case $1 in
	-count) count=$2; shift 2 ;;
	-benchtime) benchtime=$2; shift 2 ;;
	-bench) bench=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-ratios) ratios_only=$2; shift 2 ;;
	*) echo "usage: $0 [-count N] [-benchtime T] [-bench REGEXP] [-o DIR] | -ratios FILE" >&2; exit 2 ;;
	esac
done

ratios() {
	# One "name metric value" line per result; the -N GOMAXPROCS suffix goes.
	awk '/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		for (i = 3; i < NF; i++) if ($(i+1) == "ns/op" || $(i+1) == "cpu-ns/op") print name, $(i+1), $i
	}' "$1" | sort -k1,1 -k2,2 -k3,3g | awk '
	{ k = $1 " " $2; v[k, ++n[k]] = $3 }
	END {
		for (k in n) { c = n[k]; med[k] = (c % 2) ? v[k, (c+1)/2] : (v[k, c/2] + v[k, c/2+1]) / 2 }
		split("ns/op cpu-ns/op", ms, " ")
		printf "%-44s %10s %10s %8s\n", "ratio (medians)", "wall", "cpu", "target"
		row("LargeFile/udiff / patch-50k", "BenchmarkLargeFile/udiff", "BenchmarkReference/patch-50k", "")
		row("LargeFile/searchreplace / patch-50k", "BenchmarkLargeFile/searchreplace", "BenchmarkReference/patch-50k", "<= 1.5")
		row("LargeFile/udiff / gitapply-50k", "BenchmarkLargeFile/udiff", "BenchmarkReference/gitapply-50k", "")
		row("CLI/udiff-50k / patch-50k", "BenchmarkCLI/udiff-50k", "BenchmarkReference/patch-50k", "")
		row("CLI/udiff-json-50k / patch-50k", "BenchmarkCLI/udiff-json-50k", "BenchmarkReference/patch-50k", "")
		row("CLI/searchreplace-50k / patch-50k", "BenchmarkCLI/searchreplace-50k", "BenchmarkReference/patch-50k", "")
		row("Miss200k / copy-200k", "BenchmarkMiss200k", "BenchmarkReference/copy-200k", "<= 15")
		row("Drift200k / copy-200k", "BenchmarkDrift200k", "BenchmarkReference/copy-200k", "")
		row("ManyFiles/udiff / gitapply-1000", "BenchmarkManyFiles/udiff", "BenchmarkReference/gitapply-1000", "<= 1")
		row("ManyFiles/searchreplace / gitapply-1000", "BenchmarkManyFiles/searchreplace", "BenchmarkReference/gitapply-1000", "<= 1")
		row("ManyFiles/udiff / patch-1000", "BenchmarkManyFiles/udiff", "BenchmarkReference/patch-1000", "")
		row("Scaling/4x / 1x", "BenchmarkScaling/4x", "BenchmarkScaling/1x", "~4")
		row("Scaling/16x / 1x", "BenchmarkScaling/16x", "BenchmarkScaling/1x", "~16")
		row("Lint/edapply-1000 / gitdiffcheck", "BenchmarkLint/edapply-1000", "BenchmarkLint/gitdiffcheck-1000", "<= 3")
		row("Lint/edapply-10000 / gitdiffcheck", "BenchmarkLint/edapply-10000", "BenchmarkLint/gitdiffcheck-10000", "<= 3")
		row("Lint/edapply-100000 / gitdiffcheck", "BenchmarkLint/edapply-100000", "BenchmarkLint/gitdiffcheck-100000", "<= 3")
		print ""
		printf "%-44s %14s %14s\n", "benchmark (medians)", "ns/op", "cpu-ns/op"
		for (k in n) if (split(k, p, " ") && p[2] == "ns/op") names[p[1]] = 1
		nn = 0; for (nm in names) list[++nn] = nm
		for (i = 2; i <= nn; i++) for (j = i; j > 1 && list[j-1] > list[j]; j--) { t = list[j]; list[j] = list[j-1]; list[j-1] = t }
		for (i = 1; i <= nn; i++) printf "%-44s %14.0f %14.0f\n", list[i], med[list[i] " ns/op"], med[list[i] " cpu-ns/op"]
	}
	function row(label, a, b, target,    w, c) {
		w = ((a " ns/op") in med && (b " ns/op") in med && med[b " ns/op"] > 0) ? sprintf("%.2f", med[a " ns/op"] / med[b " ns/op"]) : "-"
		c = ((a " cpu-ns/op") in med && (b " cpu-ns/op") in med && med[b " cpu-ns/op"] > 0) ? sprintf("%.2f", med[a " cpu-ns/op"] / med[b " cpu-ns/op"]) : "-"
		printf "%-44s %10s %10s %8s\n", label, w, c, target
	}'
}

if [ -n "$ratios_only" ]; then
	ratios "$ratios_only"
	exit 0
fi

cd "$(dirname "$0")/.."
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/edapply-bench.XXXXXX")
mkdir -p "$out"
if [ -z "${BENCH_TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	BENCH_TMPDIR=/dev/shm
fi
go test -c -o "$out/bench.test" ./bench
: >"$out/bench.txt"
i=1
while [ "$i" -le "$count" ]; do
	echo "round $i/$count" >&2
	(cd bench && TMPDIR=${BENCH_TMPDIR:-${TMPDIR:-/tmp}} "$out/bench.test" -test.run='^$' \
		-test.bench="$bench" -test.benchtime="$benchtime" -test.count=1) | tee -a "$out/bench.txt" | grep -E '^(Benchmark|---|FAIL|ok|PASS)' >&2 || true
	i=$((i + 1))
done
echo "results: $out/bench.txt" >&2

benchstat=$(command -v benchstat || true)
[ -n "$benchstat" ] || [ ! -x "${GOPATH:-$HOME/go}/bin/benchstat" ] || benchstat=${GOPATH:-$HOME/go}/bin/benchstat
if [ -n "$benchstat" ]; then
	"$benchstat" "$out/bench.txt"
	echo
fi
ratios "$out/bench.txt"
