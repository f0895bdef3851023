//! The spellings a file that uses C99 complex numbers gets in its prelude.

/// Spellings for files that use C99 complex numbers, placed after the C-to-C++
/// spellings (when `lower::cxx` finds the file uses them). C++ compilers (g++, clang++, nvcc) accept
/// `float _Complex` and `__real__`/`__imag__` as extensions, but read an
/// imaginary constant (`1.0iF`, what glibc's `I` expands to) as a
/// user-defined literal: `lower::cxx` rewrites each one as a call of
/// `p2c_imaginary_f` / `p2c_imaginary_d`, which builds the value part by part
/// (nvcc has no device conversion from a real to a complex value).
pub const COMPLEX_COMPAT: &str = r#"/* ---- pragma2cuda C99 complex spellings (emit/cxx.rs) ----
 * An imaginary constant `v i` of the C source is written p2c_imaginary_f(v) (float)
 * or p2c_imaginary_d(v) (double): C++ reads `1.0iF` as a user-defined literal.
 */
inline namespace p2c_prelude_1 {
__host__ __device__ inline float _Complex p2c_imaginary_f(float v)
{
    float _Complex z;
    __real__ z = 0.0f;
    __imag__ z = v;
    return z;
}
__host__ __device__ inline double _Complex p2c_imaginary_d(double v)
{
    double _Complex z;
    __real__ z = 0.0;
    __imag__ z = v;
    return z;
}
}
/* ---- end of C99 complex spellings ---- */
"#;
