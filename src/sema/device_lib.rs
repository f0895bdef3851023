//! Functions the CUDA device library provides, so a region may call them
//! without a definition in the file: the C math library (CUDA's device math
//! API has a device overload for each), `printf`, `malloc`/`free` (the device
//! heap), `memcpy`/`memset`, and `assert`; and the OpenMP / OpenACC runtime
//! routines that templates/p2c_runtime.cuh defines for device code.
//!
//! Names only: the list is the facts of CUDA's documented device API, kept
//! sorted so a lookup is a binary search.

const DEVICE_CALLABLE: &[&str] = &[
    "abs",
    "acos",
    "acosf",
    "acosh",
    "acoshf",
    "asin",
    "asinf",
    "asinh",
    "asinhf",
    "assert",
    "atan",
    "atan2",
    "atan2f",
    "atanf",
    "atanh",
    "atanhf",
    "cbrt",
    "cbrtf",
    "ceil",
    "ceilf",
    "copysign",
    "copysignf",
    "cos",
    "cosf",
    "cosh",
    "coshf",
    "erf",
    "erfc",
    "erfcf",
    "erff",
    "exp",
    "exp10",
    "exp10f",
    "exp2",
    "exp2f",
    "expf",
    "expm1",
    "expm1f",
    "fabs",
    "fabsf",
    "fdim",
    "fdimf",
    "floor",
    "floorf",
    "fma",
    "fmaf",
    "fmax",
    "fmaxf",
    "fmin",
    "fminf",
    "fmod",
    "fmodf",
    "free",
    "frexp",
    "frexpf",
    "hypot",
    "hypotf",
    "ilogb",
    "ilogbf",
    "isfinite",
    "isinf",
    "isnan",
    "labs",
    "ldexp",
    "ldexpf",
    "lgamma",
    "lgammaf",
    "llabs",
    "llrint",
    "llrintf",
    "llround",
    "llroundf",
    "log",
    "log10",
    "log10f",
    "log1p",
    "log1pf",
    "log2",
    "log2f",
    "logb",
    "logbf",
    "logf",
    "lrint",
    "lrintf",
    "lround",
    "lroundf",
    "malloc",
    "memcpy",
    "memset",
    "modf",
    "modff",
    "nearbyint",
    "nearbyintf",
    "nextafter",
    "nextafterf",
    "pow",
    "powf",
    "printf",
    "remainder",
    "remainderf",
    "remquo",
    "remquof",
    "rint",
    "rintf",
    "round",
    "roundf",
    "scalbln",
    "scalblnf",
    "scalbn",
    "scalbnf",
    "signbit",
    "sin",
    "sinf",
    "sinh",
    "sinhf",
    "sqrt",
    "sqrtf",
    "tan",
    "tanf",
    "tanh",
    "tanhf",
    "tgamma",
    "tgammaf",
    "trunc",
    "truncf",
];

/// The runtime routines the prelude (templates/p2c_runtime.cuh) makes
/// `__host__ __device__`, sorted.
const RUNTIME_DEVICE_CALLABLE: &[&str] = &[
    "acc_on_device",
    "omp_get_active_level",
    "omp_get_device_num",
    "omp_get_level",
    "omp_get_max_teams",
    "omp_get_max_threads",
    "omp_get_num_teams",
    "omp_get_num_threads",
    "omp_get_team_num",
    "omp_get_thread_limit",
    "omp_get_thread_num",
    "omp_in_parallel",
    "omp_is_initial_device",
];

/// Whether the device library or the prelude's runtime provides `name`.
pub fn is_device_callable(name: &str) -> bool {
    DEVICE_CALLABLE.binary_search(&name).is_ok()
        || RUNTIME_DEVICE_CALLABLE.binary_search(&name).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_and_unique() {
        assert!(DEVICE_CALLABLE.windows(2).all(|w| w[0] < w[1]));
        assert!(RUNTIME_DEVICE_CALLABLE.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn math_and_printf_are_callable_host_io_is_not() {
        assert!(is_device_callable("sqrt"));
        assert!(is_device_callable("printf"));
        assert!(!is_device_callable("fopen"));
        assert!(is_device_callable("omp_get_num_threads"));
        assert!(is_device_callable("acc_on_device"));
        assert!(!is_device_callable("omp_get_wtime"));
        assert!(!is_device_callable("acc_copyin"));
    }
}
