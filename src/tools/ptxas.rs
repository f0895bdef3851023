//! `--emit=plan-json --ptxas` (issue 19): the translation compiled by nvcc
//! with `-Xptxas -v`, and each region's registers, spills, stack frame and
//! shared bytes added to its plan, per architecture.

use super::verify::{self, KernelStats, Toolchain};
use serde_json::{json, Value};
use std::process::Command;

/// The architectures compiled for (those `verify` checks).
pub const ARCHS: &[&str] = &["sm_80", "sm_90"];

/// The kernel name in a ptxas entry name: `_ZL7main_L5Pd` (C++ linkage,
/// internal: `L`) gives `main_L5`; an unmangled `k` is `k`.
pub fn entry_base(entry: &str) -> &str {
    let Some(rest) = entry.strip_prefix("_Z") else {
        return entry;
    };
    let rest = rest.strip_prefix('L').unwrap_or(rest);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match rest[..digits].parse::<usize>() {
        Ok(n) => rest.get(digits..digits + n).unwrap_or(entry),
        Err(_) => entry,
    }
}

/// Compiles `cuda` (a whole translation) with nvcc for [`ARCHS`] and
/// `-Xptxas -v` in a temporary folder; the figures of every entry.
pub fn figures(cuda: &str, tc: &Toolchain) -> Result<Vec<KernelStats>, String> {
    let nvcc = tc
        .nvcc
        .as_ref()
        .ok_or("nvcc not found: set P2C_NVCC or run scripts/toolchain.sh")?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let cu = dir.path().join("plan.cu");
    std::fs::write(&cu, cuda).map_err(|e| format!("cannot write {}: {e}", cu.display()))?;
    let mut cmd = Command::new(nvcc);
    cmd.arg("-c");
    for a in ARCHS {
        let n = a.trim_start_matches("sm_");
        cmd.args(["-gencode", &format!("arch=compute_{n},code={a}")]);
    }
    cmd.args(["-Xptxas", "-v"])
        .arg(&cu)
        .arg("-o")
        .arg(dir.path().join("plan.o"));
    let out = verify::compile(&mut cmd)?;
    Ok(verify::parse_ptxas(&out.text()))
}

fn stats(k: &KernelStats) -> Value {
    json!({
        "arch": k.arch,
        "registers": k.registers,
        "spill_stores": k.spill_stores,
        "spill_loads": k.spill_loads,
        "stack_frame": k.stack_frame,
        "shared_bytes": k.shared_bytes,
        "barriers": k.barriers,
    })
}

/// `plan` (a `--emit=plan-json` document) with `"ptxas": [...]` in every
/// region: the figures of its kernel per architecture (empty when ptxas
/// named no entry of that kernel).
pub fn annotate(plan: &str, kernels: &[KernelStats]) -> Result<String, String> {
    let mut doc: Value =
        serde_json::from_str(plan).map_err(|e| format!("plan-json unreadable: {e}"))?;
    if let Some(regions) = doc["regions"].as_array_mut() {
        for r in regions {
            let name = r["kernel"].as_str().unwrap_or("").to_string();
            let mine: Vec<Value> = kernels
                .iter()
                .filter(|k| entry_base(&k.kernel) == name)
                .map(stats)
                .collect();
            r["ptxas"] = Value::Array(mine);
        }
    }
    let mut s = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    s.push('\n');
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_names_and_annotation() {
        assert_eq!(entry_base("_ZL7main_L5Pdi"), "main_L5");
        assert_eq!(entry_base("_Z3addPii"), "add");
        assert_eq!(entry_base("plain_L3"), "plain_L3");
        assert_eq!(entry_base("_Z99x"), "_Z99x");
        let k = |arch: &str, name: &str, regs| KernelStats {
            arch: arch.into(),
            kernel: name.into(),
            registers: regs,
            spill_stores: 4,
            ..KernelStats::default()
        };
        let ks = [
            k("sm_80", "_ZL7main_L5Pd", 10),
            k("sm_90", "_ZL7main_L5Pd", 12),
            k("sm_80", "_ZL8main_L50Pd", 99),
        ];
        let plan = "{\"regions\": [{\"kernel\": \"main_L5\"}, {\"kernel\": \"f_L1\"}]}";
        let v: Value = serde_json::from_str(&annotate(plan, &ks).unwrap()).unwrap();
        let p = &v["regions"][0]["ptxas"];
        assert_eq!(p.as_array().unwrap().len(), 2, "{p}");
        assert_eq!(p[0]["arch"], "sm_80");
        assert_eq!(p[0]["registers"], 10);
        assert_eq!(p[1]["registers"], 12);
        assert_eq!(p[0]["spill_stores"], 4);
        assert_eq!(v["regions"][1]["ptxas"], json!([]));
    }
}
