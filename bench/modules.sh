#!/usr/bin/env bash
# bench/modules.sh: the CPU, wall time and peak RSS of build/pahole against a
# peer pahole on kernel modules, each encoded as split BTF on a base, as a
# kernel build encodes its modules; runs alternating, one module at a time.
#
#   bench/modules.sh [OPTIONS] DIR|MODULE...
#
#   --base BTF     the base BTF (default: pahole v1.31's BTF of the 6.12
#                  corpus vmlinux, build/corpus/reference/vmlinux-6.12.default.btf)
#   --sample N     a sample of N of the modules, chosen by --seed (default: all)
#   --seed S       the sample's seed (default 1): the same modules every run
#   --fixed RUNS   also the fixed cost: a module of one function and one
#                  struct, compiled here, encoded RUNS times by each (default 20;
#                  0 leaves it out)
#   --keep DIR     keep the per-module figures (TSV) in DIR
#
# Every .ko under a DIR counts.  PAHOLE_OURS is our binary (default
# build/pahole), PAHOLE_PEER the peer (default build/upstream-v1.31/build/pahole,
# which ../shared/tools/upstream-pahole builds).  BENCH_OPTS are the options
# of both (default: Linux 6.12's scripts/Makefile.btf for modules: -J -j
# --btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs
# --lang_exclude=rust), with --btf_base and --btf_encode_detached added.
# Each module is encoded by ours and by the peer in turn (who goes first
# alternates), once it and the base have been read into the page cache
# (as a build's module just written is); CPU is user+system from wait4(),
# peak RSS its ru_maxrss, wall the time to wait4().
# Prints the sums, the medians and the largest, and ours/peer; a module
# where ours failed and the peer did not is listed.  A script, not a test:
# it asserts nothing.  Needs a quiet machine: ratios are within one run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ours=${PAHOLE_OURS:-$top/build/pahole}
peer=${PAHOLE_PEER:-$top/build/upstream-v1.31/build/pahole}
base=$top/build/corpus/reference/vmlinux-6.12.default.btf
opts=${BENCH_OPTS:--J -j --btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs --lang_exclude=rust}
sample=0 seed=1 fixed=20 keep=
inputs=()

usage()
{
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 64
}

while [ $# -gt 0 ]; do
	case $1 in
	--base) base=$2; shift 2 ;;
	--sample) sample=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--fixed) fixed=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	-h | --help) usage ;;
	-*) echo "modules.sh: unknown option $1" >&2; usage ;;
	*) inputs+=("$1"); shift ;;
	esac
done
[ ${#inputs[@]} -gt 0 ] || usage
[ -x "$ours" ] || { echo "modules.sh: no pahole at $ours (make build)" >&2; exit 1; }
[ -x "$peer" ] || { echo "modules.sh: no peer at $peer: build one with ../shared/tools/upstream-pahole, or PAHOLE_PEER=" >&2; exit 1; }
if [ ! -f "$base" ] && [ -x "$top/../shared/tools/corpus" ]; then
	"$top/../shared/tools/corpus" "$top/build/corpus" > /dev/null
fi
[ -f "$base" ] || { echo "modules.sh: no base BTF at $base" >&2; exit 1; }

# Outputs go to memory where there is some (/dev/shm): the disk's writeback is no
# part of what is measured.
tmp=$(mktemp -d -p "$([ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")")
trap 'rm -rf "$tmp"' EXIT
for i in "${inputs[@]}"; do
	if [ -d "$i" ]; then find -H "$i" -name '*.ko' -type f; else echo "$i"; fi
done | sort -u > "$tmp/all"
if [ "$sample" -gt 0 ]; then
	awk -v seed="$seed" 'BEGIN { srand(seed) } { printf "%.9f\t%s\n", rand(), $0 }' "$tmp/all" |
		sort -k1,1 | awk -v n="$sample" 'NR <= n' | cut -f2 | sort > "$tmp/list"
else
	cp "$tmp/all" "$tmp/list"
fi
[ -s "$tmp/list" ] || { echo "modules.sh: no modules" >&2; exit 1; }

if [ "$fixed" -gt 0 ]; then
	cat > "$tmp/fixed.c" <<'EOF'
struct fixed_cost {
	int a;
	long b;
};

long fixed_cost_sum(struct fixed_cost *p)
{
	return p->a + p->b;
}
EOF
	gcc -g -O2 -c "$tmp/fixed.c" -o "$tmp/fixed.o"
fi

exec python3 - "$ours" "$peer" "$base" "$opts" "$tmp" "$fixed" "$keep" <<'PY'
import os, shlex, statistics, subprocess, sys, time

ours, peer, base, opts, tmp, fixed, keep = sys.argv[1:8]
fixed = int(fixed)
opts = shlex.split(opts)


def run(binary, module, out):
    """One encoding: (ok, cpu s, wall s, peak RSS KB, major page faults)."""
    argv = [binary] + opts + ["--btf_base", base, "--btf_encode_detached=" + out, module]
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    return (os.waitstatus_to_exitcode(status) == 0, ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss,
            ru.ru_majflt)


def warm(path):
    """Reads @path into the page cache: a build's module was just written, and
    this machine keeps few files cached; neither side should pay for the disk."""
    with open(path, "rb") as f:
        while f.read(1 << 20):
            pass


def median(v):
    return statistics.median(v) if v else float("nan")


def ratio(a, b):
    return a / b if b else float("nan")


if fixed:
    obj = os.path.join(tmp, "fixed.o")
    cpu = {"ours": [], "peer": []}
    rss = {"ours": [], "peer": []}
    for i in range(fixed):
        order = [("ours", ours), ("peer", peer)]
        for name, binary in order if i % 2 == 0 else reversed(order):
            ok, c, _, r, _ = run(binary, obj, os.path.join(tmp, name + ".btf"))
            if not ok:
                sys.exit("modules.sh: %s failed on the fixed-cost object" % name)
            cpu[name].append(c)
            rss[name].append(r)
    print("fixed cost (one function, one struct; %d runs each, medians):" % fixed)
    print("  %-6s %10s %14s" % ("", "CPU (ms)", "peak RSS (MB)"))
    for name in ("ours", "peer"):
        print("  %-6s %10.1f %14.1f" % (name, 1000 * median(cpu[name]), median(rss[name]) / 1024))
    print("  ours/peer CPU %.2f, peak RSS %.2f" % (ratio(median(cpu["ours"]), median(cpu["peer"])),
                                                 ratio(median(rss["ours"]), median(rss["peer"]))))
    print()

modules = [l.strip() for l in open(os.path.join(tmp, "list")) if l.strip()]
rows = []
for i, m in enumerate(modules):
    order = [("ours", ours), ("peer", peer)]
    res = {}
    warm(base)
    warm(m)
    for name, binary in order if i % 2 == 0 else reversed(order):
        res[name] = run(binary, m, os.path.join(tmp, name + ".btf"))
    rows.append((m, res["ours"], res["peer"]))

failed = [m for m, o, p in rows if not o[0] and p[0]]
both = [(m, o, p) for m, o, p in rows if o[0] and p[0]]
if keep:
    os.makedirs(keep, exist_ok=True)
    with open(os.path.join(keep, "modules.tsv"), "w") as f:
        f.write("module\tours_ok\tours_cpu\tours_wall\tours_rss_kb\tours_majflt"
                "\tpeer_ok\tpeer_cpu\tpeer_wall\tpeer_rss_kb\tpeer_majflt\n")
        for m, o, p in rows:
            f.write("%s\t%d\t%.4f\t%.4f\t%d\t%d\t%d\t%.4f\t%.4f\t%d\t%d\n" %
                    ((m,) + tuple(o) + tuple(p)))

sums = {k: [sum(r[j][i] for r in both) for i in (1, 2)] for k, j in (("ours", 1), ("peer", 2))}
rss_ratios = sorted((o[3] / p[3], m) for m, o, p in both)
print("%d modules (%d encoded by both; ours failed on %d)" % (len(rows), len(both), len(failed)))
print("  %-6s %12s %12s %18s %18s" % ("", "CPU (s)", "wall (s)", "median RSS (MB)", "largest RSS (MB)"))
for name, j in (("ours", 1), ("peer", 2)):
    rss = [r[j][3] for r in both]
    print("  %-6s %12.2f %12.2f %18.1f %18.1f" % (name, sums[name][0], sums[name][1],
                                                   median(rss) / 1024, max(rss or [0]) / 1024))
print("  ours/peer: CPU %.3f, wall %.3f" % (ratio(sums["ours"][0], sums["peer"][0]),
                                            ratio(sums["ours"][1], sums["peer"][1])))
if rss_ratios:
    worst = rss_ratios[-1]
    print("  peak RSS ours/peer per module: median %.3f, largest %.3f (%s), above 1.0: %d" %
          (median([r for r, _ in rss_ratios]), worst[0], os.path.basename(worst[1]),
           sum(1 for r, _ in rss_ratios if r > 1.0)))
for m in failed:
    print("  ours failed: " + m)
PY
