//! Running a program under limits, its outputs captured whole.
//!
//! * Standard output and error go to unnamed temporary files, never pipes: a
//!   descendant that keeps a stream open cannot stall the run, and the
//!   comparison reads both files whole ([`super::compare`]). Only the first
//!   [`HEAD_LIMIT`] bytes of each are kept in memory, for messages. A stream
//!   beyond [`OUTPUT_LIMIT`] stops the program with SIGXFSZ (reported, never
//!   cut silently).
//! * The program runs in its own process group and with a tag in its
//!   environment: on a time-out, and after it ends, the group and every
//!   process carrying the tag (descendants that called `setsid` included)
//!   are killed.
//! * A time limit is wall-clock, or CPU time with a wall-clock backstop
//!   ([`Limits::cpu`]): a loaded machine slows a program's wall clock but
//!   not the CPU time it needs.

use std::fs::File;
use std::io::{Read, Seek};
use std::os::unix::fs::FileExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bytes of each stream kept in memory for messages (the comparison reads
/// the whole stream from its file).
pub const HEAD_LIMIT: usize = 1 << 20;

/// A stream larger than this stops the program (RLIMIT_FSIZE: SIGXFSZ).
pub const OUTPUT_LIMIT: u64 = 1 << 30;

/// One captured stream: its length and the file holding all of it.
#[derive(Clone, Debug, Default)]
pub struct Whole {
    pub len: u64,
    file: Option<Arc<File>>,
}

impl Whole {
    /// A reader over the whole stream; `head` when nothing was captured to a
    /// file (outputs built in tests).
    pub fn reader<'a>(&'a self, head: &'a [u8]) -> Box<dyn Read + 'a> {
        match &self.file {
            Some(f) => Box::new(AtReader {
                file: f.clone(),
                pos: 0,
            }),
            None => Box::new(head),
        }
    }

    /// The length: the file's, else the head's.
    pub fn length(&self, head: &[u8]) -> u64 {
        if self.file.is_some() {
            self.len
        } else {
            head.len() as u64
        }
    }
}

/// Reads a file from its own position (the file's offset is shared by clones).
struct AtReader {
    file: Arc<File>,
    pos: u64,
}

impl Read for AtReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read_at(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

/// What a program did.
#[derive(Clone, Debug, Default)]
pub struct RunOutput {
    /// The exit code; `None` when killed by a signal or on timeout.
    pub code: Option<i32>,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
    /// It ran past its limit (wall clock, or CPU time with [`Limits::cpu`]).
    pub timed_out: bool,
    /// The limit it ran past was CPU time.
    pub cpu_timed_out: bool,
    /// The first [`HEAD_LIMIT`] bytes of standard output.
    pub stdout: Vec<u8>,
    /// The first [`HEAD_LIMIT`] bytes of standard error.
    pub stderr: Vec<u8>,
    pub stdout_whole: Whole,
    pub stderr_whole: Whole,
    pub duration: Duration,
    /// User and system CPU time of the program (its threads and waited-for children).
    pub cpu: Duration,
}

impl RunOutput {
    pub fn success(&self) -> bool {
        self.code == Some(0) && !self.timed_out
    }

    /// Ended by a signal or a time limit: no status to compare.
    pub fn abnormal(&self) -> bool {
        self.timed_out || self.code.is_none()
    }

    /// "exit code 3", "killed by signal 11", "timed out after 60 s".
    pub fn status_text(&self, limit: Duration) -> String {
        if self.cpu_timed_out {
            format!("used more than {} s of CPU time", limit.as_secs())
        } else if self.timed_out {
            format!("timed out after {} s", limit.as_secs())
        } else if let Some(c) = self.code {
            format!("exit code {c}")
        } else if let Some(s) = self.signal {
            format!("killed by signal {s}{}", signal_note(s))
        } else {
            "ended without a status".to_string()
        }
    }

    /// Stdout and stderr together (their heads), lossily decoded, for logs.
    pub fn text(&self) -> String {
        let mut s = String::from_utf8_lossy(&self.stdout).into_owned();
        if !s.is_empty() && !s.ends_with('\n') {
            s.push('\n');
        }
        s.push_str(&String::from_utf8_lossy(&self.stderr));
        s
    }
}

fn signal_note(s: i32) -> String {
    match s {
        libc::SIGABRT => " (SIGABRT: abort)".into(),
        libc::SIGSEGV => " (SIGSEGV)".into(),
        libc::SIGXFSZ => format!(" (SIGXFSZ: an output passed {} MiB)", OUTPUT_LIMIT >> 20),
        libc::SIGKILL => " (SIGKILL)".into(),
        _ => String::new(),
    }
}

/// How long a program may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock limit (the backstop when `cpu` is set).
    pub wall: Duration,
    /// CPU-time limit (RLIMIT_CPU, all threads together).
    pub cpu: Option<Duration>,
}

impl Limits {
    pub fn wall(wall: Duration) -> Limits {
        Limits { wall, cpu: None }
    }

    /// The limit named in messages: the CPU limit when there is one.
    pub fn shown(&self) -> Duration {
        self.cpu.unwrap_or(self.wall)
    }
}

/// `cmd.spawn()`, tried again a few times when it fails with "not found"
/// although the program is an existing file: on the shared development
/// machine, under heavy load, spawns of existing compilers have failed that
/// way for a few seconds at a time (sessions 2 and 3, cause not found).
pub fn spawn_retrying(cmd: &mut Command) -> std::io::Result<std::process::Child> {
    let mut tries: u64 = 0;
    loop {
        match cmd.spawn() {
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    && tries < 6
                    && Path::new(cmd.get_program()).is_file() =>
            {
                tries += 1;
                std::thread::sleep(Duration::from_millis(250 * tries));
            }
            r => return r,
        }
    }
}

/// Runs `cmd` with stdin closed and both outputs captured; kills it (and
/// everything it started) when it runs past `limit` of wall-clock time.
pub fn run_limited(cmd: &mut Command, limit: Duration) -> std::io::Result<RunOutput> {
    run_with(cmd, Limits::wall(limit))
}

/// The environment variable that tags a run's processes.
const TAG_VAR: &str = "P2C_RUN_TAG";

fn next_tag() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}.{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// [`run_limited`] with a CPU-time limit besides the wall clock.
pub fn run_with(cmd: &mut Command, limits: Limits) -> std::io::Result<RunOutput> {
    let start = Instant::now();
    let out = tempfile::tempfile()?;
    let err = tempfile::tempfile()?;
    let tag = next_tag();
    let cpu = limits.cpu.map(|c| c.as_secs().max(1));
    cmd.stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(err.try_clone()?)
        .env(TAG_VAR, &tag)
        .process_group(0);
    // SAFETY: only async-signal-safe calls (prctl, setrlimit) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            // In its own group the program no longer gets the terminal's SIGINT: it dies
            // with the thread that started it (which waits for it, so never before).
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            set_limit(libc::RLIMIT_FSIZE, OUTPUT_LIMIT, OUTPUT_LIMIT)?;
            if let Some(c) = cpu {
                set_limit(libc::RLIMIT_CPU, c, c + 2)?;
            }
            Ok(())
        });
    }
    let child = spawn_retrying(cmd)?;
    let pid = child.id() as libc::pid_t;
    // The child is left unreaped (WNOWAIT) until its group is killed, so
    // its pid cannot name another group meanwhile.
    let wall_out = !wait_until(pid, start, limits.wall);
    kill_run(pid, &tag);
    let (status, cpu_used) = match wait4(pid, 0) {
        Some((s, u)) => (Some(s), u),
        None => (None, Duration::ZERO),
    };
    drop(child);
    let signal = status.and_then(|s| libc::WIFSIGNALED(s).then(|| libc::WTERMSIG(s)));
    let cpu_out = !wall_out
        && limits.cpu.is_some_and(|c| {
            signal == Some(libc::SIGXCPU) || (signal == Some(libc::SIGKILL) && cpu_used >= c)
        });
    let timed_out = wall_out || cpu_out;
    let code = status
        .filter(|s| libc::WIFEXITED(*s) && !timed_out)
        .map(|s| libc::WEXITSTATUS(s));
    let (stdout, stdout_whole) = finish(out)?;
    let (stderr, stderr_whole) = finish(err)?;
    Ok(RunOutput {
        code,
        signal,
        timed_out,
        cpu_timed_out: cpu_out,
        stdout,
        stderr,
        stdout_whole,
        stderr_whole,
        duration: start.elapsed(),
        cpu: cpu_used,
    })
}

fn set_limit(res: libc::__rlimit_resource_t, soft: u64, hard: u64) -> std::io::Result<()> {
    let mut old = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on a local struct.
    unsafe {
        if libc::getrlimit(res, &mut old) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let cap = |v: u64| -> libc::rlim_t {
            if old.rlim_max == libc::RLIM_INFINITY {
                v as libc::rlim_t
            } else {
                (v as libc::rlim_t).min(old.rlim_max)
            }
        };
        let new = libc::rlimit {
            rlim_cur: cap(soft),
            rlim_max: cap(hard),
        };
        if libc::setrlimit(res, &new) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Polls until the child has ended (true; it stays unreaped) or the wall
/// limit has passed (false).
fn wait_until(pid: libc::pid_t, start: Instant, wall: Duration) -> bool {
    loop {
        // SAFETY: siginfo_t is plain data; valid pointer to a local.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        // SAFETY: si_pid is set by a successful waitid (0 while it runs).
        if r == 0 && unsafe { info.si_pid() } == pid {
            return true;
        }
        if r == -1 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return true;
        }
        if start.elapsed() >= wall {
            return false;
        }
        std::thread::sleep(Duration::from_millis(
            if start.elapsed() < Duration::from_secs(1) {
                2
            } else {
                20
            },
        ));
    }
}

/// `wait4`; `None` while the child runs (WNOHANG) or when it cannot be waited for.
fn wait4(pid: libc::pid_t, flags: i32) -> Option<(i32, Duration)> {
    let mut status = 0;
    // SAFETY: rusage is plain data, zeroed is a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: valid pointers to locals.
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut ru) };
        if r == pid {
            let t = |tv: libc::timeval| {
                Duration::from_secs(tv.tv_sec.max(0) as u64)
                    + Duration::from_micros(tv.tv_usec.max(0) as u64)
            };
            return Some((status, t(ru.ru_utime) + t(ru.ru_stime)));
        }
        if r == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            continue;
        }
        return None;
    }
}

/// Kills the run's process group and every process whose environment carries
/// its tag, until none is left (a process may fork while we look).
fn kill_run(pid: libc::pid_t, tag: &str) {
    // SAFETY: signals to the group we created for the child.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
    let needle = format!("{TAG_VAR}={tag}\0").into_bytes();
    for _ in 0..50 {
        let found = tagged_processes(&needle);
        if found.is_empty() {
            return;
        }
        for p in found {
            // SAFETY: a process that carries this run's tag.
            unsafe {
                libc::kill(p, libc::SIGKILL);
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Live processes (not zombies) whose environment contains `needle`.
fn tagged_processes(needle: &[u8]) -> Vec<libc::pid_t> {
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in rd.flatten() {
        let Some(p) = e
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        let Ok(env) = std::fs::read(e.path().join("environ")) else {
            continue;
        };
        let tagged = env.starts_with(needle)
            || env
                .windows(needle.len() + 1)
                .any(|w| w[0] == 0 && w[1..] == *needle);
        if tagged {
            out.push(p);
        }
    }
    out
}

/// The head and the whole of a capture file.
fn finish(mut f: File) -> std::io::Result<(Vec<u8>, Whole)> {
    let len = f.metadata()?.len();
    f.rewind()?;
    let mut head = Vec::new();
    (&mut f).take(HEAD_LIMIT as u64).read_to_end(&mut head)?;
    Ok((
        head,
        Whole {
            len,
            file: Some(Arc::new(f)),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_limited_in_time() {
        let r = run_limited(
            Command::new("sh").args(["-c", "echo hi; exec sleep 30"]),
            Duration::from_millis(300),
        )
        .unwrap();
        assert!(r.timed_out && r.code.is_none());
        assert!(r.duration < Duration::from_secs(10));
        let r = run_limited(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Duration::from_secs(30),
        )
        .unwrap();
        assert_eq!(
            (r.code, r.stdout.as_slice(), r.stderr.as_slice()),
            (Some(3), &b"out\n"[..], &b"err\n"[..])
        );
    }

    /// A grandchild in its own session holding stdout open: the run still
    /// ends at its limit, and the grandchild is killed.
    #[test]
    fn a_setsid_grandchild_is_killed_on_time() {
        let d = tempfile::tempdir().unwrap();
        let pidfile = d.path().join("pid");
        let script = format!(
            "setsid sh -c 'echo $$ > {}; exec sleep 1000' & sleep 1000",
            pidfile.display()
        );
        let r = run_limited(
            Command::new("sh").args(["-c", &script]),
            Duration::from_millis(1500),
        )
        .unwrap();
        assert!(r.timed_out, "{r:?}");
        assert!(r.duration < Duration::from_secs(10), "{:?}", r.duration);
        let pid = std::fs::read_to_string(&pidfile).unwrap();
        let alive = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
            .is_ok_and(|s| !s.contains(") Z "));
        assert!(!alive, "the setsid grandchild {pid} survived");
    }

    /// A program that leaves a background process behind and exits: the run
    /// returns at once and the leftover is killed.
    #[test]
    fn leftovers_of_a_finished_run_are_killed() {
        let d = tempfile::tempdir().unwrap();
        let pidfile = d.path().join("pid");
        let script = format!(
            "setsid sh -c 'echo $$ > {}; exec sleep 1000' & sleep 0.3; echo done",
            pidfile.display()
        );
        let r = run_limited(
            Command::new("sh").args(["-c", &script]),
            Duration::from_secs(30),
        )
        .unwrap();
        assert_eq!((r.code, r.stdout.as_slice()), (Some(0), &b"done\n"[..]));
        assert!(r.duration < Duration::from_secs(10), "{:?}", r.duration);
        let pid = std::fs::read_to_string(&pidfile).unwrap();
        let alive = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
            .is_ok_and(|s| !s.contains(") Z "));
        assert!(!alive, "the leftover {pid} survived");
    }

    #[test]
    fn cpu_time_is_limited_not_sleep() {
        let r = run_with(
            Command::new("sh").args(["-c", "sleep 2; echo slept"]),
            Limits {
                wall: Duration::from_secs(30),
                cpu: Some(Duration::from_secs(1)),
            },
        )
        .unwrap();
        assert_eq!(r.code, Some(0), "sleeping uses no CPU time: {r:?}");
        let r = run_with(
            Command::new("sh").args(["-c", "while :; do :; done"]),
            Limits {
                wall: Duration::from_secs(60),
                cpu: Some(Duration::from_secs(1)),
            },
        )
        .unwrap();
        assert!(r.timed_out && r.cpu_timed_out, "{r:?}");
        assert!(
            r.status_text(Duration::from_secs(1))
                .contains("more than 1 s of CPU time"),
            "{}",
            r.status_text(Duration::from_secs(1))
        );
    }

    #[test]
    fn large_outputs_are_kept_whole() {
        let r = run_limited(
            Command::new("sh").args(["-c", "head -c 3000000 /dev/zero"]),
            Duration::from_secs(30),
        )
        .unwrap();
        assert_eq!(r.stdout.len(), HEAD_LIMIT);
        assert_eq!(r.stdout_whole.len, 3_000_000);
        let mut all = Vec::new();
        r.stdout_whole
            .reader(&r.stdout)
            .read_to_end(&mut all)
            .unwrap();
        assert_eq!(all.len(), 3_000_000);
    }
}
