//! The open documents: text, version, and the analysed session, rebuilt
//! after edits once the client has been quiet for the debounce time.

use super::text::Lines;
use crate::source::SourceFile;
use crate::{EditorSession, Options, Translation};
use lsp_types::{TextDocumentContentChangeEvent, Url};
use std::collections::HashMap;
use std::time::Instant;

pub struct Document {
    pub version: i32,
    pub text: String,
    pub lines: Lines,
    /// The analysis of `text`; `None` while edits wait for the debounce.
    session: Option<EditorSession>,
    /// The whole translation (the virtual document), made when asked.
    translation: Option<Translation>,
    /// The code lenses as JSON text, made when asked.
    lenses: Option<String>,
    /// When the first edit not yet analysed came.
    pub dirty_since: Option<Instant>,
}

impl Document {
    fn new(version: i32, text: String) -> Self {
        Document {
            version,
            lines: Lines::new(&text),
            text,
            session: None,
            translation: None,
            lenses: None,
            dirty_since: None,
        }
    }

    /// Applies the client's changes (ranged or whole-text) in order.
    pub fn change(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) {
        for c in changes {
            match c.range {
                Some(r) => {
                    let s = self.lines.offset(&self.text, r.start);
                    let e = self.lines.offset(&self.text, r.end).max(s);
                    self.text.replace_range(s..e, &c.text);
                }
                None => self.text = c.text,
            }
            self.lines = Lines::new(&self.text);
        }
        self.version = version;
        self.invalidate();
        self.dirty_since.get_or_insert_with(Instant::now);
    }

    /// Drops the analysis (the options changed).
    pub fn invalidate(&mut self) {
        self.session = None;
        self.translation = None;
        self.lenses = None;
    }

    pub fn is_analysed(&self) -> bool {
        self.session.is_some()
    }

    /// The session, analysing the text first if an edit left it stale.
    pub fn session(&mut self, name: &str, opts: &Options) -> &EditorSession {
        self.parts(name, opts).0
    }

    /// The session with the text and lines it was made from.
    pub fn parts(&mut self, name: &str, opts: &Options) -> (&EditorSession, &str, &Lines) {
        self.dirty_since = None;
        let text = &self.text;
        let s = self.session.get_or_insert_with(|| {
            EditorSession::with_options(SourceFile::new(name, text.clone()), opts)
        });
        (s, &self.text, &self.lines)
    }

    /// The code lenses of the document (at `uri`) as JSON text, made once
    /// per analysis.
    pub fn lenses(&mut self, name: &str, opts: &Options, uri: &Url) -> &str {
        if self.lenses.is_none() {
            let (s, text, lines) = self.parts(name, opts);
            self.lenses = Some(super::lens::lenses_json(uri, text, lines, s));
        }
        self.lenses.as_deref().unwrap_or("[]")
    }

    /// The whole translation with the session's options.
    pub fn translation(&mut self, name: &str, opts: &Options) -> &Translation {
        let t = match self.translation.take() {
            Some(t) => t,
            None => self.session(name, opts).translation(),
        };
        self.translation.insert(t)
    }
}

/// Every open document by URI.
#[derive(Default)]
pub struct Documents {
    docs: HashMap<Url, Document>,
}

impl Documents {
    pub fn open(&mut self, uri: Url, version: i32, text: String) {
        self.docs.insert(uri, Document::new(version, text));
    }

    pub fn close(&mut self, uri: &Url) {
        self.docs.remove(uri);
    }

    pub fn get_mut(&mut self, uri: &Url) -> Option<&mut Document> {
        self.docs.get_mut(uri)
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&Url, &mut Document)> {
        self.docs.iter_mut()
    }

    /// The URIs whose edits have waited `debounce` or more at `now`, and the
    /// earliest time another one will have.
    pub fn due(&self, now: Instant, debounce: std::time::Duration) -> (Vec<Url>, Option<Instant>) {
        let mut due = Vec::new();
        let mut next: Option<Instant> = None;
        for (u, d) in &self.docs {
            if let Some(t) = d.dirty_since {
                if now >= t + debounce {
                    due.push(u.clone());
                } else {
                    next = Some(next.map_or(t + debounce, |n| n.min(t + debounce)));
                }
            }
        }
        (due, next)
    }
}

/// The name a document's messages and views give it: its path, else its URI.
pub fn name_of(uri: &Url) -> String {
    uri.to_file_path()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| uri.to_string())
}
