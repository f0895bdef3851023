//! A code lens above every offload pragma; its command asks the client to
//! show the region's lowered code (`pragma2cuda.showLowered` with the
//! document URI and the pragma's position).

use super::text::Lines;
use crate::EditorSession;
use lsp_types::{CodeLens, Command, Url};

pub fn lenses(uri: &Url, text: &str, lines: &Lines, s: &EditorSession) -> Vec<CodeLens> {
    s.regions()
        .map(|r| {
            let range = lines.range(text, r.pragma.start, r.pragma.end);
            CodeLens {
                range,
                command: Some(Command {
                    title: super::hover::title(r),
                    command: super::SHOW_LOWERED.into(),
                    arguments: Some(vec![serde_json::json!(uri), serde_json::json!(range.start)]),
                }),
                data: None,
            }
        })
        .collect()
}
