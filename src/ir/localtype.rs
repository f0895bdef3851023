//! Local struct types a kernel names through a file-scope copy.

/// A variable whose type the kernel names through a hoisted definition.
#[derive(Clone, Debug)]
pub struct Hoisted {
    pub var: String,
    /// `struct p2c_local_main_L9_pair`.
    pub ty_name: String,
    /// The file-scope definition, ending with `;` and a newline.
    pub def: String,
}
