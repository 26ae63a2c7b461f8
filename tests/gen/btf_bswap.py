#!/usr/bin/env python3
"""btf_bswap: raw BTF of the other byte order to this one (both ways).

    tests/gen/btf_bswap.py IN.btf OUT.btf

run_gen.sh uses it for s390x's big-endian BTF, as btfcanon reads
little-endian BTF only.  IN is raw BTF (as --btf_encode_detached writes it);
OUT is written, nothing else.  Needs python3 only (stdlib).

Every field of the BTF header (after the 16-bit magic and the two bytes of
version and flags) and of every type record (struct btf_type and what
follows it, for every kind) is a 32-bit word, so swapping the header and the
type section word by word, and leaving the strings alone, is the whole job.
"""
import struct
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: btf_bswap.py IN.btf OUT.btf")
    data = bytearray(open(sys.argv[1], "rb").read())
    magic = data[0:2]
    if magic == b"\xeb\x9f":        # 0xeb9f big-endian
        src = ">"
    elif magic == b"\x9f\xeb":
        src = "<"
    else:
        sys.exit(f"{sys.argv[1]}: not raw BTF")
    dst = "<" if src == ">" else ">"
    hdr_len, type_off, type_len, str_off, str_len = struct.unpack(
        src + "5I", data[4:24])
    out = bytearray(data)
    out[0:2] = struct.pack(dst + "H", 0xeb9f)

    def swap(start, n):
        for i in range(start, start + n, 4):
            (w,) = struct.unpack(src + "I", data[i:i + 4])
            out[i:i + 4] = struct.pack(dst + "I", w)
    swap(4, hdr_len - 4)
    swap(hdr_len + type_off, type_len)
    open(sys.argv[2], "wb").write(out)


if __name__ == "__main__":
    main()
