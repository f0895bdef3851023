//! Data-sharing attributes as semantic analysis decides them
//! (`sema::sharing::decide`): map kinds and modifiers, reduction operators,
//! and each variable's attribute with the rule that gave it.

use super::{Arith, Section, Symbol};
use crate::source::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKind {
    Alloc,
    To,
    From,
    ToFrom,
    Present,
    /// OpenMP's implicit zero-length section of a pointer (5.2, 5.8.6):
    /// the device address of the mapped block that contains its value, or
    /// its host value when none does. No transfer, no reference count.
    Attach,
}

impl MapKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MapKind::Alloc => "alloc",
            MapKind::To => "to",
            MapKind::From => "from",
            MapKind::ToFrom => "tofrom",
            MapKind::Present => "present",
            MapKind::Attach => "attach",
        }
    }

    pub fn runtime_name(self) -> &'static str {
        match self {
            MapKind::Alloc => "P2C_MAP_ALLOC",
            MapKind::To => "P2C_MAP_TO",
            MapKind::From => "P2C_MAP_FROM",
            MapKind::ToFrom => "P2C_MAP_TOFROM",
            MapKind::Present => "P2C_MAP_PRESENT",
            MapKind::Attach => "P2C_MAP_ATTACH",
        }
    }
}

/// A reduction operator of OpenMP 5.2 / OpenACC 3.3 (`-` combines like `+`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedOp {
    Add,
    Sub,
    Mul,
    Max,
    Min,
    BitAnd,
    BitOr,
    BitXor,
    LogAnd,
    LogOr,
}

impl RedOp {
    pub fn as_str(self) -> &'static str {
        match self {
            RedOp::Add => "+",
            RedOp::Sub => "-",
            RedOp::Mul => "*",
            RedOp::Max => "max",
            RedOp::Min => "min",
            RedOp::BitAnd => "&",
            RedOp::BitOr => "|",
            RedOp::BitXor => "^",
            RedOp::LogAnd => "&&",
            RedOp::LogOr => "||",
        }
    }

    /// The functor in the device prelude (identity and combine).
    pub fn functor(self) -> &'static str {
        match self {
            RedOp::Add | RedOp::Sub => "p2c_op_add",
            RedOp::Mul => "p2c_op_mul",
            RedOp::Max => "p2c_op_max",
            RedOp::Min => "p2c_op_min",
            RedOp::BitAnd => "p2c_op_and",
            RedOp::BitOr => "p2c_op_or",
            RedOp::BitXor => "p2c_op_xor",
            RedOp::LogAnd => "p2c_op_land",
            RedOp::LogOr => "p2c_op_lor",
        }
    }

    /// The identity value, as the reduction form prints it (`init_val(OP)`).
    pub fn identity_text(self, a: Arith) -> &'static str {
        match self {
            RedOp::Add | RedOp::Sub | RedOp::BitOr | RedOp::BitXor | RedOp::LogOr => "0",
            RedOp::Mul if a.is_complex() => "1 + 0i",
            RedOp::Mul | RedOp::LogAnd => "1",
            RedOp::BitAnd => "~0",
            RedOp::Max if a.is_floating() => "-inf",
            RedOp::Min if a.is_floating() => "+inf",
            RedOp::Max => "the type's least value",
            RedOp::Min => "the type's greatest value",
        }
    }

    /// Whether the operator is defined for a value of type `a` (bitwise
    /// operators need an integer; nothing reduces `long double` on the device).
    pub fn allowed(self, a: Arith) -> bool {
        match (self, a) {
            (_, Arith::LongDouble) => false,
            (RedOp::Add | RedOp::Sub | RedOp::Mul, a) if a.is_complex() => true,
            (_, a) if a.is_complex() => false,
            (RedOp::BitAnd | RedOp::BitOr | RedOp::BitXor, a) => a.is_integer(),
            _ => true,
        }
    }

    /// A native CUDA atomic (sm_70 and later) combines a value of type `a`
    /// into memory with this operator: add on 32/64-bit integers, float and
    /// double; min, max, and, or, xor on 32/64-bit integers.
    pub fn has_atomic(self, a: Arith) -> bool {
        let wide_int = matches!(a, Arith::Int { bytes: 4 | 8, .. });
        match self {
            // A complex `+` is one atomic add per part; a complex `*` has none.
            RedOp::Add | RedOp::Sub => {
                wide_int
                    || matches!(
                        a,
                        Arith::Float | Arith::Double | Arith::ComplexFloat | Arith::ComplexDouble
                    )
            }
            RedOp::Max | RedOp::Min | RedOp::BitAnd | RedOp::BitOr | RedOp::BitXor => wide_int,
            RedOp::Mul | RedOp::LogAnd | RedOp::LogOr => false,
        }
    }

    /// The prelude's atomic for this operator (when [`RedOp::has_atomic`]).
    pub fn atomic_fn(self) -> &'static str {
        match self {
            RedOp::Add | RedOp::Sub => "p2c_atomic_add",
            RedOp::Max => "p2c_atomic_max",
            RedOp::Min => "p2c_atomic_min",
            RedOp::BitAnd => "p2c_atomic_and",
            RedOp::BitOr => "p2c_atomic_or",
            RedOp::BitXor => "p2c_atomic_xor",
            RedOp::Mul | RedOp::LogAnd | RedOp::LogOr => "p2c_no_atomic",
        }
    }
}

/// The map-type modifiers a region's map honours at run time: OpenMP 5.2's
/// `always` / `present` (5.8.3; `close` is a hint) and OpenACC 3.3's `zero`
/// on `create` / `copyout` (2.7.7, 2.7.9; `readonly` is a hint).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapMods {
    /// `always`: `to` / `from` transfer even when the data is (or stays) present.
    pub always: bool,
    /// `present`: a runtime error when the data is not present already.
    pub present: bool,
    /// OpenACC `zero`: a device copy the entry allocates is zero-filled.
    pub zero: bool,
    /// Not a modifier: the item is an OpenMP pointer with no array section,
    /// which maps the pointer variable itself (5.2 5.8.3), one object like a
    /// scalar: its device copy holds the pointer's value, never translated.
    pub itself: bool,
    /// Not a modifier: the item is in OpenMP `has_device_addr` (5.2
    /// 5.4.9): its address is already a device address (inside
    /// `use_device_addr`); nothing is mapped, the kernel gets that address.
    pub device_addr: bool,
}

impl MapMods {
    pub fn is_none(self) -> bool {
        self == MapMods::default()
    }

    /// The prelude's flags for these modifiers, each as ` | FLAG`.
    pub fn runtime_flags(self) -> String {
        let mut f = String::new();
        if self.always {
            f.push_str(" | P2C_MAP_ALWAYS");
        }
        if self.present {
            f.push_str(" | P2C_MAP_MUST_BE_PRESENT");
        }
        if self.zero {
            f.push_str(" | P2C_MAP_ZERO");
        }
        f
    }
}

/// The data-sharing attribute of a variable in a region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attr {
    /// Each thread has its own uninitialised copy.
    Private,
    /// Each thread has its own copy initialised from the host value (passed by value).
    Firstprivate,
    /// Lives in device memory: a mapped array section or a mapped scalar.
    Mapped {
        kind: MapKind,
        sections: Vec<Section>,
        /// The OpenMP map-type modifiers honoured at run time.
        mods: MapMods,
    },
    /// Reduced into the variable's device copy; `arith` is its scalar type;
    /// `map` how that copy is mapped: `ToFrom` (the combined construct's
    /// implicit map of a reduction item), or the map-type of a map clause
    /// of the same construct that names the whole scalar (OpenMP 5.2
    /// combined target constructs: the reduction's original list item is
    /// the device copy that map creates or finds; see [`decide`]).
    Reduction {
        op: RedOp,
        arith: Arith,
        map: MapKind,
    },
    /// A one-dimensional array or array section reduced element by element
    /// (OpenMP 5.2 5.5.8: the private copy is an array of the section's
    /// length initialised with the identity); `arith` is the element type,
    /// `sections` the section as written (empty: the whole array).
    ArrayReduction {
        op: RedOp,
        arith: Arith,
        sections: Vec<Section>,
    },
    /// Each thread has its own copy; the value of the sequentially last
    /// iteration (`conditional`: the last iteration that assigned it) is
    /// written back to the variable.
    Lastprivate { conditional: bool },
    /// An array or array section privatized with its elements: each team
    /// (a compute construct with a structured block) or each thread (a loop
    /// construct) gets its own copy in global memory (`lower/privarray.rs`);
    /// `first`: initialised from the original. `sections` as written (empty:
    /// the whole array). A whole array's `private` stays [`Attr::Private`]
    /// (an automatic array of each thread, or staged in the team's frame).
    ArrayPrivate { first: bool, sections: Vec<Section> },
}

/// A variable of a region, its attribute, and the rule that decided it.
#[derive(Clone, Debug)]
pub struct VarAttr {
    pub sym: Symbol,
    pub attr: Attr,
    pub rule: &'static str,
    /// The clause item, or the first use when implicit.
    pub span: Span,
}

/// The rule of every attribute that a clause gave.
pub const EXPLICIT: &str = "explicit clause";

/// The rule of an array parameter (`double a[N][M]`, a pointer) named
/// whole in an OpenACC data clause: the data is the array its declaration
/// gives, the section `[0:N]` (OpenACC 3.3 2.7.1, `sema::param_extent`).
pub const ARRAY_PARAM_WHOLE: &str =
    "explicit clause naming an array parameter whole (the data is the array its declared outer bound gives, [0:N])";

/// The rule of a pointer in `is_device_ptr` (OpenMP 5.2 5.4.7) or
/// `deviceptr` (OpenACC 3.3 2.7.4), on the construct or (`deviceptr`) on an
/// enclosing `acc data`: its value is already a device address, copied into
/// the region as a firstprivate pointer; nothing is mapped.
pub const DEVICE_PTR: &str =
    "explicit clause is_device_ptr / deviceptr (the pointer's value, a device address, is copied in; nothing is mapped)";

/// The rule of an OpenMP pointer used in a region with no clause and no
/// enclosing data construct naming it (5.2, 5.8.9: a zero-length array
/// section; 5.8.6: attached to the block containing its value, else it
/// keeps its host value).
pub const POINTER_ATTACH: &str = "pointer with no extent (zero-length section: the device address of the mapped block containing its value, else its host value)";

/// The rule of a pointer listed in `deviceptr` of an enclosing `acc data`.
pub const ENCLOSING_DEVICE_PTR: &str =
    "pointer in deviceptr of an enclosing data construct (the pointer's value, a device address, is copied in; nothing is mapped)";

/// The rule of a loop iteration variable (OpenMP 5.2 5.1.1, OpenACC 3.3
/// 2.6.1): of the construct's associated loops, or (generic mode) a
/// variable the region names only as the iteration variable of nested
/// loop constructs.
pub const LOOP_VAR: &str = "loop iteration variable (predetermined private)";

/// The rule of an OpenMP pointer named with no array section in a map
/// clause (5.2 5.8.3): the pointer variable itself is mapped.
pub const POINTER_ITSELF: &str = "explicit clause naming a pointer with no array section (the pointer variable itself is mapped: its device copy holds the pointer's value, which the region may assign, not the data it points to)";

/// The rule of a variable in OpenMP `has_device_addr` (5.2 5.4.9).
pub const HAS_DEVICE_ADDR: &str = "explicit clause has_device_addr (the variable's address is a device address, as use_device_addr gives it; nothing is mapped)";

impl VarAttr {
    /// Decided by an implicit rule, not by a clause of the construct.
    pub fn is_implicit(&self) -> bool {
        self.rule != EXPLICIT
            && self.rule != DEVICE_PTR
            && self.rule != ARRAY_PARAM_WHOLE
            && self.rule != POINTER_ITSELF
            && self.rule != HAS_DEVICE_ADDR
    }

    /// Mapped as one object that the kernel binds by reference: a scalar,
    /// or a pointer mapped itself ([`MapMods::itself`]).
    pub fn maps_one_object(&self) -> bool {
        match &self.attr {
            Attr::Mapped { mods, .. } => self.sym.ty.is_scalar() || mods.itself,
            _ => false,
        }
    }
}
