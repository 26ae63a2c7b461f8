#!/usr/bin/env python3
"""sig_delta.py REFERENCE.gz OURS.diff OURS_DEFAULT.canon

Compares what true_signature changes in our output (OURS.diff: `btfcanon diff`
of our default and our default,true_signature output) with what it changes in
upstream's (REFERENCE.gz: the sorted "- "/"+ " lines of the same diff of
upstream 1436daf's, see tests/fixtures/true_signature/README).

Every line must be the same, but one kind: a prototype that upstream's change
adds and that our default output already holds (OURS_DEFAULT.canon, `btfcanon
canon` of it).  Our default is pahole v1.31's, which keeps functions that
upstream's later default leaves out, and their prototypes with them; a true
signature's FUNC that shares one cannot add it again.  Prints the counts, and
the lines that differ; exits 1 when any does.
"""
import collections
import gzip
import re
import sys

# btfcanon diff cuts its lines at this many characters.
CUT = 290


def change_lines(path, opener=open):
    with opener(path, "rt") as f:
        return collections.Counter(
            line.strip() for line in f if re.match(r"^\s*[-+] ", line)
        )


def main():
    ref = change_lines(sys.argv[1], gzip.open)
    ours = change_lines(sys.argv[2])
    with open(sys.argv[3]) as f:
        held = {line.rstrip("\n").split("\t", 1)[1][:CUT] for line in f if "\t" in line}
    missing = ref - ours
    extra = ours - ref
    held_protos = collections.Counter(
        line for line in missing.elements()
        if line.startswith("+ fn(") and line[2:][:CUT] in held
    )
    missing -= held_protos
    funcs = sum(n for line, n in ref.items() if line[2:].startswith("func "))
    our_funcs = sum(n for line, n in (ours & ref).items() if line[2:].startswith("func "))
    print(f"upstream: {sum(ref.values())} lines ({funcs} FUNC); ours: {sum(ours.values())} "
          f"({our_funcs} FUNC the same); prototypes our default holds: "
          f"{sum(held_protos.values())}; missing: {sum(missing.values())}; "
          f"extra: {sum(extra.values())}")
    for line in sorted(missing.elements())[:10]:
        print("  missing:", line[:200])
    for line in sorted(extra.elements())[:10]:
        print("  extra:  ", line[:200])
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
