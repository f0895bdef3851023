//! The environment a suite test runs in. OpenMP_VV names the tests of an
//! environment variable `test_<var>_env_<value>.c` and its run rule (the
//! suite's Makefile) sets `<VAR>` (upper-cased) to `<value>` for that run:
//! `test_omp_num_teams_env_2.c` runs with `OMP_NUM_TEAMS=2`. The suite
//! runner does the same, for the reference and the translation alike.

/// The variables the test at `rel` (a path under the suites' directory)
/// expects to be set; empty for every other test.
pub fn suite_env(rel: &str) -> Vec<(String, String)> {
    if !rel.starts_with("openmp_vv/") {
        return Vec::new();
    }
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let Some(stem) = name.strip_suffix(".c") else {
        return Vec::new();
    };
    let Some(rest) = stem.strip_prefix("test_") else {
        return Vec::new();
    };
    // The variable is what lies before the last `_env_`, the value after it.
    let Some(at) = rest.rfind("_env_") else {
        return Vec::new();
    };
    let (var, value) = (&rest[..at], &rest[at + "_env_".len()..]);
    if var.is_empty() || value.is_empty() {
        return Vec::new();
    }
    vec![(var.to_ascii_uppercase(), value.to_string())]
}

#[cfg(test)]
mod tests {
    use super::suite_env;

    fn one(k: &str, v: &str) -> Vec<(String, String)> {
        vec![(k.to_string(), v.to_string())]
    }

    #[test]
    fn named_tests_get_their_variable() {
        assert_eq!(
            suite_env("openmp_vv/tests/5.1/env_var/test_omp_num_teams_env_2.c"),
            one("OMP_NUM_TEAMS", "2")
        );
        assert_eq!(
            suite_env("openmp_vv/tests/5.1/env_var/test_omp_places_env_ll_caches.c"),
            one("OMP_PLACES", "ll_caches")
        );
        assert_eq!(
            suite_env("openmp_vv/tests/5.1/env_var/test_omp_teams_thread_limit_env_2.c"),
            one("OMP_TEAMS_THREAD_LIMIT", "2")
        );
        assert_eq!(
            suite_env("openmp_vv/tests/5.0/program_control/test_omp_target_offload_env_DISABLED.c"),
            one("OMP_TARGET_OFFLOAD", "DISABLED")
        );
    }

    #[test]
    fn other_tests_get_nothing() {
        assert!(suite_env("openmp_vv/tests/4.5/target/test_target_map.c").is_empty());
        assert!(suite_env("openaccvv/Tests/test_x_env_2.c").is_empty());
        assert!(suite_env("openmp_vv/tests/5.1/x/env_2.c").is_empty());
        assert!(suite_env("openmp_vv/tests/5.1/x/test_omp_env_.c").is_empty());
    }
}
