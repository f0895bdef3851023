//! Running the pipeline on a thread with a known, large stack. The stages
//! walk the C tree recursively; the nesting limits (`source::nesting`,
//! `front::depth`) bound the depth, and this stack fits the walks at those
//! limits whatever thread calls the library (test threads get 2 MiB). The
//! stack is address space, committed only as deep as the walks go.

use std::sync::Mutex;

/// The stack of the translation thread.
pub const STACK_BYTES: usize = 1 << 30;

/// Runs `f` on a thread with [`STACK_BYTES`] of stack and returns its
/// result; on the calling thread when no such thread can be made. A panic
/// in `f` continues on the caller.
pub fn run<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let job = Mutex::new(Some(f));
    let take = || job.lock().ok().and_then(|mut j| j.take());
    let on_thread = std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .name("p2c-translate".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, || take().map(|f| f()))
            .ok()?;
        Some(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    });
    match on_thread.flatten() {
        Some(r) => r,
        None => (take().expect("the job runs once"))(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_and_returns() {
        let v = [1, 2, 3];
        assert_eq!(super::run(|| v.iter().sum::<i32>()), 6);
    }
}
