#!/usr/bin/env python3
"""gen_c: a deterministic random C translation unit for testing `pahole -J`.

    gen_c.py --seed N --out FILE.c [--funcs N] [--statics N] [--types N]
             [--prefix P] [--static-prefix P] [--no-complex] [--no-float128]
             [--no-int128] [--ilp32] [--extras LIST]

The unit has random structs and unions (nested, bitfields, arrays, anonymous
members, packed, aligned), a by-value struct of every size 1..40 bytes
(integer-only, float-only - SSE class -, mixed, packed), enums (small,
negative, 64-bit, packed), typedefs, a few global variables, and many
noinline functions, global and static (every static one is called from a
global one), with 0..10 parameters of those types, some varargs.  Bodies use
their parameters in varied ways (all, some, none, passed on to a callee,
constants passed to static callees) so that at -O2 the compilers make
.isra/.constprop/.part/.cold clones and leave parameters optimized out.
"Extras" add rarer shapes, one group each: ms_abi, K&R definitions, VLA and
array parameters, qualified parameters, _Atomic, forward-declared types,
pointers to arrays and functions, transparent_union, weak and alias
symbols, custom sections, _Noreturn, .data..percpu variables, clang BTF type
and decl tags, recursion, address-taken statics, gcc nested functions,
optimize("O0"/"O3"), noipa, const return types, aligned typedefs, extern
declarations, used statics, gnu_inline/C99 inline, enum bitfields.

The same seed and options give the same bytes (random.Random(seed), no
hash or clock dependence).  Needs python3 only (stdlib); writes only the file
named by --out ("-": standard output).  tests/gen/run_gen.sh compiles its
programs many ways and compares our pahole's BTF with an upstream pahole's;
by hand:

    tests/gen/gen_c.py --seed 1 --out /tmp/seed1.c
    gcc -g -O2 -c /tmp/seed1.c -o /tmp/seed1.o
    build/pahole -J --btf_features=default --btf_encode_detached=/tmp/ours.btf /tmp/seed1.o
"""
import argparse
import random
import sys

import gen_c_extras

# ---------------------------------------------------------------- types


class T:
    """A C type.  name: how to spell it before a declarator (never an array
    or a function: those are typedef'd).  kind: 'i' integer-like, 'i128',
    'f' real floating, 'c' complex, 'p' pointer, 'fp' function pointer,
    's' struct/union.  size/align: bytes, None when not computed."""

    def __init__(self, name, kind, size, align, **kw):
        self.name = name
        self.kind = kind
        self.size = size
        self.align = align
        self.__dict__.update(kw)

    def decl(self, var):
        return f"{self.name} {var}"


BASE_INT = [
    ("char", 1), ("signed char", 1), ("unsigned char", 1),
    ("short", 2), ("unsigned short", 2), ("int", 4), ("unsigned int", 4),
    ("long", 8), ("unsigned long", 8), ("long long", 8),
    ("unsigned long long", 8), ("_Bool", 1),
]
BASE = {n: T(n, "i", s, s) for n, s in BASE_INT}
BASE["__int128"] = T("__int128", "i128", 16, 16)
BASE["unsigned __int128"] = T("unsigned __int128", "i128", 16, 16)
BASE["float"] = T("float", "f", 4, 4)
BASE["double"] = T("double", "f", 8, 8)
BASE["long double"] = T("long double", "f", 16, 16)
BASE["FLOAT128"] = T("FLOAT128", "f", 16, 16)
BASE["_Complex float"] = T("_Complex float", "c", 8, 4)
BASE["_Complex double"] = T("_Complex double", "c", 16, 8)
BASE["_Complex long double"] = T("_Complex long double", "c", 32, 16)

BITFIELD_TYPES = ["char", "unsigned char", "short", "unsigned short", "int",
                  "unsigned int", "long", "unsigned long", "long long",
                  "unsigned long long"]
SMALL_INTS = ["char", "signed char", "unsigned char", "short",
              "unsigned short", "int", "unsigned int", "long",
              "unsigned long", "long long", "unsigned long long"]
SSE_LEAVES = ["float", "double", "_Complex float"]


def roundup(x, a):
    return (x + a - 1) // a * a


class Field:
    """A member: t (T), name, count (None: not an array; 0: zero-length),
    bits (None: not a bitfield; 0 allowed only unnamed), anon (T of an
    anonymous struct/union member), falign (member aligned attribute)."""

    def __init__(self, t, name, count=None, bits=None, anon=None, falign=None):
        self.t = t
        self.name = name
        self.count = count
        self.bits = bits
        self.anon = anon
        self.falign = falign

    def render(self, ind):
        if self.anon is not None:
            inner = render_body(self.anon, ind + "\t")
            return f"{ind}{self.anon.tag} {{\n{inner}{ind}}}{attr_str(self.anon)};\n"
        s = self.t.decl(self.name if self.name else "")
        if self.count is not None:
            s += f"[{self.count}]"
        if self.bits is not None:
            s += f" : {self.bits}"
        if self.falign:
            s += f" __attribute__((aligned({self.falign})))"
        return f"{ind}{s.rstrip()};\n"


def attr_str(st):
    a = []
    if st.packed:
        a.append("packed")
    if st.aligned:
        a.append(f"aligned({st.aligned})")
    return f" __attribute__(({', '.join(a)}))" if a else ""


def render_body(st, ind):
    return "".join(f.render(ind) for f in st.fields)


def layout(fields, union, packed, aligned):
    """(size, align) on x86-64 SysV, or (None, None) if bitfields make it
    something this does not compute."""
    off = 0
    maxal = 1
    for f in fields:
        t = f.anon if f.anon is not None else f.t
        if f.bits is not None or t.size is None:
            return None, None
        a = 1 if packed else t.align
        if f.falign:
            a = max(a, f.falign)
        n = 1 if f.count is None else (f.count or 0)
        sz = t.size * n
        maxal = max(maxal, a)
        if union:
            off = max(off, sz)
        else:
            off = roundup(off, a) + sz
    if aligned:
        maxal = max(maxal, aligned)
    return roundup(off, maxal), maxal


def leaves(t, path):
    """[(expr, leaf T)] of the scalar members reachable in t from path."""
    if t.kind != "s":
        return [(path, t)]
    out = []
    for f in t.fields:
        if f.anon is not None:
            out += leaves(f.anon, path)
            continue
        if not f.name:
            continue
        if f.bits is not None:
            out.append((f"{path}.{f.name}", T(f.t.name, "i", None, None,
                                              bitfield=True)))
            continue
        if f.count == 0 or f.count == "":
            continue
        if f.count is not None:
            idx = (len(path) + len(f.name)) % f.count
            out += leaves(f.t, f"{path}.{f.name}[{idx}]")
        else:
            out += leaves(f.t, f"{path}.{f.name}")
    return out


# ---------------------------------------------------------------- program


class Gen:
    def __init__(self, a):
        self.r = random.Random(a.seed)
        self.a = a
        self.p = a.prefix if a.prefix is not None else f"g{a.seed}_"
        self.sp = a.static_prefix
        self.out = []        # type definitions, in order
        self.structs = []    # struct/union T usable by value
        self.ptr_only = []   # T usable only through a pointer
        self.abi = []        # the by-value set (sizes 1..40, ...)
        self.enums = []
        self.typedefs = []
        self.fptrs = []
        self.ntype = 0
        self.nanon = 0
        self.cover = []      # types each to be used at least once

    # ---- names
    def tname(self, pfx):
        self.ntype += 1
        return f"{pfx}{self.ntype}"

    # ---- struct building
    def new_struct(self, fields, union=False, packed=False, aligned=None,
                   tag_name=None, anon=False):
        tag = "union" if union else "struct"
        name = tag_name or self.tname("u" if union else "s")
        size, align = layout(fields, union, packed, aligned)
        st = T(f"{tag} {name}", "s", size, align, fields=fields, tag=tag,
               packed=packed, aligned=aligned, union=union, sname=name)
        if anon:
            st.tag = tag
            return st
        self.out.append(f"{tag}{attr_str(st)} {name} {{\n"
                        f"{render_body(st, chr(9))}}};\n")
        return st

    def rand_scalar(self, floats=True):
        r = self.r
        names = SMALL_INTS + ["_Bool", "__int128", "unsigned __int128"]
        if floats:
            names += ["float", "double", "long double", "FLOAT128",
                      "_Complex float", "_Complex double"]
            if self.a.no_complex:
                names = [n for n in names if not n.startswith("_Complex")]
            if self.a.no_float128:
                names = [n for n in names if n != "FLOAT128"]
        if self.a.no_int128:
            names = [n for n in names if "__int128" not in n]
        return BASE[r.choice(names)]

    def rand_member_type(self, depth):
        r = self.r
        x = r.random()
        if x < 0.55 or depth > 2:
            return self.rand_scalar()
        if x < 0.7 and self.structs:
            return r.choice(self.structs)
        if x < 0.78 and self.enums:
            return r.choice(self.enums)
        if x < 0.85 and self.typedefs:
            return r.choice(self.typedefs)
        return self.rand_ptr()

    def rand_struct(self, depth=0, anon=False):
        """A random struct or union: nested members, bitfields, arrays,
        anonymous members, member alignment."""
        r = self.r
        union = r.random() < 0.2
        packed = r.random() < 0.15
        aligned = r.choice([8, 16, 32]) if r.random() < 0.1 else None
        fields = []
        n = r.randint(1, 7)
        bf = 0
        for i in range(n):
            x = r.random()
            fname = f"m{i}"
            if x < 0.15 and not union:
                bt = r.choice(BITFIELD_TYPES)
                if self.a.ilp32 and bt in ("long", "unsigned long"):
                    bt = "int"
                w = BASE[bt].size * 8
                y = r.random()
                if y < 0.1:
                    fields.append(Field(BASE[bt], "", bits=0))
                elif y < 0.2:
                    fields.append(Field(BASE[bt], "", bits=r.randint(1, w)))
                else:
                    fields.append(Field(BASE[bt], fname, bits=r.randint(1, w)))
                bf += 1
            elif x < 0.25:
                t = self.rand_member_type(depth + 1)
                fields.append(Field(t, fname, count=r.randint(1, 5)))
            elif x < 0.3 and depth < 2:
                inner = self.rand_struct(depth + 1, anon=True)
                # anonymous members: their names must not clash with ours
                self.nanon += 1
                for f in inner.fields:
                    if f.name:
                        f.name = f"a{self.nanon}_{f.name}"
                fields.append(Field(None, None, anon=inner))
            elif x < 0.33 and not packed:
                fields.append(Field(self.rand_scalar(), fname,
                                    falign=r.choice([8, 16])))
            else:
                fields.append(Field(self.rand_member_type(depth + 1), fname))
        if not any(f.name or f.anon for f in fields):
            fields.append(Field(BASE["int"], "mlast"))
        if not union and r.random() < 0.08:
            fields.append(Field(BASE["int"], "zla", count=0))
        return self.new_struct(fields, union, packed, aligned, anon=anon)

    def fill(self, size, maxalign, pool):
        """Members of types from pool filling exactly size bytes, the first
        one of alignment maxalign (pool must have a 1-byte type if size is
        not a multiple of the others)."""
        r = self.r
        off = 0
        fields = []
        first = [BASE[n] for n in pool if BASE[n].align == maxalign
                 and BASE[n].size <= size]
        while off < size:
            if not fields and first:
                cands = first
            else:
                cands = [BASE[n] for n in pool if BASE[n].align <= maxalign
                         and off % BASE[n].align == 0
                         and off + BASE[n].size <= size]
            if not cands:
                return None
            t = r.choice(cands)
            if t.size <= 4 and r.random() < 0.25 and off + 2 * t.size <= size:
                k = r.randint(2, max(2, (size - off) // t.size))
                k = min(k, 6)
                fields.append(Field(t, f"m{len(fields)}", count=k))
                off += k * t.size
            else:
                fields.append(Field(t, f"m{len(fields)}"))
                off += t.size
        return fields

    def make_abi_structs(self):
        """A by-value struct of every size 1..40: integer-only; float-only
        (SSE class) where the size allows; mixed; packed; a few unions."""
        r = self.r
        ints = ["char", "short", "int", "long", "unsigned char",
                "unsigned short", "unsigned int", "unsigned long"]
        for size in range(1, 41):
            aligns = [a for a in (1, 2, 4, 8) if size % a == 0 and a <= size]
            fields = self.fill(size, r.choice(aligns), ints)
            st = self.new_struct(fields, tag_name=f"i{size}")
            assert st.size == size, (size, st.size)
            self.abi.append(st)
            if size % 4 == 0:
                aligns = [a for a in (4, 8) if size % a == 0]
                for _ in range(10):
                    fields = self.fill(size, r.choice(aligns),
                                       SSE_LEAVES[:2] if self.a.no_complex
                                       else SSE_LEAVES)
                    if fields:
                        break
                if fields:
                    st = self.new_struct(fields, tag_name=f"f{size}")
                    assert st.size == size
                    self.abi.append(st)
            if size >= 3 and r.random() < 0.6:
                mixed = ints + ["float", "double"]
                aligns = [a for a in (1, 2, 4, 8) if size % a == 0]
                for _ in range(10):
                    fields = self.fill(size, r.choice(aligns), mixed)
                    if fields and any(f.t.kind == "f" for f in fields) and \
                            any(f.t.kind == "i" for f in fields):
                        break
                    fields = None
                if fields:
                    st = self.new_struct(fields, tag_name=f"x{size}")
                    assert st.size == size
                    self.abi.append(st)
            if size >= 3 and r.random() < 0.35:
                # packed: any members, exact size
                pool = ints + ["float", "double", "long long"]
                fields = []
                off = 0
                while off < size:
                    c = [BASE[n] for n in pool if off + BASE[n].size <= size]
                    t = r.choice(c)
                    fields.append(Field(t, f"m{len(fields)}"))
                    off += t.size
                st = self.new_struct(fields, packed=True, tag_name=f"p{size}")
                assert st.size == size
                self.abi.append(st)
        # a few with long double, __int128 or complex members (x87 / memory)
        for i, mem in enumerate([["long double"], ["char", "long double"],
                                 ["__int128"], ["int", "__int128"],
                                 ["_Complex double"], ["_Complex long double"],
                                 ["FLOAT128"], ["double", "FLOAT128"],
                                 ["float", "float", "float", "float",
                                  "float"]]):
            if self.a.no_complex and "_Complex" in " ".join(mem):
                continue
            if self.a.no_float128 and "FLOAT128" in mem:
                continue
            if self.a.no_int128 and "__int128" in mem:
                continue
            fields = [Field(BASE[n], f"m{j}") for j, n in enumerate(mem)]
            self.abi.append(self.new_struct(fields, tag_name=f"w{i}"))
        # unions by value
        for i in range(r.randint(3, 6)):
            pool = r.sample(self.abi, 2)
            fields = [Field(t, f"m{j}") for j, t in enumerate(pool)]
            fields.append(Field(self.rand_scalar(), "m9"))
            self.abi.append(self.new_struct(fields, union=True,
                                            tag_name=f"v{i}"))
        # an empty struct (GNU C: size 0), and an aligned one
        if r.random() < 0.5:
            self.abi.append(self.new_struct([], tag_name="e0"))
        self.abi.append(self.new_struct(
            [Field(BASE["int"], "m0"), Field(BASE["char"], "m1")],
            aligned=16, tag_name="al16"))
        self.structs += self.abi

    def make_enums(self):
        r = self.r
        n = max(3, self.a.types // 6)
        for i in range(n):
            name = self.tname("e")
            kind = r.choice(["small", "neg", "big", "ubig", "negbig",
                             "packed", "small"])
            k = r.randint(1, 6)
            if kind == "small":
                vals = [str(j) for j in range(k)]
            elif kind == "neg":
                vals = [str(-r.randint(1, 1000)) for _ in range(k)] + ["5"]
            elif kind == "big":
                vals = [hex(r.randint(1 << 32, (1 << 62))) + "LL"
                        for _ in range(k)] + ["1"]
            elif kind == "ubig":
                vals = ["0xffffffffffffffffULL", "0x8000000000000000ULL", "3"]
            elif kind == "negbig":
                vals = [f"-{hex(r.randint(1 << 33, 1 << 62))}LL", "2"]
            else:
                vals = [str(j) for j in range(k)]
            # dedup, in order
            seen = []
            for v in vals:
                if v not in seen:
                    seen.append(v)
            body = "".join(f"\t{name.upper()}_{j} = {v},\n"
                           for j, v in enumerate(seen))
            attr = " __attribute__((packed))" if kind == "packed" else ""
            self.out.append(f"enum{attr} {name} {{\n{body}}};\n")
            size = 1 if kind == "packed" else (
                8 if kind in ("big", "ubig", "negbig") else 4)
            self.enums.append(T(f"enum {name}", "i", size, size,
                                first=f"{name.upper()}_0"))

    def make_fptrs(self):
        for i in range(3):
            name = self.tname("fn_t")
            ret, arg = self.r.choice([("long", "long"), ("int", "int"),
                                      ("double", "double"), ("long", "int")])
            self.out.append(f"typedef {ret} (*{name})({arg});\n")
            self.fptrs.append(T(name, "fp", 8, 8))

    def make_typedefs(self):
        r = self.r
        for i in range(max(4, self.a.types // 4)):
            name = self.tname("td")
            x = r.random()
            if x < 0.45:
                t = r.choice(self.structs)
                self.out.append(f"typedef {t.name} {name};\n")
                nt = T(name, t.kind, t.size, t.align, fields=t.fields,
                       tag=t.tag, union=t.union)
            elif x < 0.6:
                st = self.rand_struct(anon=True)
                self.out.append(f"typedef {st.tag}{attr_str(st)} {{\n"
                                f"{render_body(st, chr(9))}}} {name};\n")
                nt = T(name, "s", st.size, st.align, fields=st.fields,
                       tag=st.tag, union=st.union)
                self.structs.append(nt)
            elif x < 0.75 and self.typedefs:
                t = r.choice(self.typedefs)
                self.out.append(f"typedef {t.name} {name};\n")
                nt = T(name, t.kind, t.size, t.align,
                       **{k: v for k, v in t.__dict__.items()
                          if k not in ("name", "kind", "size", "align")})
            elif x < 0.85:
                t = self.rand_ptr()
                self.out.append(f"typedef {t.name} {name};\n")
                nt = T(name, t.kind, 8, 8, target=getattr(t, "target", None))
            else:
                t = self.rand_scalar()
                self.out.append(f"typedef {t.name} {name};\n")
                nt = T(name, t.kind, t.size, t.align)
            self.typedefs.append(nt)

    def rand_ptr(self):
        r = self.r
        x = r.random()
        if x < 0.35 and (self.structs or self.ptr_only):
            tgt = r.choice(self.structs + self.ptr_only)
        elif x < 0.45:
            tgt = T("void", "v", None, None)
        elif x < 0.55:
            tgt = T("const char", "i", 1, 1)
        elif x < 0.6 and self.fptrs:
            return r.choice(self.fptrs)
        else:
            tgt = self.rand_scalar()
        q = r.choice(["", "", "", "const ", "volatile "])
        star = "*"
        if r.random() < 0.08:
            star = "* restrict"
        if r.random() < 0.05:
            return T(f"{q}{tgt.name} **", "p", 8, 8,
                     target=T("void *", "p", 8, 8, target=None))
        return T(f"{q}{tgt.name} {star}", "p", 8, 8, target=tgt)

    def make_types(self):
        self.make_enums()
        self.make_fptrs()
        self.make_abi_structs()
        for i in range(self.a.types):
            st = self.rand_struct()
            self.structs.append(st)
            if i % 5 == 0:
                self.make_typedefs_one()
        # structs with a flexible array member: through pointers only
        for i in range(2):
            fa = self.new_struct([Field(BASE["int"], "n"),
                                  Field(self.rand_scalar(False), "data",
                                        count="")])
            fa.size = None
            self.ptr_only.append(fa)
        self.make_typedefs()

    def make_typedefs_one(self):
        t = self.r.choice(self.structs)
        name = self.tname("td")
        self.out.append(f"typedef {t.name} {name};\n")
        self.typedefs.append(T(name, t.kind, t.size, t.align,
                               fields=t.fields, tag=t.tag, union=t.union))

    # ---- functions
    def param_type(self):
        r = self.r
        if self.cover and r.random() < 0.35:
            return self.cover.pop()
        x = r.random()
        if x < 0.30:
            return self.rand_scalar()
        if x < 0.55:
            return r.choice(self.abi)
        if x < 0.65:
            return r.choice(self.structs)
        if x < 0.72:
            return r.choice(self.enums)
        if x < 0.80:
            return r.choice(self.typedefs)
        return self.rand_ptr()

    def ret_type(self):
        r = self.r
        x = r.random()
        if x < 0.2:
            return None
        if x < 0.45:
            return self.rand_scalar()
        if x < 0.7:
            return r.choice(self.abi)
        if x < 0.8:
            return r.choice(self.structs + self.typedefs + self.enums)
        return self.rand_ptr()

    def use(self, expr, t, out, ind, all_leaves=True):
        """Statements that use the value expr of type t."""
        r = self.r
        k = t.kind
        if k == "i":
            op = r.choice(["acc += (long)(%s);", "acc ^= (long)(%s) * 3;",
                           "if ((long)(%s) > 5) acc++;",
                           "acc = acc * 7 + (long)(%s);"])
            out.append(ind + op % expr)
        elif k == "i128":
            out.append(f"{ind}acc += (long)({expr} >> 3) ^ (long){expr};")
        elif k == "f":
            op = r.choice(["facc += %s;", "if (%s > 1.0) facc *= 2;",
                           "facc -= (double)(%s);"])
            out.append(ind + op % expr)
        elif k == "c":
            out.append(f"{ind}facc += __real__ ({expr}) - __imag__ ({expr});")
        elif k == "fp":
            out.append(f"{ind}if ({expr}) acc += (long){expr}(3);")
        elif k == "p":
            tgt = getattr(t, "target", None)
            if tgt is None or tgt.kind in ("v", "p") or (
                    tgt.kind == "s" and not leaves(tgt, "")) or \
                    getattr(tgt, "size", 1) is None and tgt.kind != "s":
                out.append(f"{ind}acc += (long)({expr});")
            elif tgt.kind == "s":
                lv = leaves(tgt, "")
                path, lt = r.choice(lv)
                sub = []
                self.use(f"({expr})->{path[1:]}", lt, sub, "", True)
                out.append(f"{ind}if ({expr}) {{ {' '.join(sub)} }}")
            else:
                sub = []
                self.use(f"*({expr})", tgt, sub, "", True)
                out.append(f"{ind}if ({expr}) {{ {' '.join(sub)} }}")
        elif k == "s":
            lv = leaves(t, expr)
            if not lv:
                out.append(f"{ind}acc += sizeof({expr});")
                return
            if not all_leaves or len(lv) > 6:
                lv = r.sample(lv, min(len(lv), r.randint(1, 3)))
            for path, lt in lv:
                self.use(path, lt, out, ind, all_leaves)

    def value(self, t, const=None):
        """An expression of type t, from no parameter."""
        r = self.r
        k = t.kind
        if k == "i":
            if t.name.startswith("enum "):
                return t.first
            if const is not None:
                return f"({t.name}){const}"
            return f"({t.name}){r.choice(['acc', '1', '7', '-3', 'acc + 1'])}"
        if k == "i128":
            return f"({t.name}){const if const is not None else 'acc'}"
        if k in ("f", "c"):
            return f"({t.name}){const if const is not None else 'facc'}"
        if k in ("p", "fp"):
            return f"({t.name}){self.p}ptr"
        if getattr(t, "enum_typedef", False):
            return f"({t.name})0"
        return f"*({t.name} *){self.p}buf"

    def ret_stmt(self, rt, params, ind):
        r = self.r
        same = [n for n, t in params if t.name == rt.name]
        if same and r.random() < 0.3:
            return [f"{ind}return {r.choice(same)};"]
        k = rt.kind
        if k == "i":
            if rt.name.startswith("enum "):
                return [f"{ind}return ({rt.name})(acc & 1);"]
            return [f"{ind}return ({rt.name})acc;"]
        if k == "i128":
            return [f"{ind}return ({rt.name})acc << 7;"]
        if k in ("f", "c"):
            return [f"{ind}return ({rt.name})facc;"]
        if k in ("p", "fp"):
            return [f"{ind}return ({rt.name})({self.p}ptr);"]
        lv = leaves(rt, "ret")
        s = [f"{ind}{rt.decl('ret')};",
             f"{ind}__builtin_memset(&ret, 0, sizeof(ret));"]
        for path, lt in lv[:2]:
            if lt.kind in ("f", "c"):
                s.append(f"{ind}{path} = facc;")
            elif lt.kind in ("p", "fp"):
                s.append(f"{ind}{path} = ({lt.name})0;")
            elif lt.name.startswith("enum "):
                s.append(f"{ind}{path} = ({lt.name})(acc & 1);")
            else:
                s.append(f"{ind}{path} = acc;")
        s.append(f"{ind}return ret;")
        return s

    def plan_functions(self):
        r = self.r
        a = self.a
        self.cover = list(self.abi) + list(self.enums) + \
            r.sample(self.typedefs, min(len(self.typedefs), 6))
        r.shuffle(self.cover)
        funcs = []
        nst = a.statics
        for i in range(nst + a.funcs):
            static = i < nst
            f = {"static": static, "i": i}
            f["name"] = f"{self.sp}{i}" if static else f"{self.p}f{i}"
            f["varargs"] = r.random() < 0.06
            n = r.choice([0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 6, 7, 7, 8, 9, 10])
            if f["varargs"]:
                n = max(1, min(n, 4))
                f["va"] = [r.choice(["long", "double", "int", "s"])
                           for _ in range(r.randint(0, 4))]
            f["params"] = [(f"p{j}", self.param_type()) for j in range(n)]
            if f["varargs"]:
                f["params"][0] = ("n", BASE["int"])
            f["ret"] = self.ret_type()
            f["mode"] = r.choice(["all", "all", "some", "some", "none",
                                  "pass", "pass", "tail"])
            # static: params that always get the same constant (constprop)
            f["consts"] = {}
            if static:
                for j, (pn, pt) in enumerate(f["params"]):
                    if pt.kind in ("i", "i128", "f") and \
                            not pt.name.startswith("enum ") and \
                            r.random() < 0.3 and pn != "n":
                        f["consts"][j] = r.choice(["0", "1", "42", "-1"])
            f["cold"] = r.random() < 0.08
            f["part"] = static and r.random() < 0.08
            f["callees"] = []
            f["callers"] = 0
            funcs.append(f)
        # call graph: statics call earlier statics, globals call anything
        # earlier plus any static
        for f in funcs:
            i = f["i"]
            if f["static"]:
                cands = funcs[:i]
            else:
                cands = funcs[:nst] + funcs[nst:i]
            k = r.choice([0, 0, 1, 1, 2, 3])
            if f["mode"] in ("pass", "tail"):
                k = max(k, 1)
            if cands:
                for c in r.sample(cands, min(k, len(cands))):
                    f["callees"].append(c)
                    c["callers"] += 1
        # pass-through: give a "pass" function some of its callees'
        # parameter types, so that it hands its own parameters on
        for f in funcs:
            if f["mode"] not in ("pass", "tail"):
                continue
            first = 1 if f["varargs"] else 0
            for c in f["callees"]:
                for j, (pn, pt) in enumerate(c["params"]):
                    if j in c["consts"] or (c["varargs"] and j == 0):
                        continue
                    if len(f["params"]) > first and r.random() < 0.5:
                        k = r.randrange(first, len(f["params"]))
                        f["params"][k] = (f["params"][k][0], pt)
        glob = funcs[nst:]
        for s in funcs[:nst]:
            if s["callers"] == 0 and glob:
                g = r.choice(glob)
                g["callees"].append(s)
                s["callers"] += 1
                # some called from several places, with the same constants
            if s["consts"] and glob and r.random() < 0.5:
                g = r.choice(glob)
                if s not in g["callees"]:
                    g["callees"].append(s)
        self.funcs = funcs

    def call_expr(self, f, c, params):
        r = self.r
        args = []
        for j, (pn, pt) in enumerate(c["params"]):
            if c["varargs"] and j == 0:
                args.append(str(len(c["va"])))
                continue
            if j in c["consts"]:
                args.append(self.value(pt, c["consts"][j]))
                continue
            same = [n for n, t in params if t.name == pt.name]
            if same and (f["mode"] in ("pass", "tail") or r.random() < 0.4):
                args.append(r.choice(same))
            else:
                args.append(self.value(pt))
        if c["varargs"]:
            for v in c["va"]:
                if v == "long":
                    args.append("acc")
                elif v == "int":
                    args.append("(int)acc")
                elif v == "double":
                    args.append("facc")
                else:
                    args.append(f"*(struct i12 *){self.p}buf")
        return f"{c['name']}({', '.join(args)})"

    def gen_function(self, f):
        r = self.r
        params = f["params"]
        rt = f["ret"]
        ind = "\t"
        attrs = ["noinline"]
        if f["part"]:
            attrs = []      # partial inlining wants an inlinable function
        ps = [t.decl(n) for n, t in params]
        if f["varargs"]:
            ps.append("...")
        if not ps:
            ps = ["void"]
        rts = rt.name if rt else "void"
        storage = "static " if f["static"] else ""
        attr = f"__attribute__(({', '.join(attrs)})) " if attrs else ""
        b = [f"{storage}{attr}{rts} {f['name']}({', '.join(ps)})", "{",
             f"{ind}long acc = {f['i'] % 13};",
             f"{ind}double facc = 0.5;"]
        if f["part"] and params:
            # an early exit and a big slow path: gcc splits it (.part)
            pn, pt = params[0]
            cond = f"!{pn}" if pt.kind in ("i", "p", "fp", "f") else "0"
            b.append(f"{ind}if ({cond}) {{ {self.p}isink++; "
                     + ("return;" if rt is None else
                        " ".join(self.ret_stmt(rt, [], "")))
                     + " }")
        mode = f["mode"]
        use = []
        if mode in ("all", "pass", "tail"):
            use = [(n, t) for n, t in params if n != "n"]
        elif mode == "some":
            use = [(n, t) for n, t in params if n != "n" and r.random() < 0.5]
        for j, (n, t) in enumerate(use):
            if j in f["consts"]:
                pass
            self.use(n, t, b, ind, mode != "some")
        if f["varargs"]:
            b.append(f"{ind}__builtin_va_list ap;")
            b.append(f"{ind}__builtin_va_start(ap, {params[-1][0]});")
            for v in f["va"]:
                if v == "long":
                    b.append(f"{ind}acc += __builtin_va_arg(ap, long);")
                elif v == "int":
                    b.append(f"{ind}acc += __builtin_va_arg(ap, int);")
                elif v == "double":
                    b.append(f"{ind}facc += __builtin_va_arg(ap, double);")
                else:
                    b.append(f"{ind}acc += __builtin_va_arg(ap, struct i12).m0;")
            b.append(f"{ind}__builtin_va_end(ap);")
        if f["cold"] and params:
            pn, pt = params[-1]
            if pt.kind in ("i", "p"):
                b.append(f"{ind}if (__builtin_expect(!!({pn}), 0)) {{")
                b.append(f"{ind}\t{self.p}cold_path((long){pn}, acc);")
                b.append(f"{ind}\tacc += {self.p}isink * 17 + (long)facc;")
                b.append(f"{ind}\t{self.p}cold_path(acc, 2);")
                b.append(f"{ind}}}")
        for k, c in enumerate(f["callees"]):
            call = self.call_expr(f, c, params)
            last = k == len(f["callees"]) - 1
            if mode == "tail" and last and c["ret"] is not None and rt is not None \
                    and c["ret"].name == rt.name:
                b.append(f"{ind}{self.p}isink += acc; {self.p}fsink += facc;")
                b.append(f"{ind}return {call};")
                b.append("}")
                return b
            if c["ret"] is None:
                b.append(f"{ind}{call};")
            else:
                v = f"r{k}"
                b.append(f"{ind}{c['ret'].decl(v)} = {call};")
                self.use(v, c["ret"], b, ind, False)
        if f["part"]:
            for k in range(6):
                b.append(f"{ind}acc = acc * {k + 3} + {self.p}isink;"
                         f" {self.p}isink ^= acc >> {k + 1};")
        b.append(f"{ind}{self.p}isink += acc; {self.p}fsink += facc;")
        if rt is not None:
            b += self.ret_stmt(rt, params, ind)
        b.append("}")
        return b

    def globals(self):
        p = self.p
        r = self.r
        g = [f"long {p}isink;", f"double {p}fsink;", f"void *{p}ptr;",
             f"char {p}buf[4096] __attribute__((aligned(64)));",
             f"__attribute__((noinline, cold)) void {p}cold_path(long a, long b)"
             f" {{ {p}isink += a * b; }}"]
        for i in range(r.randint(2, 5)):
            t = r.choice(self.structs + self.enums + [self.rand_scalar()])
            stor = r.choice(["", "", "static ", "const "])
            init = ""
            if stor == "const ":
                init = " = {}" if t.kind == "s" else " = { 0 }"
            if stor == "static ":
                g.append(f"{stor}{t.decl(f'{p}var{i}')};")
                g.append(f"void *{p}var{i}_addr(void) {{ return &{p}var{i}; }}")
            else:
                g.append(f"{stor}{t.decl(f'{p}var{i}')}{init};")
        g.append(f"int {p}arr[{r.randint(1, 9)}] = {{ 1 }};")
        g.append(f"__thread int {p}tls;")
        return g


    # ---- extras: less common shapes, each a group that can be left out
    EXTRAS = ["msabi", "kr", "vla", "arrparam", "qual", "atomic", "fwd",
              "ptrarr", "tunion", "weak", "alias", "section", "noreturn",
              "percpu", "tags", "recursive", "addr", "nested", "optimize",
              "noipa", "constret", "alignedtd", "extern", "used", "gnuinline",
              "enumbf"]
    # v1.31 fails on these (no output): not in "default"
    NOT_DEFAULT = ["atomic"]

    def extras(self, which):
        return gen_c_extras.extras(self, which, BASE)

    def run(self):
        self.make_types()
        self.plan_functions()
        body = []
        for f in self.funcs:
            body += self.gen_function(f) + [""]
        which = [x for x in self.EXTRAS if x not in self.NOT_DEFAULT] \
            if self.a.extras == "default" else self.EXTRAS \
            if self.a.extras == "all" else \
            [x for x in self.a.extras.split(",") if x]
        body += self.extras(which)
        hdr = [f"/* gen_c.py --seed {self.a.seed} --funcs {self.a.funcs} "
               f"--statics {self.a.statics} --types {self.a.types} */",
               "#ifdef __clang__",
               "#define FLOAT128 __float128",
               "#else",
               "#define FLOAT128 _Float128",
               "#endif", ""]
        return "\n".join(hdr + self.out + [""] + self.globals() + [""] + body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--funcs", type=int, default=150,
                    help="global functions")
    ap.add_argument("--statics", type=int, default=60,
                    help="static functions")
    ap.add_argument("--types", type=int, default=30,
                    help="random structs/unions (besides the by-value set)")
    ap.add_argument("--prefix", default=None,
                    help="global names' prefix (default g<seed>_)")
    ap.add_argument("--static-prefix", default="sf",
                    help="static functions' names' prefix (shared across "
                    "seeds, so that a link of several units has same-named "
                    "static functions with different prototypes)")
    ap.add_argument("--no-complex", action="store_true",
                    help="no _Complex types (pahole v1.31 with feature "
                    "float fails on them)")
    ap.add_argument("--no-float128", action="store_true",
                    help="no _Float128/__float128")
    ap.add_argument("--no-int128", action="store_true",
                    help="no __int128 (for 32-bit targets)")
    ap.add_argument("--ilp32", action="store_true",
                    help="for 32-bit targets: implies --no-int128, no long "
                    "bitfields")
    ap.add_argument("--extras", default="default",
                    help="comma-separated groups of less common shapes, "
                    "'all', 'default' (all but " + ",".join(Gen.NOT_DEFAULT)
                    + ") or '' (none): " + ",".join(Gen.EXTRAS))
    a = ap.parse_args()
    if a.ilp32:
        a.no_int128 = True
    src = Gen(a).run()
    if a.out == "-":
        sys.stdout.write(src)
    else:
        with open(a.out, "w") as fp:
            fp.write(src)


if __name__ == "__main__":
    main()
