#!/usr/bin/env python3
"""sig_delta.py REFERENCE.gz OURS.diff OURS_DEFAULT.canon

Compares what true_signature changes in our output (OURS.diff: `btfcanon diff`
of our default and our default,true_signature output) with what it changes in
upstream's (REFERENCE.gz: the sorted "- "/"+ " lines of the same diff of
upstream 1436daf's, see tests/fixtures/true_signature/README).

Every line must be the same, but where our default (pahole v1.31's) keeps a
function that upstream's later default leaves out:
  - a prototype or FUNC that upstream's change adds and our default output
    already holds (OURS_DEFAULT.canon, `btfcanon canon` of it) cannot be
    added again;
  - a FUNC of ours that a true signature of the same name replaces (clang's
    changed conventions) goes, and its prototype if no other uses it: one
    name never names two prototypes.
Prints the counts, and the lines that differ; exits 1 when any does.
"""
import collections
import gzip
import re
import sys

# btfcanon diff cuts its lines at this many characters.
CUT = 290


def change_lines(path, opener=None):
    opener = opener or (gzip.open if path.endswith(".gz") else open)
    with opener(path, "rt") as f:
        return collections.Counter(
            line.strip() for line in f if re.match(r"^\s*[-+] ", line)
        )


def main():
    ref = change_lines(sys.argv[1])
    ours = change_lines(sys.argv[2])
    with open(sys.argv[3]) as f:
        held = {line.rstrip("\n").split("\t", 1)[1][:CUT] for line in f if "\t" in line}
    missing = ref - ours
    extra = ours - ref
    held_protos = collections.Counter(
        line for line in missing.elements()
        if line.startswith(("+ fn(", "+ func ")) and line[2:][:CUT] in held
    )
    missing -= held_protos
    added = {line.split()[2] for line in ours if line.startswith("+ func ")}
    replaced = collections.Counter(
        line for line in extra.elements()
        if line.startswith("- func ") and line.split()[2] in added
    )
    old_protos = {"- " + line[line.index(" fn(") + 1:] for line in replaced}
    replaced.update(line for line in extra.elements() if line in old_protos)
    extra -= replaced
    funcs = sum(n for line, n in ref.items() if line[2:].startswith("func "))
    our_funcs = sum(n for line, n in (ours & ref).items() if line[2:].startswith("func "))
    print(f"upstream: {sum(ref.values())} lines ({funcs} FUNC); ours: {sum(ours.values())} "
          f"({our_funcs} FUNC the same); held by our default: "
          f"{sum(held_protos.values())}; replaced by name: {sum(replaced.values())}; "
          f"missing: {sum(missing.values())}; extra: {sum(extra.values())}")
    for line in sorted(missing.elements())[:10]:
        print("  missing:", line[:200])
    for line in sorted(extra.elements())[:10]:
        print("  extra:  ", line[:200])
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
