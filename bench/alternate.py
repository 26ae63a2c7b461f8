#!/usr/bin/env python3
"""bench/alternate.py: wall, CPU and peak RSS of several pahole binaries on one
input, run in turn (the order reversed every other round), medians printed
with each binary's ratios to the first.

    bench/alternate.py RUNS INPUT "OPTIONS" JOBS BIN...

JOBS is a comma-separated list of -j values (e.g. 1,2); OPTIONS are given to
every binary, with -jN and --btf_encode_detached (into /dev/shm when it is
there).  E.g. ours against v1.32 and an earlier build of ours on 7.2:

    bench/alternate.py 5 vmlinux "-J --btf_features=default" 1,2 build/pahole \\
        build/upstream-debian/bin/pahole build/kbin/pahole-OLD

With IN_PLACE=1 the BTF goes into the ELF file instead, as the kernel's
scripts write it: each run gets a fresh copy of INPUT in a directory made
beside it (its filesystem's), copied and synced before the clock starts.

CPU is user+system from wait4(), peak RSS its ru_maxrss.  A script, not a
test: it asserts nothing, and needs a quiet machine (ratios are within a run).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    runs, path, opts, jobs, bins = (int(sys.argv[1]), sys.argv[2], sys.argv[3].split(),
                                    sys.argv[4].split(','), sys.argv[5:])
    in_place = os.environ.get('IN_PLACE') == '1'
    if in_place:
        out_dir = tempfile.mkdtemp(dir=os.path.dirname(os.path.abspath(path)))
    else:
        out_dir = tempfile.mkdtemp(dir='/dev/shm' if os.access('/dev/shm', os.W_OK) else None)
    res = {}
    for r in range(runs):
        for j in jobs:
            for i, b in enumerate(bins if r % 2 == 0 else bins[::-1]):
                out = os.path.join(out_dir, 'out.elf' if in_place else 'out.btf')
                if in_place:
                    shutil.copyfile(path, out)
                    os.sync()
                argv = [out] if in_place else ['--btf_encode_detached', out, path]
                start = time.monotonic()
                p = subprocess.Popen([b] + opts + ['-j' + j] + argv,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                _, _, ru = os.wait4(p.pid, 0)
                res.setdefault((b, j), []).append((time.monotonic() - start,
                                                   ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024))
                os.unlink(out) if os.path.exists(out) else None
    os.rmdir(out_dir)
    for j in jobs:
        first = None
        for b in bins:
            v = res[(b, j)]
            med = [statistics.median(x[k] for x in v) for k in range(3)]
            first = first or med
            print('-j%s %-40s wall %.2f s cpu %.2f s rss %.1f MB   /first: wall %.3f cpu %.3f rss %.3f'
                  % (j, b, med[0], med[1], med[2], med[0] / first[0], med[1] / first[1],
                     med[2] / first[2]))


if __name__ == '__main__':
    main()
