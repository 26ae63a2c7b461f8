#!/usr/bin/env python3
"""corrupt_dwz: seeded corruptions of dwz'd objects and the files they name.

    tests/corrupt_dwz.py [--pahole P] [--count N] [--seed S] [--outdir DIR]
                         [--release REL] [--keep]

Shared objects of generated C (tests/gen/gen_c.py, two units each, one of
them shared, so that dwz finds types to move), built by gcc with DWARF 4
and 5, then through `dwz -m` (an alternate file, .gnu_debugaltlink) and
`dwz -5 -m` (a supplementary file, .debug_sup).  Each of N inputs is one
set with 1 to 8 bytes changed at a seeded place of one DWARF or link
section of the object or of the file it names; each is encoded with
`-J --btf_features=default` (detached) in the release asked for.  Every
input must end one of two ways:
  encoded   exit 0, nothing on stderr, BTF that bpftool reads;
  refused   exit 1, one line on stderr naming the object;
and else it is mishandled: a signal, a timeout, a sanitizer report (run an
AddressSanitizer build: make check-asan builds build-asan/pahole), more
lines, an exit 0 without BTF, an input changed.  Prints each mishandled
input and a summary; exits 1 when one was mishandled.  Deterministic: the
same inputs for the same seed.  For developers (not run by CI).
"""
import argparse
import hashlib
import os
import random
import shutil
import struct
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTIONS = [".debug_info", ".debug_abbrev", ".debug_str", ".debug_line", ".debug_line_str",
            ".debug_str_offsets", ".debug_rnglists", ".debug_loclists", ".debug_sup",
            ".gnu_debugaltlink", ".debug_macro"]
SAN_MARKS = ("runtime error", "AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer")


def sections(path):
    """{name: (offset, size)} of the ELF file's sections with contents."""
    d = open(path, "rb").read()
    e = "<" if d[5] == 1 else ">"
    shoff, = struct.unpack_from(e + "Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", d, 0x3a)
    hdrs = [struct.unpack_from(e + "IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        name = d[stroff + h[0]:d.index(b"\0", stroff + h[0])].decode()
        if h[1] != 8 and h[5]:  # not SHT_NOBITS
            out[name] = (h[4], h[5])
    return out


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def build_sets(work):
    """The dwz'd sets: [(dir, object, named file)]."""
    gen = os.path.join(TOP, "tests", "gen", "gen_c.py")
    srcs = {}
    for seed, prefix in ((1, "a"), (2, "b"), (1, "c"), (3, "d")):
        c = os.path.join(work, "gen%d%s.c" % (seed, prefix))
        run([sys.executable, gen, "--seed", str(seed), "--out", c, "--prefix", prefix,
             "--funcs", "12", "--types", "20", "--no-complex"], check=True)
        srcs[prefix] = c
    sets = []
    for v in (4, 5):
        for mode in (["-m"], ["-5", "-m"]):
            d = os.path.join(work, "dwarf%d%s" % (v, "".join(mode)))
            os.makedirs(d)
            for so, units in (("one.so", "ab"), ("two.so", "cd")):
                run(["gcc", "-g", "-gdwarf-%d" % v, "-O2", "-fPIC", "-nostdlib", "-shared", "-w",
                     "-o", os.path.join(d, so)] + [srcs[u] for u in units], check=True)
            r = run(["dwz"] + mode + ["alt", "-M", "alt", "one.so", "two.so"], cwd=d)
            if r.returncode or not os.path.exists(os.path.join(d, "alt")):
                sys.exit("corrupt_dwz: dwz %s failed: %s" % (" ".join(mode), r.stderr.decode()))
            sets.append(d)
    return sets


def digest(d):
    return {f: hashlib.sha256(open(os.path.join(d, f), "rb").read()).hexdigest()
            for f in os.listdir(d)}


def one(args, rng, sets, work, i):
    """Makes, runs and judges input @i: None when well handled, else why."""
    src = rng.choice(sets)
    d = os.path.join(work, "case%d" % i)
    shutil.copytree(src, d)
    victim = rng.choice(["one.so", "alt"])
    path = os.path.join(d, victim)
    secs = {n: s for n, s in sections(path).items() if n in SECTIONS}
    name = rng.choice(sorted(secs))
    off, size = secs[name]
    n = rng.randint(1, 8)
    at = off + rng.randrange(max(1, size - n + 1))
    data = bytearray(open(path, "rb").read())
    data[at:at + n] = bytes(rng.randrange(256) for _ in range(n))
    open(path, "wb").write(data)
    what = "%s %s %s +%#x, %d bytes" % (os.path.basename(src), victim, name, at - off, n)
    before = digest(d)
    out = os.path.join(work, "out%d.btf" % i)
    env = dict(os.environ, PAHOLE_COMPAT=args.release,
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1",
               ASAN_OPTIONS="detect_leaks=1:halt_on_error=1")
    try:
        r = run([args.pahole, "-J", "--btf_features=default", "--btf_encode_detached=" + out,
                 os.path.join(d, "one.so")], env=env, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return what, "timed out"
    err = r.stderr.decode(errors="replace")
    lines = err.splitlines()
    why = None
    if any(m in err for m in SAN_MARKS):
        why = "sanitizer: " + next(l for l in lines if any(m in l for m in SAN_MARKS))
    elif r.returncode < 0 or r.returncode > 128:
        why = "died of a signal (%d)" % r.returncode
    elif digest(d) != before:
        why = "an input changed"
    elif r.returncode == 0:
        if lines:
            why = "exit 0 with: " + lines[0]
        elif not os.path.exists(out) or run(["bpftool", "btf", "dump", "file", out]).returncode:
            why = "exit 0 without BTF that bpftool reads"
    elif r.returncode != 1 or len(lines) != 1 or os.path.join(d, "one.so") not in lines[0]:
        why = "exit %d, %d lines: %s" % (r.returncode, len(lines), " | ".join(lines[:3]))
    elif os.path.exists(out):
        why = "refused but wrote " + out
    if not why and not args.keep:
        shutil.rmtree(d)
    return (what, why) if why else ("encoded" if r.returncode == 0 else "refused")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pahole", default=os.path.join(TOP, "build-asan", "pahole"))
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--release", default="v1.32")
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--outdir", default=os.path.join(TOP, "build", "corrupt-dwz"))
    ap.add_argument("--keep", action="store_true", help="keep every input, not only the mishandled")
    args = ap.parse_args()
    for tool in ("gcc", "dwz", "bpftool"):
        if not shutil.which(tool):
            sys.exit("corrupt_dwz: %s is not installed" % tool)
    shutil.rmtree(args.outdir, ignore_errors=True)
    os.makedirs(args.outdir)
    sets = build_sets(args.outdir)
    rng = random.Random(args.seed)
    counts = {"encoded": 0, "refused": 0, "mishandled": 0}
    for i in range(args.count):
        res = one(args, rng, sets, args.outdir, i)
        if isinstance(res, tuple):
            counts["mishandled"] += 1
            print("MISHANDLED case%d (%s): %s" % (i, res[0], res[1]))
        else:
            counts[res] += 1
    print("corrupt_dwz: %d inputs (%s, seed %d): %d encoded, %d refused with one line, "
          "%d mishandled" % (args.count, args.release, args.seed, counts["encoded"],
                             counts["refused"], counts["mishandled"]))
    return 1 if counts["mishandled"] else 0


sys.exit(main())
