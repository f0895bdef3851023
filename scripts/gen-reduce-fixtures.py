#!/usr/bin/env python3
"""Writes fixtures/in/{acc,omp}_reduce_<type>.c: every reduction operator the
type allows, all reduced in one loop, at every level pragma2cuda lowers
(OpenACC: gang, gang vector, worker, vector, gang worker vector with vector
lengths 8 and 24, worker vector with vector length 64, kernels loop gang vector
and worker, serial loop;
OpenMP: teams distribute parallel for, target parallel for, teams distribute,
teams distribute parallel for simd), for trip counts 0, 1, 31, 33, 1000 and
100003, with block sizes that are not multiples of 32 and one or several
gangs (few: the emulator runs one OS thread per CUDA thread).

Every printed value is exact whatever the order of the reduction: integers
(types narrower than int wrap, as C's conversions do on both sides), float
sums of multiples of 1/8 and products of 1, 2, -1 and 1/2. Each program also
checks itself against a plain sequential loop and exits 1 on a mismatch.

    python3 scripts/gen-reduce-fixtures.py     # rewrites the fixtures
"""
import os
import sys

# (tag, C type, kind) ; kind: s = signed integer, u = unsigned, f = floating, b = _Bool,
# c = C99 complex (`+ - *` only; `-` OpenMP only; initial values use <complex.h>'s I)
TYPES = [
    ("char", "char", "s"),
    ("schar", "signed char", "s"),
    ("uchar", "unsigned char", "u"),
    ("short", "short", "s"),
    ("ushort", "unsigned short", "u"),
    ("int", "int", "s"),
    ("uint", "unsigned", "u"),
    ("long", "long", "s"),
    ("ulong", "unsigned long", "u"),
    ("llong", "long long", "s"),
    ("ullong", "unsigned long long", "u"),
    ("float", "float", "f"),
    ("double", "double", "f"),
    ("bool", "_Bool", "b"),
    # float _Complex / double _Complex: refused in device code (nvcc compiles
    # their arithmetic there into nothing; lower/device_complex.rs).
]

ACC_LEVELS = [
    ("gang", "parallel loop gang num_gangs(5)"),
    ("gang_vector", "parallel loop gang vector num_gangs(3) vector_length(40)"),
    ("worker", "parallel loop worker num_gangs(1) num_workers(37)"),
    ("vector", "parallel loop vector num_gangs(1) vector_length(16)"),
    ("gwv8", "parallel loop gang worker vector num_gangs(4) num_workers(3) vector_length(8)"),
    ("gwv24", "parallel loop gang worker vector num_gangs(2) num_workers(5) vector_length(24)"),
    ("wv64", "parallel loop worker vector num_gangs(1) num_workers(2) vector_length(64)"),
    ("kernels", "kernels loop gang vector num_gangs(2) vector_length(48)"),
    ("kernels_worker", "kernels loop worker num_workers(20)"),
    ("serial", "serial loop"),
]

OMP_LEVELS = [
    ("tdpf", "target teams distribute parallel for num_teams(3) thread_limit(100)"),
    ("pf", "target parallel for num_threads(70)"),
    ("td", "target teams distribute num_teams(7)"),
    ("tdpfs", "target teams distribute parallel for simd num_teams(2) thread_limit(50)"),
]


def ops(kind, model):
    """(name, operator, initial value, input array, update statement template).
    OpenACC has no `-` reduction (OpenACC 3.3, 2.5.15): only OpenMP gets it."""
    if kind == "b":
        return [
            # gcc's host OpenMP combines `+` on _Bool partials modulo 2, so
            # at most one element is true: the result is then the same everywhere.
            ("add", "+", "0", "ad", "{s} += {a}[i];"),
            ("mul", "*", "1", "la", "{s} *= {a}[i];"),
            ("max", "max", "0", "mx", "{s} = {a}[i] > {s} ? {a}[i] : {s};"),
            ("min", "min", "1", "mn", "{s} = {a}[i] < {s} ? {a}[i] : {s};"),
            ("and", "&", "1", "la", "{s} &= {a}[i];"),
            ("or", "|", "0", "lo", "{s} |= {a}[i];"),
            ("xor", "^", "1", "xr", "{s} ^= {a}[i];"),
            ("land", "&&", "1", "la", "{s} = {s} && {a}[i];"),
            ("lor", "||", "0", "lo", "{s} = {s} || {a}[i];"),
        ]
    if kind == "c":
        cx = [
            ("add", "+", "7 + 2 * I", "ad", "{s} += {a}[i];"),
            ("sub", "-", "5 - 3 * I", "ad", "{s} -= {a}[i];"),
            ("mul", "*", "3 + 1 * I", "pr", "{s} *= {a}[i];"),
        ]
        return [o for o in cx if model == "omp" or o[0] != "sub"]
    common = [
        ("add", "+", "7", "ad", "{s} += {a}[i];"),
        ("sub", "-", "5", "ad", "{s} -= {a}[i];"),
        ("mul", "*", "3", "pr", "{s} *= {a}[i];"),
        ("max", "max", "-100" if kind != "u" else "3", "rg", "{s} = {a}[i] > {s} ? {a}[i] : {s};"),
        ("min", "min", "100", "rg", "{s} = {a}[i] < {s} ? {a}[i] : {s};"),
    ]
    bits = [
        ("and", "&", "~0x10", "ba", "{s} &= {a}[i];"),
        ("or", "|", "0x20", "bo", "{s} |= {a}[i];"),
        ("xor", "^", "0x3", "rg", "{s} ^= {a}[i];"),
    ]
    logic = [
        ("land", "&&", "1", "la", "{s} = {s} && {a}[i];"),
        ("lor", "||", "0", "lo", "{s} = {s} || {a}[i];"),
    ]
    if model == "acc":
        common = [o for o in common if o[0] != "sub"]
    return common + (bits if kind in "su" else []) + logic


def inputs(ctype, kind):
    """C code filling the input arrays for index i (0 <= i < CAP)."""
    if kind == "b":
        return f"""        ad[i] = i == 40;
        lo[i] = i == 40 || i == 5000;
        la[i] = i != 777 && i != 77777;
        mx[i] = i == 500;
        mn[i] = i != 900;
        xr[i] = i % 3 == 0;"""
    if kind == "c":
        part = ctype.split()[0]
        return f"""        __real__ ad[i] = ({part})((i * 37) % 64) * ({part})0.125 - ({part})4;
        __imag__ ad[i] = ({part})((i * 11) % 32) * ({part})0.25 - ({part})2;
        /* factors 1, 2, 1/2, i, -1, 1 + i: every product is exact in any order */
        __real__ pr[i] = i % 4999 == 7 ? ({part})2 : (i % 3001 == 2 ? ({part})0.5 : (i % 7001 == 11 ? ({part})0 : (i % 9001 == 5 ? ({part})-1 : ({part})1)));
        __imag__ pr[i] = i % 7001 == 11 ? ({part})1 : (i % 8009 == 13 ? ({part})1 : ({part})0);"""
    if kind == "f":
        return f"""        ad[i] = ({ctype})((i * 37) % 64) * ({ctype})0.125 - ({ctype})4;
        pr[i] = i % 4999 == 7 ? ({ctype})2 : (i % 7001 == 11 ? ({ctype})-1 : (i % 9001 == 5 ? ({ctype})0.5 : ({ctype})1));
        rg[i] = ({ctype})((i * 7919L) % 10007 - 5000) * ({ctype})0.25;
        la[i] = i == 777 || i == 77777 ? ({ctype})0 : ({ctype})(i % 3) + ({ctype})0.5;
        lo[i] = i == 40 || i == 5000 ? ({ctype})-0.5 : ({ctype})0;"""
    neg = "-1" if kind == "s" else "1"
    return f"""        ad[i] = ({ctype})((i * 7919L) % 7 - {3 if kind == 's' else 0});
        pr[i] = i % 4999 == 7 ? ({ctype})2 : (i % 7001 == 11 ? ({ctype}){neg} : ({ctype})1);
        rg[i] = ({ctype})((i * 7919L) % 251 - {125 if kind == 's' else 0});
        ba[i] = i % 997 == 3 ? ({ctype})~({ctype})(1 << (i % 5)) : ({ctype})~({ctype})0;
        bo[i] = i % 1009 == 5 ? ({ctype})(1 << (i % 6)) : ({ctype})0;
        la[i] = i == 777 || i == 77777 ? ({ctype})0 : ({ctype})(i % 3 + 1);
        lo[i] = i == 40 || i == 5000 ? ({ctype})(i % 3 + 2) : ({ctype})0;"""


def printf_of(ctype, kind, expr):
    if kind == "c":
        return "%.10g%+.10gi", f"(double)__real__ {expr}, (double)__imag__ {expr}"
    if kind == "f":
        return "%.10g", f"(double){expr}"
    if kind == "u":
        return "%llu", f"(unsigned long long){expr}"
    return "%lld", f"(long long){expr}"


def fixture(model, tag, ctype, kind):
    name = f"{model}_reduce_{tag}"
    os_ = ops(kind, model)
    arrays = sorted({o[3] for o in os_})
    levels = ACC_LEVELS if model == "acc" else OMP_LEVELS
    out = []
    w = out.append
    w(f"/* {name}: every reduction operator `{ctype}` allows ({' '.join(o[1] for o in os_)}),")
    w(f" * all reduced in one loop (one pass through each tree), at every level:")
    for lv, prag in levels:
        w(f" *   {model} {prag}")
    w(" * for trip counts 0, 1, 31, 33, 1000, 100003; initial values are not the")
    w(" * identities (the RESULT objects are combined with the reductions). Printed")
    w(" * values are exact in any order; each is checked against a sequential loop.")
    w(" * Generated by scripts/gen-reduce-fixtures.py. */")
    w("#include <stdio.h>")
    if kind == "c":
        w("#include <complex.h>")
    w("")
    w("#define CAP 100003")
    w("")
    w(f"{ctype} {', '.join(a + '[CAP]' for a in arrays)};")
    w("")
    w("struct results {")
    for o in os_:
        w(f"    {ctype} {o[0]};")
    w("};")
    w("")
    w("static void init_inputs(void)")
    w("{")
    w("    for (long i = 0; i < CAP; i++) {")
    w(inputs(ctype, kind))
    w("    }")
    w("}")
    w("")
    copy = ", ".join(f"{a}[0:n]" for a in arrays)
    reds = " ".join(f"reduction({o[1]}: s_{o[0]})" for o in os_)
    data = f"copyin({copy})" if model == "acc" else f"map(to: {copy})"

    def body(prefix):
        lines = []
        for o in os_:
            lines.append("        " + o[4].format(s=f"{prefix}{o[0]}", a=o[3]))
        return lines

    for lv, prag in levels:
        w(f"static struct results dev_{lv}(int n)")
        w("{")
        for o in os_:
            w(f"    {ctype} s_{o[0]} = {o[2]};")
        w(f"#pragma {model} {prag} {data} {reds}")
        w("    for (int i = 0; i < n; i++) {")
        out.extend(body("s_"))
        w("    }")
        w("    struct results r;")
        for o in os_:
            w(f"    r.{o[0]} = s_{o[0]};")
        w("    return r;")
        w("}")
        w("")
    if kind == "c":
        # The `+` (and `-`) reductions alone: under --reduction-strategy=atomic
        # they are one native atomic add per part; `*` is reduced on the host.
        adds = [o for o in os_ if o[0] != "mul"]
        w("static struct results dev_atomic(int n)")
        w("{")
        w("    struct results r;")
        for o in os_:
            w(f"    {ctype} s_{o[0]} = {o[2]};")
        copy_a = ", ".join(sorted({f"{o[3]}[0:n]" for o in adds}))
        data_a = f"copyin({copy_a})" if model == "acc" else f"map(to: {copy_a})"
        reds_a = " ".join(f"reduction({o[1]}: s_{o[0]})" for o in adds)
        w(f"#pragma {model} {ATOMIC_LEVEL[model]} {data_a} {reds_a}")
        w("    for (int i = 0; i < n; i++) {")
        for o in adds:
            w("        " + o[4].format(s=f"s_{o[0]}", a=o[3]))
        w("    }")
        w("    for (int i = 0; i < n; i++)")
        w("        s_mul *= pr[i];")
        for o in os_:
            w(f"    r.{o[0]} = s_{o[0]};")
        w("    return r;")
        w("}")
        w("")
    w("static struct results host_all(int n)")
    w("{")
    w("    struct results r;")
    for o in os_:
        w(f"    r.{o[0]} = {o[2]};")
    w("    for (int i = 0; i < n; i++) {")
    out.extend(body("r."))
    w("    }")
    w("    return r;")
    w("}")
    w("")
    w("static int report(const char *level, int n, struct results d, struct results h)")
    w("{")
    w("    int bad = 0;")
    w(f'    printf("{name}: %s n=%d", level, n);')
    for o in os_:
        fmt, arg = printf_of(ctype, kind, f"d.{o[0]}")
        w(f"    bad += d.{o[0]} != h.{o[0]};")
        w(f'    printf(" {o[1]}={fmt}%s", {arg}, d.{o[0]} != h.{o[0]} ? "(FAIL)" : "");')
    w('    printf(" %s\\n", bad ? "FAIL" : "ok");')
    w("    return bad != 0;")
    w("}")
    w("")
    w("int main(void)")
    w("{")
    w("    static const int counts[] = {0, 1, 31, 33, 1000, 100003};")
    w("    int failed = 0;")
    w("    init_inputs();")
    w("    for (int c = 0; c < 6; c++) {")
    w("        int n = counts[c];")
    w("        struct results h = host_all(n);")
    for lv, _ in levels:
        w(f'        failed += report("{lv}", n, dev_{lv}(n), h);')
    if kind == "c":
        w('        failed += report("atomic", n, dev_atomic(n), h);')
    w("    }")
    w("    return failed != 0;")
    w("}")
    return name, "\n".join(out) + "\n"


ATOMIC_TYPES = [t for t in TYPES if t[0] in ("int", "uint", "long", "ulong", "llong", "ullong", "float", "double")]
ATOMIC_LEVEL = {
    "acc": "parallel loop gang worker vector num_gangs(4) num_workers(3) vector_length(8)",
    "omp": "target teams distribute parallel for num_teams(3) thread_limit(100)",
}


def atomic_fixture(model):
    """Loops whose reductions all have a native atomic (so that
    --reduction-strategy=atomic uses them), one per type."""
    name = f"{model}_reduce_atomic_ops"
    out = []
    w = out.append
    w(f"/* {name}: one loop per type whose reductions all have a native CUDA")
    w(" * atomic (+ - max min & | ^ on 32/64-bit integers, + - on float and double),")
    w(f" * on `{model} {ATOMIC_LEVEL[model]}`, for trip counts")
    w(" * 0, 1, 31, 33, 1000, 100003. With --reduction-strategy=atomic the gang level")
    w(" * uses the atomics; by default the last-block combine. Printed values are")
    w(" * exact in any order and checked against a sequential loop.")
    w(" * Generated by scripts/gen-reduce-fixtures.py. */")
    w("#include <stdio.h>")
    w("")
    w("#define CAP 100003")
    w("")
    w("static int failed;")
    w("")
    for tag, ctype, kind in ATOMIC_TYPES:
        os_ = [o for o in ops(kind, model) if o[0] in ("add", "sub", "and", "or", "xor") or (kind != "f" and o[0] in ("max", "min"))]
        arrays = sorted({o[3] for o in os_})
        w(f"{ctype} {', '.join(f'{a}_{tag}[CAP]' for a in arrays)};")
        w("")
        w(f"static void check_{tag}(int n)")
        w("{")
        for o in os_:
            w(f"    {ctype} s_{o[0]} = {o[2]}, h_{o[0]} = {o[2]};")
        copy = ", ".join(f"{a}_{tag}[0:n]" for a in arrays)
        data = f"copyin({copy})" if model == "acc" else f"map(to: {copy})"
        reds = " ".join(f"reduction({o[1]}: s_{o[0]})" for o in os_)
        w(f"#pragma {model} {ATOMIC_LEVEL[model]} {data} {reds}")
        w("    for (int i = 0; i < n; i++) {")
        for o in os_:
            w("        " + o[4].format(s=f"s_{o[0]}", a=f"{o[3]}_{tag}"))
        w("    }")
        w("    for (int i = 0; i < n; i++) {")
        for o in os_:
            w("        " + o[4].format(s=f"h_{o[0]}", a=f"{o[3]}_{tag}"))
        w("    }")
        w("    int bad = 0;")
        w(f'    printf("{name}: {ctype} n=%d", n);')
        for o in os_:
            fmt, arg = printf_of(ctype, kind, f"s_{o[0]}")
            w(f"    bad += s_{o[0]} != h_{o[0]};")
            w(f'    printf(" {o[1]}={fmt}%s", {arg}, s_{o[0]} != h_{o[0]} ? "(FAIL)" : "");')
        w('    printf(" %s\\n", bad ? "FAIL" : "ok");')
        w("    failed += bad != 0;")
        w("}")
        w("")
    w("int main(void)")
    w("{")
    w("    static const int counts[] = {0, 1, 31, 33, 1000, 100003};")
    w("    for (long i = 0; i < CAP; i++) {")
    for tag, ctype, kind in ATOMIC_TYPES:
        os_ = [o for o in ops(kind, model) if o[0] in ("add", "sub", "and", "or", "xor") or (kind != "f" and o[0] in ("max", "min"))]
        arrays = {o[3] for o in os_}
        for line in inputs(ctype, kind).split("\n"):
            a = line.strip().split("[")[0]
            if a in arrays:
                w(line.replace(f"{a}[i]", f"{a}_{tag}[i]"))
    w("    }")
    w("    for (int c = 0; c < 6; c++) {")
    for tag, _, _ in ATOMIC_TYPES:
        w(f"        check_{tag}(counts[c]);")
    w("    }")
    w("    return failed != 0;")
    w("}")
    return name, "\n".join(out) + "\n"


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "in")
    only = sys.argv[1:]
    for model in ("acc", "omp"):
        for tag, ctype, kind in TYPES:
            name, text = fixture(model, tag, ctype, kind)
            if only and not any(o in name for o in only):
                continue
            with open(os.path.join(root, name + ".c"), "w") as f:
                f.write(text)
        name, text = atomic_fixture(model)
        if not only or any(o in name for o in only):
            with open(os.path.join(root, name + ".c"), "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
