//! Data constructs (`target data`, `enter/exit data`, `update`, OpenACC
//! `data` / `host_data` ...) and their items.

use super::c::Model;
use crate::source::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataKind {
    /// `target data`, `acc data`: map on entry, unmap after the statement.
    Region,
    /// `target enter data`, `acc enter data`.
    Enter,
    /// `target exit data`, `acc exit data`.
    Exit,
    /// `target update`, `acc update`.
    Update,
    /// `acc declare` in a function: mapped until the function returns.
    DeclareScope,
    /// `acc wait [(list)] [async(q)]`: the host, or queue q, waits for the
    /// queues (#21).
    Wait,
    /// `acc set default_async(n)` (its only clauses `default_async`, `if`).
    SetDefaultAsync,
    /// `acc init`, `acc shutdown`, `acc set`: runtime routine calls.
    Runtime,
}

impl DataKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DataKind::Region => "data region (map on entry, unmap after the statement)",
            DataKind::Enter => "enter data (dynamic references)",
            DataKind::Exit => "exit data (dynamic references)",
            DataKind::Update => "update (copies between present data and the host)",
            DataKind::DeclareScope => "declare (mapped until the function returns)",
            DataKind::Wait => "wait (for OpenACC queues: the host, or the `async` queue)",
            DataKind::SetDefaultAsync => {
                "set default_async (the queue async without argument names)"
            }
            DataKind::Runtime => "runtime routine calls in place of the pragma",
        }
    }
}

/// OpenACC `async` / `wait` of a construct: the queue it runs on and the
/// queues it waits for first (#21), as host expressions.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct AccQueue {
    /// `async(q)`: the queue (`acc_async_noval` for a bare `async`); `None`
    /// without `async` (the construct is synchronous).
    pub queue: Option<String>,
    /// `wait(list)`: the queues; `Some(empty)` for a bare `wait` (every
    /// queue); `None` without `wait`.
    pub waits: Option<Vec<String>>,
}

/// An OpenMP target task (#21): a target construct, `target enter/exit
/// data` or `target update` with `nowait` or `depend`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OmpTask {
    /// The `depend` items in order (`omp_all_memory` aside).
    pub deps: Vec<OmpDep>,
    /// `nowait` was written.
    pub nowait: bool,
    /// `depend(out / inout: omp_all_memory)`.
    pub all_memory: bool,
    /// Deferred: run on a stream of the target-task pool
    /// (`p2c_omp_task`, templates/p2c_runtime.cuh) after the events of the
    /// tasks it depends on (decided for the whole file,
    /// `lower::target_tasks`).
    pub deferred: bool,
    /// The file has deferred target tasks: an undeferred construct with
    /// `depend` waits on the host for the ones it depends on.
    pub table: bool,
    /// Why a `nowait` construct runs undeferred (for the plan).
    pub undeferred_why: Option<String>,
}

/// One `depend` list item of a target task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OmpDep {
    /// `out`, `inout`, `mutexinoutset`, `inoutset` (ordered as `inout`):
    /// true; `in`: false.
    pub writes: bool,
    /// The item as written.
    pub item: String,
    /// Its address, a host expression (`&(a)[lo]` for a section).
    pub addr: String,
}

/// The host range a list item names, as host expressions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RangeExpr {
    /// The whole variable (a scalar, or an array without a section).
    Object,
    /// `base[lo : len]` (rows of a multi-dimensional array included).
    Section { lo: String, len: String },
    /// `base[lo : len][lo2 : len2]`: whole rows on the device, only the
    /// named columns transferred.
    Section2 {
        lo: String,
        len: String,
        lo2: String,
        len2: String,
    },
    /// Nothing mapped: the item is a pointer (`attach(s.p)` / `detach(s.p)`
    /// of OpenACC), whose device copy is attached or detached.
    Pointer,
}

#[derive(Clone, Debug)]
pub struct DataItem {
    pub name: String,
    pub range: RangeExpr,
    /// The runtime kind: `P2C_MAP_TO`, `P2C_MAP_FROM | P2C_MAP_ALWAYS`, ...
    pub kind: String,
    /// `update`: to the device (true) or to the host.
    pub to_device: bool,
    /// `update`: absent data is skipped (OpenMP without `present`, acc
    /// `if_present`) rather than an error.
    pub absent_ok: bool,
    /// The clause name as written (for the plan).
    pub clause: String,
    pub span: Span,
    /// OpenACC pointer reference (`s.p[lo:n]`, OpenACC 3.3 2.7.2): `name`
    /// is the member pointer, attached to the device copy after the entry
    /// and detached before the exit (2.6.8). Always true for
    /// `RangeExpr::Pointer`.
    pub attach: bool,
}

/// A list item of `use_device_ptr` / `use_device_addr` (OpenMP `target
/// data`) or `use_device` (OpenACC `host_data`): in the statement the
/// construct covers, its name denotes the device copy. The host code
/// shadows it with a local holding the present-table lookup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UseDevice {
    pub name: String,
    /// The variable itself at its device address (`use_device_addr`, an
    /// array or scalar in `use_device`); otherwise a pointer whose value
    /// becomes the device address it corresponds to.
    pub addr: bool,
    /// Absent data keeps the host address (OpenMP; acc `if_present`);
    /// otherwise a runtime error.
    pub absent_ok: bool,
}

/// One data construct, decided.
#[derive(Clone, Debug)]
pub struct DataOp {
    pub kind: DataKind,
    pub model: Model,
    pub construct: String,
    pub pragma_text: String,
    pub pragma: Span,
    /// The statement a structured construct covers.
    pub stmt: Option<Span>,
    pub function: String,
    pub line: usize,
    pub items: Vec<DataItem>,
    pub if_cond: Option<String>,
    /// `device(n)`: checked at run time (0 maps, the host device number skips).
    pub device: Option<String>,
    /// OpenMP `depend`: the `_Pragma("omp taskwait depend(...)")` run
    /// before the construct (#21).
    pub task_wait: Option<String>,
    /// OpenMP `nowait` / `depend`: the target task (#21).
    pub omp_task: Option<OmpTask>,
    /// `acc set default_async(n)`: the queue expression (#21).
    pub default_async: Option<String>,
    /// OpenACC `async` / `wait` (and the list of `acc wait`) (#21).
    pub acc_queue: Option<AccQueue>,
    /// The reference count entries and exits change (`P2C_REF_...`).
    pub refs: &'static str,
    pub notes: Vec<String>,
    /// OpenACC `deviceptr` items: pointers holding device addresses in the
    /// code the construct covers (nothing is mapped).
    pub device_ptrs: Vec<String>,
    /// `Runtime`: the routine calls, in order, under `if_cond`; the emitter
    /// adds a last argument, the place (`file:line`) for runtime messages.
    pub calls: Vec<String>,
    /// `use_device_ptr` / `use_device_addr` / `use_device` items.
    pub use_device: Vec<UseDevice>,
}

impl DataOp {
    /// The variables this construct maps for the code it covers.
    pub fn mapped_names(&self) -> impl Iterator<Item = &str> {
        self.items
            .iter()
            .filter(|i| !i.attach)
            .map(|i| i.name.as_str())
    }
}
