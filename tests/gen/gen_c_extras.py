"""gen_c_extras: gen_c.py's "extras", the rarer shapes a unit may have, one
group each (see gen_c.py's docstring): split from gen_c.py, which calls
extras() from Gen.extras() with itself and its table of base types."""


def extras(self, which, base):
    """The C source lines of the groups named in @which, for Gen @self."""
    r = self.r
    p = self.p
    o = []

    def sc():
        return self.rand_scalar()

    def ab():
        return r.choice(self.abi)
    if "msabi" in which:
        for k in range(3):
            ts = [r.choice([sc(), ab(), base["double"], base["int"]])
                  for _ in range(r.randint(1, 8))]
            ps = ", ".join(t.decl(f"p{j}") for j, t in enumerate(ts))
            o.append(f"__attribute__((noinline, ms_abi)) long "
                     f"{p}ms{k}({ps})\n{{\n\tlong acc = 0; double facc = 0;")
            for j, t in enumerate(ts):
                if r.random() < 0.7:
                    b = []
                    self.use(f"p{j}", t, b, "\t")
                    o += b
            o.append(f"\t{p}fsink += facc;\n\treturn acc;\n}}\n")
            # a static ms_abi one, called
            o.append(f"static __attribute__((noinline, ms_abi)) long "
                     f"{p}sms{k}(long a, double b, int c, int d, long e)"
                     f"\n{{\n\treturn a + (long)b + d + e;\n}}\n"
                     f"long {p}call_sms{k}(long x)\n{{\n\treturn "
                     f"{p}sms{k}(x, 1.0, 3, (int)x, 5) + "
                     f"{p}sms{k}(x + 1, 2.0, 3, 7, 5);\n}}\n")
    if "kr" in which:
        o.append(f"long {p}kr0(a, b, c)\n\tlong a; char b; float c;\n"
                 f"{{\n\treturn a + b + (long)c;\n}}\n")
        o.append(f"static __attribute__((noinline)) long {p}skr1(a, b)"
                 f"\n\tint a; double b;\n{{\n\treturn a + (long)b;\n}}\n"
                 f"long {p}call_kr1(void)\n{{\n\treturn {p}skr1(1, 2.0) +"
                 f" {p}skr1(3, 4);\n}}\n")
        o.append(f"long {p}kr2()\n{{\n\treturn {p}isink;\n}}\n")
    if "vla" in which:
        o.append(f"__attribute__((noinline)) long {p}vla0(int n, long a[n])"
                 f"\n{{\n\treturn a[n - 1];\n}}\n")
        o.append(f"__attribute__((noinline)) long {p}vla1(int n, int m, "
                 f"int a[n][m], double d)\n{{\n\treturn a[n - 1][m - 1] + "
                 f"(long)d;\n}}\n")
        o.append(f"__attribute__((noinline)) long {p}vla2(int n)\n{{\n"
                 f"\tlong a[n];\n\t__builtin_memset(a, 0, sizeof(a));\n"
                 f"\treturn {p}vla0(n, a);\n}}\n")
    if "arrparam" in which:
        o.append(f"__attribute__((noinline)) long {p}arr0(int a[10], "
                 f"const char s[], long b[static 4], "
                 f"struct i8 c[3])\n{{\n\treturn a[1] + s[0] + b[3] + "
                 f"c[2].m0;\n}}\n")
    if "qual" in which:
        t = ab()
        o.append(f"__attribute__((noinline)) long {p}qual0(const int a, "
                 f"volatile long b, {t.name} *const c, const {t.name} d, "
                 f"const volatile double e, char *restrict f)\n{{\n"
                 f"\treturn a + b + (long)c + sizeof(d) + (long)e + "
                 f"*f;\n}}\n")
        o.append(f"static __attribute__((noinline)) long {p}squal1("
                 f"const int a, volatile long b, const double c)\n{{\n"
                 f"\treturn a + b;\n}}\nlong {p}call_squal1(long x)\n{{\n"
                 f"\treturn {p}squal1(1, x, 2.0) + {p}squal1(1, x + 1, "
                 f"3.0);\n}}\n")
    if "atomic" in which:
        o.append(f"struct {p}atom {{ _Atomic int a; _Atomic(long) *b; "
                 f"int c; }};\n"
                 f"__attribute__((noinline)) long {p}atomic0(_Atomic int a,"
                 f" _Atomic(long) *b, struct {p}atom *c, _Atomic long d)"
                 f"\n{{\n\treturn a + *b + c->c + d;\n}}\n")
    if "fwd" in which:
        o.append(f"struct {p}fwd_s;\nunion {p}fwd_u;\nenum {p}fwd_e;\n"
                 f"typedef struct {p}fwd_s {p}fwd_t;\n"
                 f"__attribute__((noinline)) long {p}fwd0(struct {p}fwd_s "
                 f"*a, union {p}fwd_u *b, enum {p}fwd_e *c, {p}fwd_t *d, "
                 f"const struct {p}fwd_s *e)\n{{\n\treturn (long)a + "
                 f"(long)b + (long)c + (long)d + (long)e;\n}}\n")
    if "ptrarr" in which:
        o.append(f"typedef int {p}fnty(int);\n"
                 f"__attribute__((noinline)) long {p}ptrarr0(int (*a)[4], "
                 f"{p}fnty *f, long (*g)(int, ...), "
                 f"struct i4 (*h)[2][3], void (*v)(void))\n{{\n"
                 f"\tif (v) v();\n\treturn (*a)[2] + f(3) + g(1, 2) + "
                 f"h[0][1][2].m0;\n}}\n")
    if "tunion" in which:
        o.append(f"typedef union {{ int *ip; long *lp; }} {p}tu_t "
                 f"__attribute__((transparent_union));\n"
                 f"__attribute__((noinline)) long {p}tunion0({p}tu_t u, "
                 f"int x)\n{{\n\treturn *u.ip + x;\n}}\n"
                 f"long {p}call_tunion(int *x)\n{{\n\treturn "
                 f"{p}tunion0(x, 3);\n}}\n")
    if "weak" in which:
        t = ab()
        o.append(f"__attribute__((weak, noinline)) long {p}weak0("
                 f"{t.name} a, int b)\n{{\n\treturn b + sizeof(a);\n}}\n")
    if "alias" in which:
        o.append(f"__attribute__((noinline)) long {p}aliased0(long a, "
                 f"int b)\n{{\n\treturn a * b + {p}isink;\n}}\n"
                 f"long {p}alias0(long a, int b) __attribute__(("
                 f"alias(\"{p}aliased0\")));\n"
                 f"long {p}walias0(long a, int b) __attribute__((weak, "
                 f"alias(\"{p}aliased0\")));\n"
                 f"static __attribute__((noinline, used)) long "
                 f"{p}saliased1(long a)\n{{\n\treturn a + 1;\n}}\n"
                 f"long {p}alias1(long a) __attribute__((alias("
                 f"\"{p}saliased1\")));\n")
    if "section" in which:
        o.append(f"__attribute__((noinline, section(\".text.custom\"))) "
                 f"long {p}sect0(long a, struct i16 b)\n{{\n\treturn a + "
                 f"b.m0;\n}}\n"
                 f"__attribute__((noinline, section(\".init.text\"))) "
                 f"int {p}sect1(int a)\n{{\n\treturn a + 2;\n}}\n"
                 f"static __attribute__((noinline, section(\".text.unlikely"
                 f"\"))) int {p}ssect2(int a, int b)\n{{\n\treturn a + "
                 f"{p}isink;\n}}\nint {p}call_ssect2(int x)\n{{\n\treturn "
                 f"{p}ssect2(x, 0) + {p}ssect2(x, 0);\n}}\n")
    if "noreturn" in which:
        o.append(f"_Noreturn __attribute__((noinline)) void {p}die0(int "
                 f"a, long b)\n{{\n\t{p}isink = a + b;\n"
                 f"\t__builtin_trap();\n}}\n"
                 f"long {p}maybe_die(int a)\n{{\n\tif (a > 100) "
                 f"{p}die0(a, 2);\n\treturn a;\n}}\n")
    if "percpu" in which:
        for k in range(r.randint(2, 4)):
            t = r.choice([sc(), ab(), r.choice(self.structs),
                          r.choice(self.enums)])
            stor = r.choice(["", "", "static "])
            o.append(f"{stor}__attribute__((section(\".data..percpu\"))) "
                     f"{t.decl(f'{p}pcpu{k}')};")
            if stor:
                o.append(f"void *{p}pcpu{k}_addr(void) {{ return "
                         f"&{p}pcpu{k}; }}")
        o.append(f"__attribute__((section(\".data..percpu\"))) "
                 f"int {p}pcpu_arr[4] = {{ 1, 2 }};\n")
    if "tags" in which:
        o.append("#define __tag1 __attribute__((btf_type_tag(\"tag1\")))\n"
                 "#define __tag2 __attribute__((btf_type_tag(\"tag2\")))\n"
                 "#define __dtag(x) __attribute__((btf_decl_tag(x)))\n"
                 f"struct {p}tagged {{ int __tag1 *a; long __tag1 __tag2 "
                 f"*b __dtag(\"member\"); int c __dtag(\"m2\"); }} "
                 f"__dtag(\"struct\");\n"
                 f"typedef int __tag2 * {p}tagptr_t __dtag(\"typedef\");\n"
                 f"__dtag(\"func\") __attribute__((noinline)) long "
                 f"{p}tags0(int __tag1 *a __dtag(\"param\"), "
                 f"struct {p}tagged *b, {p}tagptr_t c, "
                 f"const int __tag1 __tag2 *d)\n{{\n\treturn *a + b->c + "
                 f"*c + *d;\n}}\n"
                 f"int __tag1 *{p}tagvar __dtag(\"var\");\n"
                 f"__attribute__((section(\".data..percpu\"))) int __tag2 "
                 f"*{p}tagpcpu __dtag(\"pcpuvar\");\n")
    if "recursive" in which:
        o.append(f"__attribute__((noinline)) long {p}rec0(long n, "
                 f"struct i8 s)\n{{\n\treturn n <= 0 ? s.m0 : "
                 f"n + {p}rec0(n - 1, s);\n}}\n"
                 f"static __attribute__((noinline)) long {p}srec1(long n, "
                 f"int unused)\n{{\n\treturn n <= 0 ? 0 : "
                 f"n * {p}srec1(n - 2, unused);\n}}\n"
                 f"long {p}call_srec1(long n)\n{{\n\treturn "
                 f"{p}srec1(n, 5);\n}}\n")
    if "addr" in which:
        o.append(f"static __attribute__((noinline)) long {p}saddr0(long a, "
                 f"int unused)\n{{\n\treturn a + 3;\n}}\n"
                 f"long (*{p}fnptr0)(long, int) = {p}saddr0;\n"
                 f"static __attribute__((noinline)) long {p}saddr1(long a, "
                 f"int b)\n{{\n\treturn a + b;\n}}\n"
                 f"long {p}call_saddr1(long x)\n{{\n\tlong (*volatile f)"
                 f"(long, int) = {p}saddr1;\n\treturn f(x, 2) + "
                 f"{p}saddr1(x, 2);\n}}\n")
    if "nested" in which:
        o.append(f"#ifndef __clang__\n__attribute__((noinline)) long "
                 f"{p}nest0(long a, int b)\n{{\n\tlong inner(long x) "
                 f"{{ return x + a; }}\n\tlong (*volatile f)(long) = "
                 f"inner;\n\treturn f(b);\n}}\n#endif\n")
    if "optimize" in which:
        o.append(f"#ifndef __clang__\n__attribute__((noinline, optimize("
                 f"\"O0\"))) long {p}opt0(long a, struct i24 b, double c)"
                 f"\n{{\n\treturn a;\n}}\n"
                 f"static __attribute__((noinline, optimize(\"O3\"))) long "
                 f"{p}sopt1(long a, int b, int c)\n{{\n\treturn a * c;\n}}"
                 f"\nlong {p}call_sopt1(long x)\n{{\n\treturn "
                 f"{p}sopt1(x, 1, 4) + {p}sopt1(x + 1, 2, 4);\n}}\n"
                 f"#endif\n")
    if "noipa" in which:
        o.append(f"#ifndef __clang__\nstatic __attribute__((noipa)) long "
                 f"{p}snoipa0(long a, int unused, struct i8 s)\n{{\n"
                 f"\treturn a + s.m0;\n}}\nlong {p}call_snoipa0(long x)\n"
                 f"{{\n\treturn {p}snoipa0(x, 1, *(struct i8 *){p}buf);\n}}"
                 f"\n#endif\n")
    if "constret" in which:
        o.append(f"__attribute__((noinline)) const int {p}cret0(void)\n{{\n"
                 f"\treturn 3;\n}}\n"
                 f"__attribute__((noinline)) const struct i8 *const "
                 f"{p}cret1(const struct i8 *const a)\n{{\n\treturn a + "
                 f"1;\n}}\n"
                 f"__attribute__((noinline)) volatile long *{p}cret2(void)"
                 f"\n{{\n\treturn (volatile long *){p}ptr;\n}}\n")
    if "alignedtd" in which:
        o.append(f"typedef int {p}aint __attribute__((aligned(16)));\n"
                 f"typedef struct i8 {p}ai8 __attribute__((aligned(32)));\n"
                 f"__attribute__((noinline)) long {p}alignedtd0({p}aint a, "
                 f"{p}ai8 b, {p}aint *c)\n{{\n\treturn a + b.m0 + *c;\n}}\n")
    if "extern" in which:
        o.append(f"extern long {p}ext_fn(struct i8 a, int b);\n"
                 f"extern int {p}ext_var;\n"
                 f"long {p}call_ext(int x)\n{{\n\treturn {p}ext_fn("
                 f"*(struct i8 *){p}buf, x) + {p}ext_var;\n}}\n")
    if "used" in which:
        o.append(f"static __attribute__((used, noinline)) long "
                 f"{p}sused0(long a, struct i12 b, int unused)\n{{\n"
                 f"\treturn a + b.m0;\n}}\n")
    if "gnuinline" in which:
        o.append(f"extern inline __attribute__((gnu_inline)) long "
                 f"{p}gnuinl0(long a)\n{{\n\treturn a + 1;\n}}\n"
                 f"inline long {p}c99inl1(long a)\n{{\n\treturn a + 2;\n}}\n"
                 f"extern inline long {p}c99inl2(long a)\n{{\n\treturn "
                 f"a + 3;\n}}\n"
                 f"long {p}call_inl(long a)\n{{\n\treturn {p}gnuinl0(a) + "
                 f"{p}c99inl1(a) + {p}c99inl2(a);\n}}\n")
    if "enumbf" in which:
        e = r.choice(self.enums)
        o.append(f"struct {p}ebf {{ {e.name} a : 4; _Bool b : 1; "
                 f"unsigned c : 3; }};\n"
                 f"__attribute__((noinline)) long {p}enumbf0(struct "
                 f"{p}ebf s, {e.name} e)\n{{\n\treturn s.a + s.b + s.c + "
                 f"e;\n}}\n")
    return o
