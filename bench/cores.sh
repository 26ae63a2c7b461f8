#!/usr/bin/env bash
# bench/cores.sh: where ours stops scaling on a vmlinux, modelled from -V
# runs at -j1, and the model checked against measured walls at -j1 and -j2.
#
#   bench/cores.sh [VMLINUX]     default: the corpus's 6.1 vmlinux
#
# A -V run prints the time its worker spent on each chunk, from the end of
# the one before ("pahole: chunk N: ... X s CPU, Y s wall"), and the time of
# every phase.  The model takes the chunks' walls: beside another worker a
# chunk waits too (for the queue's lock, for a core the host gives to
# something else), which its thread's CPU does not count.  From the medians
# of RECORD such runs at -j1 (default 3) the wall at N workers is modelled as
#   reading the symbols and units + the rest of the process (start, libdw's
#   open, the ends: the -V wall less the timed phases and -V's own listing)
#   + N times what a worker costs to start (the -j64 wall less the -j1 wall
#     on a one-function object, over 63)
#   + the time the encoding phase spends outside the chunks at -j1
#   + the chunks scheduled on N workers as the encoder hands them out: in
#     index order, each to the first worker free, but not before the scan
#     of the units has published its units ("ready at R s": the workers
#     start beside libdw's interning of the units, dwarf_scan.c); a chunk's
#     units cost their bytes at the chunk's rate (its own units' wall, less
#     what taking it waited for them, "waited W s", over their bytes: -V
#     lists each unit's bytes), its end (its dedup) "end E s"; once the
#     queue is empty a free worker takes the back half, by bytes, of the
#     units not begun of the range with most left, of the least bytes -V
#     names ("parts of chunks taken: ..., each of B bytes at least"), as
#     dwarf_chunks.c does, which costs it what a part cost more than its
#     bytes at -j2 (the median; 0 when no -j2 run took one), and a chunk
#     ends once its worker and every part are done
#   + the phases after the workers (merge, functions and variables, dedup,
#     closing the DWARF, writing), serial but for the choosing of the FUNCs
#     in v1.32 mode, which N threads share ("choosing X s on 1 threads"), N - 1
#     from two workers on, where the final dedup's thread keeps a core.
# The chunks are the same at every -j; what differs is what workers cost one
# another (memory bandwidth, caches, a core's other thread): so each chunk's
# wall is also recorded in RECORD -V runs at -j2, and the model takes those
# for two workers and more (the -j1 ones for one).  It is checked against
# RUNS (default 5) measured runs at -j1 and -j2, taken in turn with the -V
# runs: each record run's model against the measured run taken right beside
# it, after it in odd rounds and before it in even ones (a pair meets the
# same minute of a host whose speed drifts, and the second of two runs back
# to back is the faster), and the
# script fails when the median of the pairs' differences is more than 5%
# off at either -j (the medians of all runs are printed too).
#
# Options are BENCH_OPTS (default: -J --btf_features=default; for the 6.12
# vmlinux use Linux 6.12's Makefile.btf set, see README's Performance).
# PAHOLE_OURS is our binary (default build/pahole); PAHOLE_V132 and
# PAHOLE_V131 the releases measured beside it (default build/upstream-
# debian/bin/pahole and build/upstream-v1.31/build/pahole; a row says when
# one is not built).  Needs a quiet machine: walls are compared (the last line
# says how far ours' measured walls spread from run to run).
set -euo pipefail
cd "$(dirname "$0")/.."
ours=${PAHOLE_OURS:-build/pahole}
# shellcheck disable=SC2034 # read through ${!name}
v132=${PAHOLE_V132:-build/upstream-debian/bin/pahole}
# shellcheck disable=SC2034
v131=${PAHOLE_V131:-build/upstream-v1.31/build/pahole}
runs=${RUNS:-5}
record=${RECORD:-5}
opts=${BENCH_OPTS:--J --btf_features=default}
[ -x "$ours" ] || { echo "cores: build first (make build)" >&2; exit 1; }
if [ $# -ge 1 ]; then
	vmlinux=$1
else
	[ -x ../shared/tools/corpus ] || { echo "cores: needs ../shared (the corpus) or a VMLINUX" >&2; exit 1; }
	vmlinux=$(../shared/tools/corpus build/corpus)/vmlinux-6.1.0-57-cloud-amd64
fi
[ -r "$vmlinux" ] || { echo "cores: cannot read $vmlinux" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed OUT BIN ARGS...: runs BIN, appends "wall cpu" to OUT; stderr in $tmp/err.
timed()
{
	local out=$1 start end
	shift
	start=$(date +%s%N)
	/usr/bin/time -f "%U %S" -o "$tmp/time" "$@" > /dev/null 2> "$tmp/err" ||
		{ echo "cores: $* failed: $(head -n 1 "$tmp/err")" >&2; exit 1; }
	end=$(date +%s%N)
	# The wall to the nanosecond (time's %e has hundredths), the CPU from time.
	awk -v ns=$((end - start)) '{ printf "%.4f %.3f\n", ns / 1e9, $1 + $2 }' "$tmp/time" >> "$out"
}

median() # FILE COLUMN
{
	sort -g -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

part_min=
# What a -V chunk line says (dwarf_chunks.c): "... ready at R s, waited W s, own units O s
# for B bytes, P parts waited for Q s, end E s, C s CPU, X s wall".
# shellcheck disable=SC2016 # awk's, not the shell's
chunk_awk='
function chunk_line(idx,   f) {
	ready = waited = own = ownb = end = share = 0
	for (f = 1; f < NF; f++) {
		if ($f == "share") share = $(f + 1)
		if ($f == "ready") ready = $(f + 2)
		if ($f == "waited" && $(f + 1) != "for") waited = $(f + 1)
		if ($f == "own") { own = $(f + 2); ownb = $(f + 5) }
		if ($f == "end") end = $(f + 1)
	}
}'

# record_j1 I: the I-th -V -j1 run of the record, its phases and chunks, one line each.
record_j1()
{
	local i=$1

	# shellcheck disable=SC2086
	timed "$tmp/vwall" "$ours" $opts -V -j1 --btf_encode_detached="$tmp/out.btf" "$vmlinux"
	# The units' bytes, the same in every run, and the least a part takes: once.
	[ "$i" -gt 1 ] || awk '/^pahole: chunk [0-9]+ units. bytes:/ {
		for (f = 6; f <= NF; f++) print $3, f - 6, $f
	}' "$tmp/err" > "$tmp/units"
	[ "$i" -gt 1 ] || part_min=$(awk '/^pahole: parts of chunks taken: / {
		for (f = 1; f < NF; f++) if ($f == "of" && $(f + 1) ~ /^[0-9]+$/) print $(f + 1)
	}' "$tmp/err")
	awk -v run="$i" "$chunk_awk"'
	/^pahole: chunk [0-9]+: .* s wall$/ {
		sub(":", "", $3)
		chunk_line($3)
		print "chunk", $3, $(NF - 2) - waited
		print "ready", $3, ready
		print "share", $3, share
		print "chunkwall", $3, $(NF - 2)
		print "own", $3, own - waited
		print "ownb", $3, ownb
		print "end", $3, end
		next
	}
	/^pahole: reading the ELF symbols and DWARF units: / { print "phase read", $(NF - 1); next }
	/^pahole: encoding the CUs with / { print "phase encode", $(NF - 1); next }
	/^btf_encoder: merge / {
		print "phase merge", $3
		for (f = 1; f <= NF; f++) {
			if ($f == "variables") print "phase funcs", $(f + 1)
			if ($f == "(choosing") print "phase choose", $(f + 1)
			if ($f == "dedup") print "phase dedup", $(f + 1)
		}
		next
	}
	/^pahole: closing the DWARF: / { print "phase close", $(NF - 1); next }
	/^pahole: writing .*: [0-9.]+ s$/ { print "phase write", $(NF - 1); next }
	/^pahole: listing the types \(-V\): / { print "phase list", $(NF - 1); next }
	' "$tmp/err" | awk -v run="$i" '
	# Phases of a second pass (a whole dedup) add to the first.
	# And per run, what the encoding phase spent outside its chunks: the
	# median of that, not the medians of the phase and of each chunk apart.
	$1 == "chunkwall" { chunks += $3; next }
	{ key = $1 " " $2; sum[key] += $3; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
	END {
		for (k = 1; k <= n; k++) print run, order[k], sum[order[k]]
		out = sum["phase encode"] - chunks
		print run, "phase outside", (out > 0 ? out : 0)
	}' >> "$tmp/record"
}

# record_j2 I: the chunks' walls when two workers share the machine ("chunk2 N WALL"), the I-th run.
record_j2()
{
	local i=$1

	# shellcheck disable=SC2086
	timed "$tmp/vwall2" "$ours" $opts -V -j2 --btf_encode_detached="$tmp/out.btf" "$vmlinux"
	awk -v run="$i" "$chunk_awk"'
	/^pahole: chunk [0-9]+: .* s wall$/ {
		sub(":", "", $3)
		chunk_line($3)
		print run, "chunk2", $3, $(NF - 2) - waited
		print run, "own2", $3, own - waited
		print run, "ownb2", $3, ownb
		print run, "end2", $3, end
		next
	}
	# A part another worker took: its bytes and wall, for what a part costs more.
	/^pahole: chunk [0-9]+ part from unit / { print run, "part2", $3, $10, $(NF - 2); next }
	# With two workers and more the final dedup starts beside the functions and
	# variables (btf_merge.c): their walls then, the choosing taken out as at -j1.
	/^btf_encoder: merge / {
		for (f = 1; f <= NF; f++) {
			if ($f == "variables") funcs = $(f + 1)
			if ($f == "(choosing") choose = $(f + 1)
			if ($f == "dedup") dedup = $(f + 1)
		}
		print run, "phase2", "funcs", funcs - choose
		print run, "phase2", "dedup", dedup
	}' "$tmp/err" >> "$tmp/record"
}

# measure_ours J: one measured run of ours at -jJ.
measure_ours()
{
	# shellcheck disable=SC2086
	timed "$tmp/ours-j$1" "$ours" $opts "-j$1" --btf_encode_detached="$tmp/out.btf" "$vmlinux"
}

# measure_peers J: one measured run of each peer at -jJ.
measure_peers()
{
	local j=$1 peer bin

	for peer in v132 v131; do
		bin=${!peer}
		[ -x "$bin" ] || continue
		# shellcheck disable=SC2086
		timed "$tmp/$peer-j$j" "$bin" $opts "-j$j" --btf_encode_detached="$tmp/out.btf" \
			"$vmlinux"
	done
}

# 1. What a worker costs to start: a one-function object at -j1 and -j64.
printf 'struct cores_s { int a; };\nint cores_f(struct cores_s *s) { return s->a; }\n' > "$tmp/one.c"
gcc -g -O2 -c "$tmp/one.c" -o "$tmp/one.o"
for i in $(seq "$runs"); do
	for j in 1 64; do
		# shellcheck disable=SC2086
		timed "$tmp/one-j$j" "$ours" $opts "-j$j" --btf_encode_detached="$tmp/one.btf" "$tmp/one.o"
	done
done
start_cost=$(awk -v a="$(median "$tmp/one-j64" 1)" -v b="$(median "$tmp/one-j1" 1)" \
	'BEGIN { c = (a - b) / 63; print (c > 0 ? c : 0) }')

# 2. The record (-V runs of ours: phases and chunks at -j1, chunks at -j2)
# and the measured walls, their runs taken in turn, so that the model and
# what it is checked against meet the same minutes of a host whose speed
# drifts (one run of a binary can take 8% more than the one before).  Of
# two runs of ours back to back the second is the faster (6.1 at -j2, ten
# pairs: a -V run, less its listing, 1.3% faster than the plain run before
# it, 2.7% slower than the one after): a pair's record run goes first in odd
# rounds and second in even ones, and the peers after both.
rounds=$((record > runs ? record : runs))
for i in $(seq "$rounds"); do
	for j in 1 2; do
		if [ $((i % 2)) = 1 ]; then
			[ "$i" -gt "$record" ] || "record_j$j" "$i"
			[ "$i" -gt "$runs" ] || measure_ours "$j"
		else
			[ "$i" -gt "$runs" ] || measure_ours "$j"
			[ "$i" -gt "$record" ] || "record_j$j" "$i"
		fi
		[ "$i" -gt "$runs" ] || measure_peers "$j"
	done
done
awk '{ print $1 }' "$tmp/vwall" | awk '{ print NR, "wall total", $1 }' >> "$tmp/record"
# Per run, the rest of the process: its wall less every timed phase.
awk '$2 == "phase" && $3 != "outside" && $3 != "choose" { timed[$1] += $4 } $2 == "wall" { wall[$1] = $4 }
END { for (r in wall) { o = wall[r] - timed[r]; print r, "phase other", (o > 0 ? o : 0) } }' \
	"$tmp/record" > "$tmp/other"
cat "$tmp/other" >> "$tmp/record"

# The median of each item over the record runs: "kind name value".
awk '{ v[$2 " " $3] = v[$2 " " $3] " " $4 }
END { for (k in v) print k, v[k] }' "$tmp/record" | while read -r kind name values; do
	printf "%s %s %s\n" "$kind" "$name" \
		"$(tr ' ' '\n' <<< "$values" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
done | sort -k1,1 -k2,2n > "$tmp/medians"
if ! grep -q '^chunk ' "$tmp/medians" || ! grep -q '^chunk2 ' "$tmp/medians" ||
	[ ! -s "$tmp/units" ] || ! [[ "$part_min" =~ ^[0-9]+$ ]]; then
	echo "cores: $ours -V printed no chunk times" >&2
	exit 1
fi
get() { awk -v k="$1" -v n="$2" '$1 == k && $2 == n { print $3; f = 1 } END { if (!f) print 0 }' "$tmp/medians"; }

# 3. The model: each record run's, and their median.
read -r other_t read_t encode_t outside_t merge_t funcs_t choose_t dedup_t close_t write_t list_t vwall <<< \
	"$(get phase other) $(get phase read) $(get phase encode) $(get phase outside) $(get phase merge) $(get phase funcs) \
	 $(get phase choose) $(get phase dedup) $(get phase close) $(get phase write) $(get phase list) $(get wall total)"
awk '$1 == "chunk" { print 1, $3 } $1 == "chunk2" { print 2, $3 }' "$tmp/medians" > "$tmp/chunks"
j1=$(median "$tmp/ours-j1" 1)
j2=$(median "$tmp/ours-j2" 1)
cpu1=$(median "$tmp/ours-j1" 2)
awk -v read_t="$read_t" -v encode_t="$encode_t" -v merge_t="$merge_t" -v funcs_t="$funcs_t" -v choose_t="$choose_t" \
	-v other="$other_t" -v outside="$outside_t" -v dedup_t="$dedup_t" -v close_t="$close_t" -v write_t="$write_t" -v list_t="$list_t" \
	-v vwall="$vwall" -v start_cost="$start_cost" -v j1="$j1" -v j2="$j2" -v cpu1="$cpu1" \
	-v file="$vmlinux" -v part_min="$part_min" '
# The medians, for the lines that say what the model is made of.
FILENAME == chunks && $1 == 1 { n++; sum += $2; if ($2 > big) big = $2 }
FILENAME == chunks && $1 == 2 { sum2 += $2 }
# Each record run, for its own model.
FILENAME == record && $2 == "phase" { ph[$1, $3] = $4; runs[$1] = 1 }
FILENAME == record && $2 == "phase2" { ph2[$1, $3] = $4 }
FILENAME == record && $2 == "chunk" { c[$1, $3] = $4; if ($3 + 1 > nc) nc = $3 + 1 }
FILENAME == record && $2 == "chunk2" { c2[$1, $3] = $4 }
FILENAME == record && $2 == "ready" { rd[$1, $3] = $4 }
FILENAME == record && $2 == "share" { shr[$3] = $4 }
# The measured runs, by round: the pairs.
FILENAME == meas1 { m1[FNR] = $1 }
FILENAME == meas2 { m2[FNR] = $1 }
# The units of each chunk (the same in every run) and the bytes before each.
FILENAME == units { nu[$1] = $2 + 1; ub[$1, $2] = $3; next }
FILENAME == record && $2 == "own" { own[$1, $3] = $4 }
FILENAME == record && $2 == "ownb" { ownb[$1, $3] = $4 }
FILENAME == record && $2 == "end" { endt[$1, $3] = $4 }
FILENAME == record && $2 == "own2" { own2[$1, $3] = $4 }
FILENAME == record && $2 == "ownb2" { ownb2[$1, $3] = $4 }
FILENAME == record && $2 == "end2" { end2[$1, $3] = $4 }
FILENAME == record && $2 == "part2" { np++; pr[np] = $1; pc[np] = $3; pb[np] = $4; pw[np] = $5 }
# What encoding a byte of chunk i took in run r, and its end (its dedup): on N workers as
# the -j2 runs had them, beside another worker, from two on.
function rate(r, N, i) {
	if (N > 1 && ((r, i) in own2) && ownb2[r, i] > 0)
		return own2[r, i] / ownb2[r, i]
	return ownb[r, i] > 0 ? own[r, i] / ownb[r, i] : 0
}
function endc(r, N, i) {
	return N > 1 && ((r, i) in end2) ? end2[r, i] : endt[r, i]
}
function ucost(r, N, i, j) {
	return ub[i, j] * rate(r, N, i)
}
# Where the back half of units [lo, hi) of chunk i begins, as dwarf_chunks.c parts
# them (chunk_range__half()), in hmid; its bytes, or 0 for fewer than two units.
function half(i, lo, hi,   h, m) {
	if (hi - lo < 2)
		return 0
	h = cum[i, lo] + int((cum[i, hi] - cum[i, lo] + 1) / 2)
	for (m = lo + 1; m < hi - 1 && cum[i, m] < h; m++)
		;
	hmid = m
	return cum[i, hi] - cum[i, m]
}
# The chunks of run r encoded by N workers as dwarf_chunks.c hands them out: in index
# order, each to the first worker free, but not before the scan of the units had
# published it (as at -j1, where the scan has a core of its own); once none is left,
# a free worker takes the back half of the units not begun of the range with most
# left, PART_MIN bytes at least, for a part (which costs povh more), and a chunk ends
# (its end, the dedup) once its worker and every part are done.  Before a chunk is
# taken, a part is more urgent where the chunk of a range is to end after the next chunk
# would (urgent()).  Each worker is at a state: 0 a unit, 1 waiting for the parts of its
# chunk, 2 ending it, 3 done, 4 free; begun at bg[w] at unit fs[w] of its range.
function makespan(r, N,   w, k, i, now, best, nextc, span, v, most, hb) {
	for (w = 1; w <= N; w++) { t[w] = 0; st[w] = 4 }
	for (i = 0; i < nc; i++) pend[i] = 0
	nextc = 0
	span = 0
	uw = ubs = ew = 0
	for (;;) {
		best = 0
		for (w = 1; w <= N; w++)
			if (st[w] != 1 && st[w] != 3 && (!best || t[w] < t[best]))
				best = w
		if (!best)
			break
		w = best
		now = t[w]
		if (now > span)
			span = now
		if (st[w] == 0) {
			i = ch[w]
			if (nx[w] < en[w]) {
				t[w] = now + ucost(r, N, i, nx[w]++)
				continue
			}
			if (own_w[w]) {
				st[w] = pend[i] ? 1 : 2
				t[w] = now + endc(r, N, i)
				oww[i] = now - bg[w]; owb[i] = cum[i, en[w]]
				continue
			}
			if (!--pend[i])
				for (k = 1; k <= N; k++)
					if (st[k] == 1 && ch[k] == i) { st[k] = 2; t[k] = now + endc(r, N, i) }
			st[w] = 4
			continue
		}
		if (st[w] == 2) {
			# What dwarf_chunks.c counts of an ended chunk (cu_queue__cost()).
			i = ch[w]
			uw += oww[i]; ubs += owb[i]; ew += endc(r, N, i)
			st[w] = 4
			continue
		}
		v = nextc < nc && !no_urgent ? urgent(r, N, w, now, nextc) : 0
		if (v && half(ch[v], nx[v], en[v]) >= part_min) {
			take_part(r, N, w, v, now)
			continue
		}
		if (nextc < nc) {
			i = nextc++
			if (rd[r, i] > now) now = rd[r, i]
			ch[w] = i; own_w[w] = 1; en[w] = nu[i]; bg[w] = now; fs[w] = 0
			if (!nu[i]) { st[w] = 2; t[w] = now + endc(r, N, i); continue }
			st[w] = 0; nx[w] = 1; t[w] = now + ucost(r, N, i, 0)
			continue
		}
		v = 0; most = 0
		for (k = 1; k <= N; k++) {
			if (st[k] != 0)
				continue
			hb = half(ch[k], nx[k], en[k])
			if (hb > most) { most = hb; v = k; vmid = hmid }
		}
		if (v && most >= part_min) {
			take_part(r, N, w, v, now)
			continue
		}
		st[w] = 3
	}
	return span
}
# Worker w takes the back half of the units of worker v, from hmid (half() sets it), at now.
function take_part(r, N, w, v, now,   i) {
	half(ch[v], nx[v], en[v])
	i = ch[v]
	ch[w] = i; own_w[w] = 0; en[w] = en[v]; en[v] = hmid; pend[i]++; bg[w] = now; fs[w] = hmid
	st[w] = 0; nx[w] = hmid + 1; t[w] = now + povh + ucost(r, N, i, hmid)
}
# As cu_queue__urgent(): the worker (not w) whose chunk is to end after chunk nextc
# would, begun at now, by what the chunks ended so far took; 0 for none.
function urgent(r, N, w, now, nextc,   per_byte, ends, most, k, i, done, kept, left, best) {
	if (ubs <= 0 || uw <= 0 || shr[nextc] <= 0)
		return 0
	per_byte = uw / ubs
	ends = ew / uw
	most = shr[nextc] * per_byte * (1 + ends)
	best = 0
	for (k = 1; k <= N; k++) {
		if (k == w || st[k] != 0 || nx[k] >= en[k])
			continue
		i = ch[k]
		done = cum[i, nx[k]] - cum[i, fs[k]]
		kept = done > 0 && now > bg[k] ? (now - bg[k]) / done : per_byte
		left = (cum[i, en[k]] - cum[i, nx[k]] + ends * cum[i, nu[i]]) * kept
		if (left > most) { most = left; best = k }
	}
	return best
}
# The wall of run r at N workers: the choosing of the FUNCs runs on as many threads as there are
# workers, but the one the final dedup keeps from two workers on.
# From two workers on, the functions and variables (the choosing aside) and the dedup
# as the -j2 runs had them: the dedup then starts beside the others.
function run_model(r, N,   fixed) {
	fixed = ph[r, "read"] + ph[r, "other"] + ph[r, "outside"] - ph[r, "choose"]
	fixed += ph[r, "merge"] + ph[r, "close"] + ph[r, "write"]
	if (N > 1 && ((r, "dedup") in ph2))
		fixed += ph[r, "choose"] + ph2[r, "funcs"] + ph2[r, "dedup"]
	else
		fixed += ph[r, "funcs"] + ph[r, "dedup"]
	return fixed + N * start_cost + makespan(r, N) + ph[r, "choose"] / (N > 1 ? N - 1 : 1)
}
# The median of the models of the runs: a sum of medians (a chunk, a phase now
# and then slow, each in another run) falls below the median of the sums.
function median_of(v, k,   i, j, t) {
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return v[int((k + 1) / 2)]
}
function model(N,   r, k, v) {
	k = 0
	for (r in runs) v[++k] = run_model(r, N)
	return median_of(v, k)
}
# The median of the differences of the pairs at N workers (1 or 2), in percent of the measured run.
function paired(N,   r, k, v, m) {
	k = 0
	for (r in runs) {
		m = N == 1 ? m1[r] : m2[r]
		if (m > 0) v[++k] = (run_model(r, N) - m) / m * 100
	}
	npairs = k
	return k ? median_of(v, k) : 1e9
}
# The median over the pairs of the model at N workers over the measured -j1 beside it.
function paired_ratio(N,   r, k, v) {
	k = 0
	for (r in runs)
		if (m1[r] > 0) v[++k] = run_model(r, N) / m1[r]
	return k ? median_of(v, k) : 1e9
}
END {
	for (i = 0; i < nc; i++) {
		cum[i, 0] = 0
		for (j = 0; j < nu[i]; j++)
			cum[i, j + 1] = cum[i, j] + ub[i, j]
	}
	# What a part costs more than its units at its chunk'"'"'s rate: the median over the
	# parts of the -j2 runs (0 when none was taken).
	k = 0
	for (p = 1; p <= np; p++) {
		if (!((pr[p], pc[p]) in own2) || ownb2[pr[p], pc[p]] <= 0)
			continue
		o = pw[p] - pb[p] * own2[pr[p], pc[p]] / ownb2[pr[p], pc[p]]
		po[++k] = o > 0 ? o : 0
	}
	povh = k ? median_of(po, k) : 0
	nparts = k
	serial = merge_t + funcs_t + dedup_t + close_t + write_t
	printf "cores: %s\n", file
	printf "  %d chunks: %.3f s, the largest %.3f s (%.3f s beside another worker); " \
		"serial phases %.3f s (merge %.3f, " \
		"functions and variables %.3f of which choosing %.3f on N threads, dedup %.3f, " \
		"closing %.3f, writing %.3f)\n", n, sum, big, sum2, serial, merge_t, funcs_t, choose_t,
		dedup_t, close_t, write_t
	printf "  fixed: reading %.3f s, the rest of the process %.3f s, encoding outside the " \
		"chunks %.3f s; a worker to start %.5f s (medians); a part %.4f s more than its " \
		"units (median of %d parts at -j2)\n", read_t, other, outside, start_cost, povh, nparts
	printf "\n  %7s %18s %14s\n", "workers", "modelled wall (s)", "/ ours -j1"
	for (N = 1; N <= 64; N *= 2) {
		m[N] = model(N)
		printf "  %7d %18.3f %14.3f\n", N, m[N], m[N] / j1
	}
	k = 0
	for (r in runs) { sp[++k] = makespan(r, 16); fx[k] = run_model(r, 16) - sp[k] }
	no_urgent = 1
	k = 0
	for (r in runs) sq[++k] = makespan(r, 16)
	no_urgent = 0
	printf "  at 16 workers: the chunks %.3f s (%.3f s were parts taken only once the queue " \
		"is empty), the rest %.3f s (medians)\n", median_of(sp, k), median_of(sq, k),
		median_of(fx, k)
	e1 = (m[1] - j1) / j1 * 100; e2 = (m[2] - j2) / j2 * 100
	printf "\n  the model against the measured medians: -j1 %.3f s against %.3f s (%+.1f%%), " \
		"-j2 %.3f s against %.3f s (%+.1f%%)\n", m[1], j1, e1, m[2], j2, e2
	p1 = paired(1); p2 = paired(2)
	printf "  each run'"'"'s model against the measured run beside it, the median of %d pairs: " \
		"-j1 %+.1f%%, -j2 %+.1f%%\n", npairs, p1, p2
	printf "  modelled -j16 / measured -j1: %.3f of the medians, %.3f the median of the pairs " \
		"(target 0.15); -j64 %s -j16; serial phases %.1f%% of the -j1 CPU (%.3f s; target 6%%)\n",
		m[16] / j1, paired_ratio(16), m[64] <= m[16] ? "no worse than" : "worse than",
		serial / cpu1 * 100, cpu1
	ok = (p1 <= 5 && p1 >= -5 && p2 <= 5 && p2 >= -5)
	print ok ? "  the model is within 5% at -j1 and -j2 (pairs)" : \
		"  FAIL: the model is more than 5% off at -j1 or -j2 (pairs)"
	exit !ok
}' chunks="$tmp/chunks" record="$tmp/record" meas1="$tmp/ours-j1" meas2="$tmp/ours-j2" units="$tmp/units" \
	"$tmp/chunks" "$tmp/units" "$tmp/record" "$tmp/ours-j1" "$tmp/ours-j2" > "$tmp/model" && model_ok=1 || model_ok=0
cat "$tmp/model"

echo
printf "  %-7s %12s %12s %12s   (medians of %d runs; wall, and CPU at -j1)\n" "" "-j1 (s)" "-j2 (s)" \
	"-j1 CPU (s)" "$runs"
for name in ours v132 v131; do
	label=$name
	[ "$name" = v132 ] && label="v1.32"
	[ "$name" = v131 ] && label="v1.31"
	if [ ! -s "$tmp/$name-j1" ]; then
		printf "  %-7s %12s\n" "$label" "not built (${!name})"
		continue
	fi
	printf "  %-7s %12.3f %12.3f %12.3f\n" "$label" "$(median "$tmp/$name-j1" 1)" \
		"$(median "$tmp/$name-j2" 1)" "$(median "$tmp/$name-j1" 2)"
done
# How far ours' measured runs spread: a host busy with others moves a run's wall by a
# fifth from one run to the next, which no pair of runs can be compared through.
spread() { sort -g "$1" | awk '{ a[NR] = $1 } END { printf "%.3f-%.3f s (%+.0f%%)", a[1], a[NR], (a[NR] - a[1]) / a[1] * 100 }'; }
echo "  ours' measured walls: -j1 $(spread "$tmp/ours-j1"), -j2 $(spread "$tmp/ours-j2") (a spread of" \
	"10% and more: a busy host)"
[ "$model_ok" = 1 ]
