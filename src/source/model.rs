//! The two pragma families a line of source can belong to (the directive
//! parser and the pragma scanner of this stage share it).

use serde::Serialize;

/// Which offload model a directive belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    Omp,
    Acc,
}

impl Model {
    pub fn as_str(self) -> &'static str {
        match self {
            Model::Omp => "omp",
            Model::Acc => "acc",
        }
    }
}
