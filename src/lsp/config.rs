//! The translation options a client sets: `initializationOptions`, or the
//! settings of `workspace/didChangeConfiguration` (either flat or under a
//! `pragma2cuda` key):
//!
//! ```json
//! { "reductionStrategy": "tree" | "lock" | "atomic",
//!   "sharedBudget": 32768,
//!   "preprocess": false,
//!   "preprocessorFlags": ["-Iinclude", "-DN=64"],
//!   "debounceMs": 200 }
//! ```

use crate::ir::reduction::Strategy;
use crate::Options;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub reduction_strategy: Strategy,
    pub shared_budget: u64,
    /// Run the C preprocessor for the diagnostics (`--preprocess`).
    pub preprocess: bool,
    /// `-IDIR`, `-DNAME=VAL`, `-UNAME`, in order.
    pub cpp_flags: Vec<String>,
    /// Quiet time after an edit before the file is analysed again.
    pub debounce_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        let o = Options::default();
        Config {
            reduction_strategy: o.reduction_strategy,
            shared_budget: o.shared_budget,
            preprocess: false,
            cpp_flags: Vec::new(),
            debounce_ms: 200,
        }
    }
}

impl Config {
    /// Applies the keys present in `v`; returns the problems of the others
    /// (a bad value keeps the previous setting).
    pub fn update(&mut self, v: &Value) -> Vec<String> {
        let v = v.get("pragma2cuda").unwrap_or(v);
        let mut bad = Vec::new();
        if let Some(s) = v.get("reductionStrategy").filter(|s| !s.is_null()) {
            match s.as_str().and_then(Strategy::parse) {
                Some(s) => self.reduction_strategy = s,
                None => bad.push(format!(
                    "reductionStrategy {s}: expected tree, lock or atomic"
                )),
            }
        }
        if let Some(b) = v.get("sharedBudget").filter(|s| !s.is_null()) {
            match b.as_u64() {
                Some(b) => self.shared_budget = b,
                None => bad.push(format!("sharedBudget {b}: expected a number of bytes")),
            }
        }
        if let Some(p) = v.get("preprocess").and_then(Value::as_bool) {
            self.preprocess = p;
        }
        if let Some(f) = v.get("preprocessorFlags").and_then(Value::as_array) {
            self.cpp_flags = f
                .iter()
                .filter_map(|f| f.as_str().map(String::from))
                .collect();
        }
        if let Some(d) = v.get("debounceMs").and_then(Value::as_u64) {
            self.debounce_ms = d.min(10_000);
        }
        bad
    }

    pub fn options(&self) -> Options {
        Options {
            reduction_strategy: self.reduction_strategy,
            shared_budget: self.shared_budget,
            // The editor's views of the CUDA are read, not compiled.
            line_directives: false,
            ..Options::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_flat_or_nested_and_bad_values_kept() {
        let mut c = Config::default();
        assert!(c
            .update(&serde_json::json!({"pragma2cuda": {"reductionStrategy": "lock", "sharedBudget": 100}}))
            .is_empty());
        assert_eq!(c.reduction_strategy, Strategy::Lock);
        assert_eq!(c.shared_budget, 100);
        let bad = c.update(&serde_json::json!({"reductionStrategy": "fast", "preprocess": true}));
        assert_eq!(bad.len(), 1);
        assert_eq!(c.reduction_strategy, Strategy::Lock);
        assert!(c.preprocess);
    }
}
