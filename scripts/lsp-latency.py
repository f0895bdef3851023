#!/usr/bin/env python3
"""Latency of `pragma2cuda lsp` on a 10,000-line file (issue 19): the file of
benches/editor.rs (1,000 offload regions, OpenMP and OpenACC in turn) is
opened; the time to its first diagnostics (the first parse) is printed, then
the round trip of hover on the first, middle and last pragma and of
codeLens on the whole file, each the least and the median of 20 requests,
and the median time to the answer's first byte (the server's share: the
rest is reading and parsing the JSON here, about 5 to 20 ms for the 270 kB
of 1,000 lenses); then five one-line edits, each followed by a code lens
request (the analysis of the edited text and the lenses).
With --once: only the open, a code lens, one edit and a code lens, for a
profiler given as the command: scripts/lsp-latency.py --once valgrind
--tool=callgrind target/release/pragma2cuda.
A measurement, not a test.   usage: scripts/lsp-latency.py [--once] [COMMAND...]"""
import json, subprocess, sys, time, statistics

ONCE = sys.argv[1:2] == ["--once"]
BIN = sys.argv[1 + ONCE:] or ["target/release/pragma2cuda"]

def generate(regions):
    s = "#include <stdio.h>\n#define N 1024\n"
    for k in range(regions):
        if k % 2 == 0:
            s += (f"void f{k}(double *a, const double *b, int n)\n{{\n    double s = {k}.0;\n"
                  "#pragma omp target teams distribute parallel for map(to: b[0:n]) map(tofrom: a[0:n])\n"
                  "    for (int i = 0; i < n; i++)\n        a[i] = s * b[i] + a[i];\n}\n"
                  f"/* f{k} */\n\n\n")
        else:
            s += (f"int f{k}(const int *v, int n)\n{{\n    int m = 0;\n"
                  "#pragma acc parallel loop gang vector copyin(v[0:n]) reduction(max: m)\n"
                  "    for (int i = 0; i < n; i++)\n        m = v[i] > m ? v[i] : m;\n"
                  f"    return m + {k};\n}}\n\n\n")
    return s

p = subprocess.Popen(BIN + ["lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(m):
    b = json.dumps(m).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
    p.stdin.flush()
first_byte = [0.0]
def recv():
    n = 0
    first_byte[0] = 0.0
    while True:
        line = p.stdout.readline().decode().strip()
        if not first_byte[0]:
            first_byte[0] = time.perf_counter()
        if not line:
            break
        if line.startswith("Content-Length:"):
            n = int(line.split(":")[1])
    return json.loads(p.stdout.read(n))
def request(i, method, params):
    send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
    while True:
        m = recv()
        if m.get("id") == i:
            return m

text = generate(1000)
lines = text.split("\n")
pragmas = [i for i, l in enumerate(lines) if l.startswith("#pragma")]
print(f"input: {len(text.splitlines())} lines, {len(pragmas)} regions, {len(text)} bytes")
request(0, "initialize", {"capabilities": {}})
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
uri = "file:///tmp/p2c-latency.c"
t = time.perf_counter()
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "c", "version": 1, "text": text}}})
while recv().get("method") != "textDocument/publishDiagnostics":
    pass
print(f"open to diagnostics (first parse): {(time.perf_counter() - t) * 1e3:.1f} ms")
rid = 1
def timed(name, method, params, runs=1 if ONCE else 20):
    global rid
    ts, server = [], []
    for _ in range(runs):
        rid += 1
        t = time.perf_counter()
        r = request(rid, method, params)
        ts.append((time.perf_counter() - t) * 1e3)
        server.append((first_byte[0] - t) * 1e3)
        assert r.get("result") is not None, r
    print(f"{name:28} least {min(ts):6.2f} ms  median {statistics.median(ts):6.2f} ms  most {max(ts):6.2f} ms"
          f"  (to the answer's first byte: median {statistics.median(server):6.2f} ms)")
for name, l in [] if ONCE else [("first", pragmas[0]), ("middle", pragmas[len(pragmas) // 2]), ("last", pragmas[-1])]:
    timed(f"hover {name} pragma", "textDocument/hover",
          {"textDocument": {"uri": uri}, "position": {"line": l, "character": 3}})
timed("codeLens (1000 lenses)", "textDocument/codeLens", {"textDocument": {"uri": uri}})
if not ONCE:
    timed("pragma2cuda/lowered middle", "pragma2cuda/lowered",
          {"textDocument": {"uri": uri}, "position": {"line": pragmas[500], "character": 3}})
# A one-line edit (one character of a kernel body in the middle region,
# the line count kept), then a code lens: the edited text is analysed and
# lowered again before the lenses are made.
line = pragmas[500] + 2
version = 1
ts = []
for k in range(1 if ONCE else 5):
    version += 1
    col = lines[line].index("s * b") + 2
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": version},
                     "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                                   "end": {"line": line, "character": col + 1}},
                                         "text": "+*"[k % 2]}]}})
    rid += 1
    t = time.perf_counter()
    r = request(rid, "textDocument/codeLens", {"textDocument": {"uri": uri}})
    ts.append((time.perf_counter() - t) * 1e3)
    assert r.get("result") is not None, r
print(f"{'edit, then codeLens':28} least {min(ts):6.2f} ms  median {statistics.median(ts):6.2f} ms  most {max(ts):6.2f} ms")
request(rid + 1, "shutdown", None)
send({"jsonrpc": "2.0", "method": "exit"})
p.wait()
