//! The message loop: one thread, requests answered in order. An edit only
//! marks its document stale; the document is analysed again (and its
//! diagnostics published) once the client has been quiet for the
//! debounce time, or at once when a request needs it.

use super::config::Config;
use super::documents::{name_of, Documents};
use super::transport::{ok, Result, Transport};
use super::{diagnostics, hover, lowered, preprocess};
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::*;
use serde_json::{json, Value};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// Serves the protocol on stdin/stdout until the client exits; the exit status.
pub fn run_stdio() -> i32 {
    match serve(Transport::stdio()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("pragma2cuda lsp: {e}");
            1
        }
    }
}

struct Server {
    t: Transport,
    docs: Documents,
    config: Config,
}

/// An answer: a JSON value, or JSON text made (and kept) before.
enum Reply {
    Json(Value),
    Raw(String),
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        definition_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

fn serve(mut t: Transport) -> Result<()> {
    let caps = serde_json::to_value(capabilities())?;
    let Some(init) = t.initialize(caps)? else {
        return Ok(());
    };
    let mut s = Server {
        t,
        docs: Documents::default(),
        config: Config::default(),
    };
    if let Some(o) = init.get("initializationOptions") {
        let bad = s.config.update(o);
        s.warn(&bad)?;
    }
    s.run()
}

impl Server {
    fn run(&mut self) -> Result<()> {
        loop {
            let debounce = Duration::from_millis(self.config.debounce_ms);
            let (due, next) = self.docs.due(Instant::now(), debounce);
            for u in due {
                self.publish(&u)?;
            }
            let msg = match next {
                Some(t) => {
                    let wait = t.saturating_duration_since(Instant::now());
                    match self.t.receiver.recv_timeout(wait) {
                        Ok(m) => m,
                        Err(RecvTimeoutError::Timeout) => continue,
                        Err(RecvTimeoutError::Disconnected) => return Ok(()),
                    }
                }
                None => match self.t.receiver.recv() {
                    Ok(m) => m,
                    Err(_) => return Ok(()),
                },
            };
            match msg {
                Message::Request(r) => {
                    if self.t.shutdown(&r)? {
                        return Ok(());
                    }
                    let id = r.id.clone();
                    match self.request(r) {
                        Ok(Reply::Json(v)) => self.t.send(ok(id, v))?,
                        Ok(Reply::Raw(text)) => self.t.send_raw(&id, &text)?,
                        Err(e) => self.t.send(
                            Response::new_err(id, ErrorCode::InvalidParams as i32, e.to_string())
                                .into(),
                        )?,
                    }
                }
                Message::Notification(n) => {
                    if n.method == note::Exit::METHOD {
                        return Ok(());
                    }
                    self.notification(n)?;
                }
                Message::Response(_) => {}
            }
        }
    }

    fn send_note<N: note::Notification>(&mut self, params: N::Params) -> Result<()> {
        let n = Notification::new(N::METHOD.to_string(), params);
        self.t.send(n.into())?;
        Ok(())
    }

    fn warn(&mut self, problems: &[String]) -> Result<()> {
        for p in problems {
            self.send_note::<note::ShowMessage>(ShowMessageParams {
                typ: MessageType::WARNING,
                message: format!("pragma2cuda: setting ignored: {p}"),
            })?;
        }
        Ok(())
    }

    /// Analyses `uri` if stale and publishes its diagnostics.
    fn publish(&mut self, uri: &Url) -> Result<()> {
        let opts = self.config.options();
        let name = name_of(uri);
        let Some(doc) = self.docs.get_mut(uri) else {
            return Ok(());
        };
        let diags = if self.config.preprocess {
            doc.dirty_since = None;
            preprocess::diagnostics(&name, &doc.text, &self.config.cpp_flags, &opts)
        } else {
            doc.session(&name, &opts).diagnostics()
        };
        let items = diags
            .iter()
            .map(|d| diagnostics::to_lsp(uri, &doc.text, &doc.lines, d))
            .collect();
        let version = Some(doc.version);
        self.send_note::<note::PublishDiagnostics>(PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics: items,
            version,
        })
    }

    fn notification(&mut self, n: Notification) -> Result<()> {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                let p: DidOpenTextDocumentParams = serde_json::from_value(n.params)?;
                let d = p.text_document;
                self.docs.open(d.uri.clone(), d.version, d.text);
                self.publish(&d.uri)?;
            }
            note::DidChangeTextDocument::METHOD => {
                let p: DidChangeTextDocumentParams = serde_json::from_value(n.params)?;
                if let Some(doc) = self.docs.get_mut(&p.text_document.uri) {
                    doc.change(p.text_document.version, p.content_changes);
                }
            }
            note::DidCloseTextDocument::METHOD => {
                let p: DidCloseTextDocumentParams = serde_json::from_value(n.params)?;
                self.docs.close(&p.text_document.uri);
                self.send_note::<note::PublishDiagnostics>(PublishDiagnosticsParams {
                    uri: p.text_document.uri,
                    diagnostics: Vec::new(),
                    version: None,
                })?;
            }
            note::DidChangeConfiguration::METHOD => {
                let p: DidChangeConfigurationParams = serde_json::from_value(n.params)?;
                let before = self.config.clone();
                let bad = self.config.update(&p.settings);
                self.warn(&bad)?;
                if self.config != before {
                    self.reanalyse_all()?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The options changed: every document is analysed again.
    fn reanalyse_all(&mut self) -> Result<()> {
        let mut uris = Vec::new();
        for (u, d) in self.docs.iter_mut() {
            d.invalidate();
            uris.push(u.clone());
        }
        for u in uris {
            self.publish(&u)?;
        }
        Ok(())
    }

    fn request(&mut self, r: Request) -> Result<Reply> {
        if r.method != req::CodeLensRequest::METHOD {
            return self.answer(r).map(Reply::Json);
        }
        let p: CodeLensParams = serde_json::from_value(r.params)?;
        let uri = p.text_document.uri;
        let (opts, name) = (self.config.options(), name_of(&uri));
        if self.docs.get_mut(&uri).is_some_and(|d| !d.is_analysed()) {
            self.publish(&uri)?;
        }
        let Some(doc) = self.docs.get_mut(&uri) else {
            return Err(format!("{uri} is not open").into());
        };
        Ok(Reply::Raw(doc.lenses(&name, &opts, &uri).to_string()))
    }

    fn answer(&mut self, r: Request) -> Result<Value> {
        let uri = r
            .params
            .get("textDocument")
            .and_then(|t| t.get("uri"))
            .and_then(Value::as_str)
            .and_then(|u| Url::parse(u).ok())
            .map(|u| lowered::source_uri(&u));
        // A request on a document with edits waiting: analyse and publish first.
        if let Some(u) = &uri {
            if self.docs.get_mut(u).is_some_and(|d| !d.is_analysed()) {
                self.publish(u)?;
            }
        }
        if r.method == super::EXPLAIN {
            let code = r.params.get("code").and_then(Value::as_str).unwrap_or("");
            return Ok(json!(diagnostics::explain(code)));
        }
        let Some(uri) = uri else {
            return Err(format!("{}: no textDocument.uri", r.method).into());
        };
        let opts = self.config.options();
        let name = name_of(&uri);
        let Some(doc) = self.docs.get_mut(&uri) else {
            return Err(format!("{uri} is not open").into());
        };
        let pos = r
            .params
            .get("position")
            .cloned()
            .map(serde_json::from_value::<Position>);
        let pos = pos.transpose()?;
        match (r.method.as_str(), pos) {
            (req::HoverRequest::METHOD, Some(pos)) => {
                let at = doc.lines.offset(&doc.text, pos);
                let Some(d) = doc.session(&name, &opts).details(at) else {
                    return Ok(Value::Null);
                };
                let range =
                    doc.lines
                        .range(&doc.text, d.summary.pragma.start, d.summary.pragma.end);
                Ok(serde_json::to_value(Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: hover::markdown(&d),
                    }),
                    range: Some(range),
                })?)
            }
            (req::CodeActionRequest::METHOD, _) => {
                let p: CodeActionParams = serde_json::from_value(r.params)?;
                let (s, text, lines) = doc.parts(&name, &opts);
                let diags: Vec<Diagnostic> = s
                    .diagnostics()
                    .iter()
                    .map(|d| diagnostics::to_lsp(&uri, text, lines, d))
                    .collect();
                Ok(serde_json::to_value(diagnostics::quick_fixes(
                    &uri, &diags, p.range,
                ))?)
            }
            (req::GotoDefinition::METHOD, Some(pos)) => Ok(serde_json::to_value(
                lowered::definition(doc, &name, &opts, &uri, pos),
            )?),
            (super::LOWERED, Some(pos)) => Ok(lowered::lowered(doc, &name, &opts, pos)),
            (super::TRANSLATED, _) => Ok(lowered::translated(doc, &name, &opts, &uri)),
            (m, _) => Err(format!("unsupported request {m}").into()),
        }
    }
}
