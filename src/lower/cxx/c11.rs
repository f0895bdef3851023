//! Spellings written before the translated source when the file needs them:
//! C11's keywords that C++ spells differently (`_Static_assert`,
//! `_Alignas`, `_Alignof`, `_Noreturn`, `_Thread_local`), and the
//! increment, decrement and compound assignment operators C gives enums
//! (C++ has none: they are declared here for every enum type, host and
//! device).

/// The C11 keywords [`C11_SPELLINGS`] defines.
pub const C11_KEYWORDS: &[&str] = &[
    "_Static_assert",
    "_Alignas",
    "_Alignof",
    "_Noreturn",
    "_Thread_local",
];

pub const C11_SPELLINGS: &str = "/* ---- pragma2cuda: C11 keywords in C++ (emit/cxx/c11.rs) ---- */
#ifndef _Static_assert
#define _Static_assert static_assert
#endif
#ifndef _Alignas
#define _Alignas(x) alignas(x)
#endif
#ifndef _Alignof
#define _Alignof(x) alignof(x)
#endif
#ifndef _Noreturn
#define _Noreturn __attribute__((noreturn))
#endif
#ifndef _Thread_local
#define _Thread_local thread_local
#endif
/* ---- end of C11 keywords ---- */
";

pub const ENUM_OPERATORS: &str = "/* ---- pragma2cuda: C's arithmetic on enum objects (emit/cxx/c11.rs) ----
 * C lets `e++`, `e += n`, `e |= f` update an enum object through int; C++
 * does not. These operators do it for every enum type, with C's result.
 */
template <typename E> struct p2c_is_enum { static const bool value = __is_enum(E); };
template <bool B, typename T> struct p2c_enum_only {};
template <typename T> struct p2c_enum_only<true, T> { typedef T type; };
template <typename E> __host__ __device__ inline typename p2c_enum_only<p2c_is_enum<E>::value, E &>::type operator++(E &e) { return e = (E)((long long)e + 1); }
template <typename E> __host__ __device__ inline typename p2c_enum_only<p2c_is_enum<E>::value, E &>::type operator--(E &e) { return e = (E)((long long)e - 1); }
template <typename E> __host__ __device__ inline typename p2c_enum_only<p2c_is_enum<E>::value, E>::type operator++(E &e, int) { E old = e; e = (E)((long long)e + 1); return old; }
template <typename E> __host__ __device__ inline typename p2c_enum_only<p2c_is_enum<E>::value, E>::type operator--(E &e, int) { E old = e; e = (E)((long long)e - 1); return old; }
#define P2C_ENUM_ASSIGN(op) template <typename E, typename T> __host__ __device__ inline typename p2c_enum_only<p2c_is_enum<E>::value, E &>::type operator op##=(E &e, T v) { return e = (E)(e op v); }
P2C_ENUM_ASSIGN(+) P2C_ENUM_ASSIGN(-) P2C_ENUM_ASSIGN(*) P2C_ENUM_ASSIGN(/) P2C_ENUM_ASSIGN(%)
P2C_ENUM_ASSIGN(&) P2C_ENUM_ASSIGN(|) P2C_ENUM_ASSIGN(^) P2C_ENUM_ASSIGN(<<) P2C_ENUM_ASSIGN(>>)
#undef P2C_ENUM_ASSIGN
/* ---- end of enum arithmetic ---- */
";
