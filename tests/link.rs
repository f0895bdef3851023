//! A two-file C program with one translated file links and runs: the
//! translated `compute.c` keeps C linkage for its functions and global, so
//! `main.c`, compiled by gcc as C, links against it — with the emulator build
//! (run and compared with gcc's build of both C files) and with nvcc (linked).

use pragma2cuda::tools::verify::Toolchain;
use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn link_program_runs_on_the_emulator() {
    let out = Command::new(env!("CARGO_BIN_EXE_pragma2cuda"))
        .current_dir(repo())
        .args([
            "verify",
            "fixtures/link/compute.c",
            "--device",
            "emulate",
            "--",
            "fixtures/link/main.c",
        ])
        .output()
        .expect("run pragma2cuda verify");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "verify failed:\n{text}");
    assert!(text.contains("PASS"), "{text}");
}

#[test]
fn link_program_links_with_nvcc() {
    let tc = Toolchain::from_env();
    let nvcc = tc
        .nvcc
        .clone()
        .expect("nvcc not found: run scripts/toolchain.sh");
    let dir = tempfile::tempdir().unwrap();
    let cu = dir.path().join("compute.cu");
    let st = Command::new(env!("CARGO_BIN_EXE_pragma2cuda"))
        .current_dir(repo())
        .args(["fixtures/link/compute.c", "-o"])
        .arg(&cu)
        .status()
        .unwrap();
    assert!(st.success(), "translation failed");
    let run = |cmd: &mut Command| {
        let o = cmd.output().expect("spawn");
        assert!(
            o.status.success(),
            "{:?} failed:\n{}",
            cmd,
            String::from_utf8_lossy(&o.stderr)
        );
    };
    run(Command::new(&nvcc)
        .args(["-arch=sm_80", "-c"])
        .arg("-I")
        .arg(repo().join("fixtures/link"))
        .arg(&cu)
        .arg("-o")
        .arg(dir.path().join("compute.o")));
    run(Command::new("gcc")
        .args(["-std=c11", "-c"])
        .arg(repo().join("fixtures/link/main.c"))
        .arg("-o")
        .arg(dir.path().join("main.o")));
    run(Command::new(&nvcc)
        .args(["-arch=sm_80"])
        .arg(dir.path().join("compute.o"))
        .arg(dir.path().join("main.o"))
        .arg("-o")
        .arg(dir.path().join("prog")));
    assert!(dir.path().join("prog").exists());
}
