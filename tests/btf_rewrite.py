#!/usr/bin/env python3
"""btf_rewrite: raw BTF written again in another byte order or header shape.

    tests/btf_rewrite.py IN OUT [--order little|big] [--hdr 24|32] [--layout]

The same types and strings; OUT gets the byte order asked (default: IN's),
a header of 24 bytes (libbpf 1.1's) or 32 (libbpf 1.8's: layout_off and
layout_len after str_len), and with --layout (a 32-byte header) a kind
layout section of 80 bytes between the types and the strings, as libbpf
1.8 writes it with add_layout.  For tests: bases of every shape a newer
pahole or resolve_btfids writes.
"""
import argparse
import struct
import sys

# Bytes after struct btf_type, fixed and per vlen item, by kind (libbpf's btf.h).
KINDS = {1: (4, 0), 2: (0, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8), 7: (0, 0),
         8: (0, 0), 9: (0, 0), 10: (0, 0), 11: (0, 0), 12: (0, 0), 13: (0, 8), 14: (4, 0),
         15: (0, 12), 16: (0, 0), 17: (4, 0), 18: (0, 0), 19: (0, 12)}
NR_KINDS = 20


def read(data):
    """(byte order, types, strings) of raw BTF @data."""
    for e in "<>":
        magic, = struct.unpack_from(e + "H", data, 0)
        if magic == 0xEB9F:
            break
    else:
        sys.exit("btf_rewrite: not raw BTF")
    hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from(e + "5I", data, 4)
    body = data[hdr_len:]
    return e, body[type_off:type_off + type_len], body[str_off:str_off + str_len]


def swap_types(types, src, dst):
    """@types, every field 32 bits, from byte order @src to @dst."""
    out = bytearray()
    p = 0
    while p < len(types):
        info, = struct.unpack_from(src + "I", types, p + 4)
        kind, vlen = (info >> 24) & 0x1F, info & 0xFFFF
        extra, item = KINDS[kind]
        size = 12 + extra + item * vlen
        words = struct.unpack_from(src + "%dI" % (size // 4), types, p)
        out += struct.pack(dst + "%dI" % (size // 4), *words)
        p += size
    return bytes(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--order", choices=["little", "big"])
    ap.add_argument("--hdr", type=int, choices=[24, 32], default=24)
    ap.add_argument("--layout", action="store_true")
    a = ap.parse_args()
    src, types, strs = read(open(a.inp, "rb").read())
    dst = {"little": "<", "big": ">", None: src}[a.order]
    types = swap_types(types, src, dst)
    layout = b""
    if a.layout:
        if a.hdr != 32:
            sys.exit("btf_rewrite: --layout needs --hdr 32")
        # struct btf_layout { u8 info_sz; u8 elem_sz; u16 flags; } per kind.
        layout = b"".join(struct.pack(dst + "BBH", *(KINDS.get(k, (0, 0)) + (0,)))
                          for k in range(NR_KINDS))
    hdr = struct.pack(dst + "HBBIIIII", 0xEB9F, 1, 0, a.hdr, 0, len(types),
                      len(types) + len(layout), len(strs))
    if a.hdr == 32:
        hdr += struct.pack(dst + "II", len(types) if layout else 0, len(layout))
    open(a.out, "wb").write(hdr + types + layout + strs)


main()
