//! The language server (`pragma2cuda lsp`, issue 19) driven by a test
//! client over stdio: every request the server answers, on real fixtures.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_pragma2cuda");
const WAIT: Duration = Duration::from_secs(60);

struct Client {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
    /// Notifications read while waiting for a response.
    notes: Vec<Value>,
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse::<usize>().ok();
        }
    }
    let mut buf = vec![0; len?];
    r.read_exact(&mut buf).ok()?;
    serde_json::from_slice(&buf).ok()
}

impl Client {
    /// Starts the server and initializes it with `options`.
    fn start(options: Value) -> Client {
        let mut child = Command::new(BIN)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start pragma2cuda lsp");
        let stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            while let Some(m) = read_message(&mut out) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let mut c = Client {
            child,
            stdin,
            rx,
            next_id: 1,
            notes: Vec::new(),
        };
        let caps = c.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}, "initializationOptions": options}),
        );
        let caps = &caps["capabilities"];
        assert_eq!(caps["hoverProvider"], json!(true));
        assert_eq!(caps["definitionProvider"], json!(true));
        assert_eq!(caps["textDocumentSync"], json!(2), "incremental sync");
        assert!(caps["codeLensProvider"].is_object());
        assert_eq!(
            caps["codeActionProvider"]["codeActionKinds"],
            json!(["quickfix"])
        );
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, m: Value) {
        let b = serde_json::to_vec(&m).unwrap();
        write!(self.stdin, "Content-Length: {}\r\n\r\n", b.len()).unwrap();
        self.stdin.write_all(&b).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let end = Instant::now() + WAIT;
        loop {
            let m = self
                .rx
                .recv_timeout(end.saturating_duration_since(Instant::now()))
                .unwrap_or_else(|_| panic!("no answer to {method}"));
            if m["id"] == json!(id) {
                assert!(m.get("error").is_none(), "{method}: {m}");
                return m["result"].clone();
            }
            self.notes.push(m);
        }
    }

    /// The next publishDiagnostics for `uri` at `version`.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let is_it = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == json!(version)
        };
        if let Some(i) = self.notes.iter().position(is_it) {
            let m = self.notes.remove(i);
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
        let end = Instant::now() + WAIT;
        loop {
            let m = self
                .rx
                .recv_timeout(end.saturating_duration_since(Instant::now()))
                .unwrap_or_else(|_| panic!("no diagnostics for {uri} version {version}"));
            if is_it(&m) {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.notes.push(m);
        }
    }

    /// Opens `path` (relative to the crate) as version 1; its URI and text.
    fn open(&mut self, path: &str) -> (String, String) {
        let p = fixture(path);
        let text = std::fs::read_to_string(&p).unwrap();
        let uri = format!("file://{}", p.display());
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "c", "version": 1, "text": text}}),
        );
        (uri, text)
    }

    fn at(&mut self, method: &str, uri: &str, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        )
    }

    fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "server exit status {status}");
    }
}

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The 0-based line of the first line of `text` containing `needle`.
fn line_of(text: &str, needle: &str) -> u32 {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` not in the text")) as u32
}

/// The CLI's translation of a fixture with `flags`.
/// The CLI's translation, without `#line` (the editor's views have none).
fn cli(path: &str, flags: &[&str]) -> String {
    let out = Command::new(BIN)
        .arg("--no-line-directives")
        .args(flags)
        .arg(fixture(path))
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The kernel function `name` in `cuda`: its signature to its closing brace.
fn kernel_fn<'a>(cuda: &'a str, name: &str) -> &'a str {
    let start = cuda
        .find(&format!("__global__ void {name}("))
        .expect("kernel");
    let len = cuda[start..].find("\n}\n").expect("kernel end");
    &cuda[start..start + len]
}

const GANG: &str = "fixtures/in/acc_reduction_gang.c";
const GANG_PRAGMA: &str = "#pragma acc parallel loop gang copyin(vi[0:n]) reduction(+: s)";

#[test]
fn diagnostics_with_code_link_explanation_and_quick_fix() {
    let mut c = Client::start(Value::Null);
    let (uri, text) = c.open("fixtures/bad/omp_unknown_clause.c");
    let d = c.diagnostics(&uri, 1);
    assert_eq!(d.len(), 1, "{d:?}");
    let d = &d[0];
    assert_eq!(d["code"], "E0103");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["codeDescription"]["href"], "pragmacuda:explain/E0103");
    let line = line_of(&text, "#pragma omp target");
    let col = text
        .lines()
        .nth(line as usize)
        .unwrap()
        .find("mapp")
        .unwrap() as u32;
    assert_eq!(d["range"]["start"], json!({"line": line, "character": col}));
    assert_eq!(
        d["range"]["end"],
        json!({"line": line, "character": col + 4})
    );
    // The codeDescription's document: the `--explain` text.
    let explain = c.request("pragma2cuda/explain", json!({"code": "E0103"}));
    let cli = Command::new(BIN)
        .args(["--explain", "E0103"])
        .output()
        .unwrap();
    assert_eq!(
        explain.as_str().unwrap(),
        String::from_utf8(cli.stdout).unwrap()
    );
    // The quick fix: `mapp` -> `map`.
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["kind"], "quickfix");
    let edits = &actions[0]["edit"]["changes"][&uri];
    assert_eq!(edits, &json!([{"range": d["range"], "newText": "map"}]));
    // No fix away from the diagnostic.
    let none = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "context": {"diagnostics": []}}),
    );
    assert_eq!(none, json!([]));
    c.stop();
}

#[test]
fn secondary_labels_are_related_information() {
    let mut c = Client::start(Value::Null);
    let (uri, text) = c.open("fixtures/bad/acc_gang_inside_vector.c");
    let d = c.diagnostics(&uri, 1);
    let d = d.iter().find(|d| d["code"] == "E0210").expect("E0210");
    let rel = d["relatedInformation"]
        .as_array()
        .expect("relatedInformation");
    assert_eq!(rel.len(), 1);
    assert_eq!(rel[0]["message"], "enclosing vector loop");
    assert_eq!(rel[0]["location"]["uri"], json!(uri));
    let vector = line_of(&text, "#pragma acc parallel loop vector");
    assert_eq!(rel[0]["location"]["range"]["start"]["line"], json!(vector));
    c.stop();
}

#[test]
fn hover_and_lens_on_offload_pragmas() {
    let mut c = Client::start(Value::Null);
    let (uri, text) = c.open(GANG);
    assert_eq!(c.diagnostics(&uri, 1), Vec::<Value>::new());
    let line = line_of(&text, GANG_PRAGMA);
    let h = c.at("textDocument/hover", &uri, line, 3);
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.contains("**CUDA kernel `dev_sum_int_L42`**"), "{md}");
    assert!(md.contains("- schedule: block-only"), "{md}");
    assert!(md.contains("- reductions: 1 (strategy `tree`)"), "{md}");
    assert!(md.contains("launch:    blocks from trip count"), "{md}");
    assert!(md.contains("s : int -- reduction(+); register"), "{md}");
    assert_eq!(h["range"]["start"], json!({"line": line, "character": 0}));
    // In the loop body: the same region; on host code: nothing.
    let inside = c.at("textDocument/hover", &uri, line + 2, 8);
    assert_eq!(inside["contents"], h["contents"]);
    assert_eq!(c.at("textDocument/hover", &uri, 0, 0), Value::Null);
    let lens = c.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let lens = lens.as_array().unwrap();
    let pragmas = text
        .lines()
        .filter(|l| l.starts_with("#pragma acc parallel loop"))
        .count();
    assert_eq!(lens.len(), pragmas);
    let first = &lens[0];
    assert_eq!(first["range"]["start"]["line"], json!(line));
    assert_eq!(
        first["command"]["title"],
        "CUDA: dev_sum_int_L42 - block-only, 1 reduction"
    );
    assert_eq!(first["command"]["command"], "pragma2cuda.showLowered");
    assert_eq!(first["command"]["arguments"][0], json!(uri));
    c.stop();
}

#[test]
fn generic_region_shows_staged_bytes_and_shared_budget_option() {
    let path = "fixtures/in/acc_generic_workers.c";
    let mut c = Client::start(Value::Null);
    let (uri, text) = c.open(path);
    c.diagnostics(&uri, 1);
    let lens = c.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(
        lens[0]["command"]["title"],
        "CUDA: main_L18 - sequential, generic, 8 B shared"
    );
    let line = line_of(&text, "#pragma acc parallel num_gangs(3)");
    let h = c.at("textDocument/hover", &uri, line, 0);
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(
        md.contains("generic mode: 8 B staged in shared memory"),
        "{md}"
    );
    assert!(
        md.contains("team frame: 8 B in shared memory, 0 B in global memory"),
        "{md}"
    );
    c.stop();
    // `--shared-budget 0` from initializationOptions: the frame goes to global memory.
    let mut c = Client::start(json!({"sharedBudget": 0}));
    let (uri, _) = c.open(path);
    c.diagnostics(&uri, 1);
    let h = c.at("textDocument/hover", &uri, line, 0);
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(
        md.contains("team frame: 0 B in shared memory, 16 B in global memory"),
        "{md}"
    );
    c.stop();
}

#[test]
fn lowered_translated_and_definition() {
    let mut c = Client::start(Value::Null);
    let (uri, text) = c.open(GANG);
    c.diagnostics(&uri, 1);
    let line = line_of(&text, GANG_PRAGMA);
    let low = c.at("pragma2cuda/lowered", &uri, line, 5);
    assert_eq!(low["kernel"], "dev_sum_int_L42");
    let cuda = low["cuda"].as_str().unwrap();
    assert!(cuda.contains("__global__ void dev_sum_int_L42("), "{cuda}");
    assert!(!cuda.contains("dev_prod_int_L59"), "only this region");
    assert_eq!(low["range"]["start"], json!({"line": line, "character": 0}));
    assert!(low["range"]["end"]["line"].as_u64().unwrap() > line as u64);
    assert_eq!(c.at("pragma2cuda/lowered", &uri, 0, 0), Value::Null);
    // The whole translation is the CLI's.
    let t = c.request(
        "pragma2cuda/translated",
        json!({"textDocument": {"uri": uri}}),
    );
    let whole = t["text"].as_str().unwrap();
    assert_eq!(whole, cli(GANG, &[]));
    let vuri = format!("pragmacuda:{}.cu", uri.strip_prefix("file:").unwrap());
    assert_eq!(t["uri"], json!(vuri));
    assert_eq!(t["errors"], 0);
    // The virtual document's URI answers the same.
    let again = c.request(
        "pragma2cuda/translated",
        json!({"textDocument": {"uri": vuri}}),
    );
    assert_eq!(again["text"], t["text"]);
    // Go-to: the pragma's kernel in the virtual document.
    let kline = line_of(whole, "__global__ void dev_sum_int_L42(");
    let def = c.at("textDocument/definition", &uri, line, 5);
    assert_eq!(def["uri"], json!(vuri));
    assert_eq!(def["range"]["start"]["line"], json!(kline));
    let kcol = whole
        .lines()
        .nth(kline as usize)
        .unwrap()
        .find("dev_sum_int_L42")
        .unwrap();
    assert_eq!(def["range"]["start"]["character"], json!(kcol));
    let k = t["kernels"].as_array().unwrap();
    assert_eq!(k[0], json!({"kernel": "dev_sum_int_L42", "line": kline}));
    c.stop();
}

#[test]
fn configuration_change_relowers() {
    let mut c = Client::start(Value::Null);
    let (uri, text) = c.open(GANG);
    c.diagnostics(&uri, 1);
    let line = line_of(&text, GANG_PRAGMA);
    let tree = c.at("pragma2cuda/lowered", &uri, line, 0)["cuda"].clone();
    let tree = kernel_fn(tree.as_str().unwrap(), "dev_sum_int_L42").to_string();
    assert!(cli(GANG, &[]).contains(&tree));
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pragma2cuda": {"reductionStrategy": "lock"}}}),
    );
    c.diagnostics(&uri, 1);
    let lock = c.at("pragma2cuda/lowered", &uri, line, 0)["cuda"].clone();
    let lock = kernel_fn(lock.as_str().unwrap(), "dev_sum_int_L42").to_string();
    assert_ne!(lock, tree);
    assert!(cli(GANG, &["--reduction-strategy", "lock"]).contains(&lock));
    let h = c.at("textDocument/hover", &uri, line, 0);
    assert!(h["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("(strategy `lock`)"));
    c.stop();
}

#[test]
fn edits_republish_diagnostics() {
    let mut c = Client::start(json!({"debounceMs": 1000}));
    let (uri, text) = c.open(GANG);
    assert!(c.diagnostics(&uri, 1).is_empty());
    let line = line_of(&text, GANG_PRAGMA);
    let col = GANG_PRAGMA.find("copyin").unwrap() as u32;
    let range = |a: u32, b: u32| json!({"start": {"line": line, "character": a}, "end": {"line": line, "character": b}});
    // `copyin` -> `copyim`: an unknown clause, with its fix.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": range(col + 5, col + 6), "text": "m"}]}),
    );
    let d = c.diagnostics(&uri, 2);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], "E0103");
    assert_eq!(d[0]["range"], range(col, col + 6));
    assert_eq!(d[0]["data"]["replacement"], "copyin");
    assert_eq!(d[0]["codeDescription"]["href"], "pragmacuda:explain/E0103");
    let fix = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d[0]["range"], "context": {"diagnostics": [d[0]]}}),
    );
    assert_eq!(
        fix[0]["edit"]["changes"][&uri],
        json!([{"range": range(col, col + 6), "newText": "copyin"}])
    );
    // Two edits in a row, undoing it: one analysis for the last version.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3},
               "contentChanges": [{"range": range(col + 5, col + 6), "text": "x"}]}),
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4},
               "contentChanges": [{"range": range(col + 5, col + 6), "text": "n"}]}),
    );
    assert!(c.diagnostics(&uri, 4).is_empty());
    assert!(
        !c.notes.iter().any(|m| m["params"]["version"] == json!(3)),
        "version 3 was debounced away"
    );
    // A whole-text change, then a request before the debounce: answered on the new text.
    let renamed = text.replace("dev_sum_int(", "dev_total(");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": renamed}]}),
    );
    let low = c.at("pragma2cuda/lowered", &uri, line, 0);
    assert_eq!(low["kernel"], "dev_total_L42");
    c.stop();
}

#[test]
fn secondary_labels_on_change() {
    let mut c = Client::start(json!({"debounceMs": 0}));
    let path = fixture("fixtures/bad/acc_gang_inside_vector.c");
    let bad = std::fs::read_to_string(&path).unwrap();
    let good = bad.replace("#pragma acc loop gang", "#pragma acc loop seq ");
    let uri = format!("file://{}", path.display());
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "c", "version": 1, "text": good}}),
    );
    assert!(!c.diagnostics(&uri, 1).iter().any(|d| d["code"] == "E0210"));
    let line = line_of(&bad, "#pragma acc loop gang");
    let at = |ch: u32| json!({"line": line, "character": ch});
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": {"start": at(17), "end": at(21)}, "text": "gang"}]}),
    );
    let d = c.diagnostics(&uri, 2);
    let d = d.iter().find(|d| d["code"] == "E0210").expect("E0210");
    assert_eq!(d["codeDescription"]["href"], "pragmacuda:explain/E0210");
    let rel = &d["relatedInformation"][0];
    assert_eq!(rel["message"], "enclosing vector loop");
    let vector = line_of(&bad, "#pragma acc parallel loop vector");
    assert_eq!(rel["location"]["range"]["start"]["line"], json!(vector));
    c.stop();
}

/// The lens's command (`pragma2cuda.showLowered` with the URI and the
/// pragma's position) asks `pragma2cuda/lowered` for its own region; the
/// lenses follow an edit (they are kept per analysis, not per document).
#[test]
fn lens_command_opens_its_region_and_lenses_follow_edits() {
    let mut c = Client::start(Value::Null);
    let (uri, text) = c.open(GANG);
    c.diagnostics(&uri, 1);
    let lens = c.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let lens = lens.as_array().unwrap().clone();
    assert!(lens.len() > 1);
    for l in &lens {
        let cmd = &l["command"];
        assert_eq!(cmd["command"], "pragma2cuda.showLowered");
        let args = cmd["arguments"].as_array().unwrap();
        let low = c.request(
            "pragma2cuda/lowered",
            json!({"textDocument": {"uri": args[0]}, "position": args[1]}),
        );
        let title = cmd["title"].as_str().unwrap();
        let kernel = low["kernel"].as_str().unwrap();
        assert!(title.starts_with(&format!("CUDA: {kernel} - ")), "{title}");
        assert_eq!(low["range"]["start"], l["range"]["start"]);
        assert!(low["cuda"]
            .as_str()
            .unwrap()
            .contains(&format!("__global__ void {kernel}(")));
    }
    // An edit: the next lenses are of the new text.
    let renamed = text.replace("dev_sum_int(", "dev_total(");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": renamed}]}),
    );
    let again = c.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(
        again[0]["command"]["title"],
        "CUDA: dev_total_L42 - block-only, 1 reduction"
    );
    assert_eq!(again.as_array().unwrap().len(), lens.len());
    c.stop();
}

/// `preprocess` and `preprocessorFlags` from initializationOptions, then
/// changed by workspace/didChangeConfiguration: the diagnostics are those
/// of the preprocessed file, on the document's lines.
#[test]
fn preprocessor_options_choose_the_diagnostics() {
    let text = "int main(void)\n{\n    int a[4] = {0};\n#ifdef BAD\n#pragma omp target mapp(tofrom: a)\n#else\n#pragma omp target map(tofrom: a)\n#endif\n    a[0] = 1;\n    return a[0] - 1;\n}\n";
    let uri = "file:///tmp/p2c-lsp-preprocess.c";
    let open = |c: &mut Client| {
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "c", "version": 1, "text": text}}),
        )
    };
    let mut c = Client::start(json!({"preprocess": true, "preprocessorFlags": ["-DBAD"]}));
    open(&mut c);
    let d = c.diagnostics(uri, 1);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], "E0103");
    assert_eq!(d[0]["range"]["start"]["line"], json!(4));
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pragma2cuda": {"preprocessorFlags": []}}}),
    );
    assert_eq!(c.diagnostics(uri, 1), Vec::<Value>::new());
    c.stop();
    // Without the preprocessor both pragmas are read: the misspelt one is reported.
    let mut c = Client::start(Value::Null);
    open(&mut c);
    let d = c.diagnostics(uri, 1);
    assert!(d.iter().any(|d| d["code"] == "E0103"), "{d:?}");
    c.stop();
}
