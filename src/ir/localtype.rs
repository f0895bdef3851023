//! Local struct types a kernel names through a file-scope copy.

/// A variable whose type the kernel names through a hoisted definition.
#[derive(Clone, Debug)]
pub struct Hoisted {
    pub var: String,
    /// `struct p2c_local_main_L9_pair`.
    pub ty_name: String,
    /// The type as the function spells it (`struct pair`): the host code of
    /// the region (an `if` clause's fallback) is in its scope.
    pub host_ty: String,
    /// The file-scope definition, ending with `;` and a newline.
    pub def: String,
    /// The namespace the kernel opens (`using namespace`) for a hoisted
    /// enum's constants; `None` for struct and union types.
    pub scope: Option<String>,
}
