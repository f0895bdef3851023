//! `pragma2cuda lsp`: a language server over stdio (issue 19). The only
//! module that knows the Language Server Protocol; it sits on the
//! library's editor API ([`crate::EditorSession`]).
//!
//! - `server`: the message loop, with debounced re-analysis after edits.
//! - `transport`: framed messages over stdio (lsp-server's `Message`), and
//!   answers already serialised (the code lenses, kept per analysis).
//! - `documents`: open files, their text and session.
//! - `text`: LSP positions (UTF-16) to byte offsets and back.
//! - `diagnostics`: publishDiagnostics and quick fixes.
//! - `hover`, `lens`: what an offload pragma shows.
//! - `lowered`: `pragma2cuda/lowered`, `pragma2cuda/translated`, go-to kernel.
//! - `config`: the translation options from the client; `preprocess`:
//!   diagnostics through the C preprocessor when asked.

mod config;
mod diagnostics;
mod documents;
mod hover;
mod lens;
mod lowered;
mod preprocess;
mod server;
mod text;
mod transport;

pub use server::run_stdio;

/// The request for the lowered code of the region at a position.
pub const LOWERED: &str = "pragma2cuda/lowered";
/// The request for the whole translated file (the virtual document).
pub const TRANSLATED: &str = "pragma2cuda/translated";
/// The request for the documentation of a diagnostic code.
pub const EXPLAIN: &str = "pragma2cuda/explain";
/// The client command a code lens runs: show the lowered region.
pub const SHOW_LOWERED: &str = "pragma2cuda.showLowered";
/// The URI scheme of the virtual documents (translated files, explanations).
/// Letters only: Neovim takes `NAME://` for a URL only when NAME is letters.
pub const SCHEME: &str = "pragmacuda";
