//! What the C-to-C++ walk knows of the names seen so far: the type of each
//! variable and function in the enclosing scopes, the enum types and their
//! enumerators, and the members of each struct (for designated initializers).
//! Built during the one walk of `compat_edits`, in document order, so a name
//! is known from its declaration on (C declares before use).

use crate::sema::ctype::{CType, Deriv};
use std::collections::HashMap;

#[derive(Default)]
pub struct Scopes {
    /// Innermost last; the first is file scope.
    frames: Vec<HashMap<String, CType>>,
    /// Enum type spellings (`enum e`, a typedef name) to the enum's key.
    enum_types: HashMap<String, String>,
    /// Enumerator name to its enum's key.
    enumerators: HashMap<String, String>,
    /// Struct or union spellings (`struct s`, a typedef name) to its members.
    records: HashMap<String, Vec<(String, CType)>>,
    /// The parameter types of the functions declared so far.
    pub functions: HashMap<String, Vec<CType>>,
    /// `#define`d names seen so far.
    pub macros: std::collections::HashSet<String>,
    /// Whether a variable, member or parameter of an enum type was declared.
    pub enum_objects: bool,
}

impl Scopes {
    pub fn new() -> Self {
        Scopes {
            frames: vec![HashMap::new()],
            ..Default::default()
        }
    }

    pub fn push(&mut self) {
        self.frames.push(HashMap::new());
    }

    pub fn pop(&mut self) {
        if self.frames.len() > 1 {
            self.frames.pop();
        }
    }

    pub fn declare(&mut self, name: &str, ty: CType) {
        if self.enum_key(&ty).is_some() {
            self.enum_objects = true;
        }
        if let Some(f) = self.frames.last_mut() {
            f.insert(name.to_string(), ty);
        }
    }

    /// A function's name, at file scope.
    pub fn declare_global(&mut self, name: &str, ty: CType) {
        self.frames[0].insert(name.to_string(), ty);
    }

    pub fn lookup(&self, name: &str) -> Option<&CType> {
        self.frames.iter().rev().find_map(|f| f.get(name))
    }

    pub fn add_enum(&mut self, spelling: &str, key: &str) {
        self.enum_types
            .insert(spelling.to_string(), key.to_string());
    }

    pub fn add_enumerator(&mut self, name: &str, key: &str) {
        self.enumerators.insert(name.to_string(), key.to_string());
    }

    pub fn enumerator_of(&self, name: &str) -> Option<&str> {
        self.enumerators.get(name).map(String::as_str)
    }

    pub fn is_enumerator(&self, name: &str) -> bool {
        self.enumerators.contains_key(name)
    }

    /// The enum a scalar type names, through typedefs of it.
    pub fn enum_key(&self, ty: &CType) -> Option<&str> {
        if !ty.derivs.is_empty() {
            return None;
        }
        self.enum_types
            .get(&ty.unqualified_base())
            .map(String::as_str)
    }

    pub fn add_record(&mut self, spelling: &str, members: Vec<(String, CType)>) {
        self.records.insert(spelling.to_string(), members);
    }

    pub fn alias_record(&mut self, alias: &str, of: &str) {
        if let Some(m) = self.records.get(of).cloned() {
            self.records.insert(alias.to_string(), m);
        }
        if let Some(k) = self.enum_types.get(of).cloned() {
            self.enum_types.insert(alias.to_string(), k);
        }
    }

    /// The members of a struct or union type (not a pointer to one).
    pub fn members(&self, ty: &CType) -> Option<&[(String, CType)]> {
        if !ty.derivs.is_empty() {
            return None;
        }
        self.records.get(&ty.unqualified_base()).map(Vec::as_slice)
    }
}

/// `void *` (any qualifiers on `void`).
pub fn is_void_pointer(ty: &CType) -> bool {
    ty.unqualified_base() == "void" && matches!(ty.derivs.as_slice(), [Deriv::Pointer { .. }])
}

/// A pointer to an object type other than `void` (the targets a `void *`
/// needs a cast to in C++), not a pointer to a function.
pub fn is_object_pointer(ty: &CType) -> bool {
    matches!(ty.derivs.first(), Some(Deriv::Pointer { .. }))
        && !ty.derivs.iter().any(|d| matches!(d, Deriv::Function))
        && !is_void_pointer(ty)
        && !ty.base.contains('{')
}

/// The type a cast to `ty` names: the pointer's own qualifiers dropped.
pub fn cast_name(ty: &CType) -> String {
    let mut t = ty.clone();
    if let Some(Deriv::Pointer { quals }) = t.derivs.first_mut() {
        quals.clear();
    }
    t.type_name()
}
