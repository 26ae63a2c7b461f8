#!/usr/bin/env python3
"""btfcanon_batch: btfcanon's diff of many pairs of split BTF on one base.

    tests/btfcanon_batch.py BTFCANON BASE < PAIRS

Each line of PAIRS is "A B OUT": the diff of A against B, both split BTF on
BASE, is written to OUT as `btfcanon diff A B --base-a BASE --base-b BASE
--max 20` writes it; BASE "-" is none (A and B whole BTF).  btfcanon (../shared/tools/btfcanon) is imported, not
run, so that the base (a vmlinux's, 100,000 types) is parsed once for all
pairs rather than twice for each: tests/diff_upstream.sh uses it for
modules.
"""
import collections
import contextlib
import importlib.machinery
import importlib.util
import io
import sys


def load_btfcanon(path):
    loader = importlib.machinery.SourceFileLoader("btfcanon", path)
    spec = importlib.util.spec_from_loader("btfcanon", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def diff(bc, base, a_path, b_path, out, most=20):
    """btfcanon's diff, its lines to @out; the number of differences."""
    a = bc.BTF(a_path, base).canon()
    b = bc.BTF(b_path, base).canon()
    per = collections.defaultdict(lambda: [[], []])
    for (k, s), n in (a - b).items():
        per[k][0].extend([s] * n)
    for (k, s), n in (b - a).items():
        per[k][1].extend([s] * n)
    total = 0
    for k in sorted(set(x for x, _ in a) | set(x for x, _ in b)):
        na = sum(n for (kk, _), n in a.items() if kk == k)
        nb = sum(n for (kk, _), n in b.items() if kk == k)
        oa, ob = sorted(per[k][0]), sorted(per[k][1])
        total += len(oa) + len(ob)
        mark = "" if not oa and not ob else f"   only in A: {len(oa)}  only in B: {len(ob)}"
        print(f"{k:11} A {na:7}  B {nb:7}{mark}", file=out)
        for s in oa[:most]:
            print(f"    - {s[:300]}", file=out)
        for s in ob[:most]:
            print(f"    + {s[:300]}", file=out)
    print(f"differences: {total}", file=out)
    return total


def main():
    bc = load_btfcanon(sys.argv[1])
    base = bc.BTF(sys.argv[2]) if sys.argv[2] != "-" else None
    for line in sys.stdin:
        a, b, out = line.split()
        with open(out, "w") as f:
            try:
                # btfcanon says what it cannot read with sys.exit(): keep it per pair.
                with contextlib.redirect_stderr(io.StringIO()) as err:
                    diff(bc, base, a, b, f)
            except SystemExit as e:
                print(f"btfcanon: {e.code or err.getvalue()}", file=f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
