/* ---- pragma2cuda atomic constructs (templates/p2c_atomic.cuh) --------------
 * `omp atomic` / `acc atomic` on a 4- or 8-byte arithmetic value. Additions
 * and subtractions (int, unsigned, 64-bit integers, float, double) and the
 * bitwise operators (integers) use the native atomics when C's arithmetic
 * on the operands stays in the variable's type (`float += double` computes
 * in double and is not an atomicAdd on float); everything else is a
 * compare-and-swap loop on the value's bits that stores f(old). Reads are a
 * compare-and-swap of 0 by 0 (one atomic load of any 4- or 8-byte value),
 * writes an exchange. Every helper returns the value before the update,
 * which the capture forms assign or recompute from.
 */
inline namespace p2c_prelude_1 {

template <int N> struct p2c_atom_word;
template <> struct p2c_atom_word<4> { typedef unsigned int type; };
template <> struct p2c_atom_word<8> { typedef unsigned long long type; };

template <class A, class B> struct p2c_atom_same { static constexpr bool value = false; };
template <class A> struct p2c_atom_same<A, A> { static constexpr bool value = true; };

/* Which types have a native atomic add / and-or-xor (through the 32- or
 * 64-bit overload of the same size and signedness-free bits). */
template <class T> struct p2c_atom_native { static constexpr bool add = false, bits = false; };
template <> struct p2c_atom_native<int> { static constexpr bool add = true, bits = true; };
template <> struct p2c_atom_native<unsigned int> { static constexpr bool add = true, bits = true; };
template <> struct p2c_atom_native<long> { static constexpr bool add = true, bits = true; };
template <> struct p2c_atom_native<unsigned long> { static constexpr bool add = true, bits = true; };
template <> struct p2c_atom_native<long long> { static constexpr bool add = true, bits = true; };
template <> struct p2c_atom_native<unsigned long long> { static constexpr bool add = true, bits = true; };
template <> struct p2c_atom_native<float> { static constexpr bool add = true, bits = false; };
template <> struct p2c_atom_native<double> { static constexpr bool add = true, bits = false; };

/* The bits of a value and back. */
template <class T>
__device__ inline typename p2c_atom_word<sizeof(T)>::type p2c_atom_bits(T v) {
    return (typename p2c_atom_word<sizeof(T)>::type)v;
}
__device__ inline unsigned int p2c_atom_bits(float v) { return __float_as_uint(v); }
__device__ inline unsigned long long p2c_atom_bits(double v) {
    return (unsigned long long)__double_as_longlong(v);
}
template <class T> struct p2c_atom_from {
    template <class W> __device__ static T get(W w) { return (T)w; }
};
template <> struct p2c_atom_from<float> {
    __device__ static float get(unsigned int w) { return __uint_as_float(w); }
};
template <> struct p2c_atom_from<double> {
    __device__ static double get(unsigned long long w) { return __longlong_as_double((long long)w); }
};

/* *p = f(*p) as one atomic step; returns the old value. */
template <class T, class F>
__device__ inline T p2c_atom_apply(T *p, F f) {
    typedef typename p2c_atom_word<sizeof(T)>::type W;
    W *w = (W *)p;
    W seen = atomicCAS(w, (W)0, (W)0);
    for (;;) {
        const T old = p2c_atom_from<T>::get(seen);
        const W got = atomicCAS(w, seen, p2c_atom_bits((T)f(old)));
        if (got == seen)
            return old;
        seen = got;
    }
}

template <class T>
__device__ inline T p2c_atom_read(T *p) {
    typedef typename p2c_atom_word<sizeof(T)>::type W;
    return p2c_atom_from<T>::get(atomicCAS((W *)p, (W)0, (W)0));
}

/* *p = (T)v; returns the old value. */
template <class T, class V>
__device__ inline T p2c_atom_write(T *p, V v) {
    typedef typename p2c_atom_word<sizeof(T)>::type W;
    return p2c_atom_from<T>::get(atomicExch((W *)p, p2c_atom_bits((T)v)));
}

/* Native adds: 64-bit integers through the unsigned long long overload
 * (two's complement: the same bits). */
__device__ inline int p2c_atom_native_add(int *p, int v) { return atomicAdd(p, v); }
__device__ inline unsigned int p2c_atom_native_add(unsigned int *p, unsigned int v) { return atomicAdd(p, v); }
__device__ inline float p2c_atom_native_add(float *p, float v) { return atomicAdd(p, v); }
__device__ inline double p2c_atom_native_add(double *p, double v) { return atomicAdd(p, v); }
template <class T>
__device__ inline T p2c_atom_native_add(T *p, T v) {
    return (T)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}

template <class T>
__device__ inline T p2c_atom_native_bits(T *p, T v, char op) {
    typedef typename p2c_atom_word<sizeof(T)>::type W;
    W *w = (W *)p;
    const W b = (W)v;
    return (T)(op == '&' ? atomicAnd(w, b) : op == '|' ? atomicOr(w, b) : atomicXor(w, b));
}

template <class T, class V>
__device__ inline T p2c_atom_add(T *p, V v) {
    if constexpr (p2c_atom_native<T>::add && p2c_atom_same<decltype(*p + v), T>::value)
        return p2c_atom_native_add(p, (T)v);
    else
        return p2c_atom_apply(p, [v](T o) { return (T)(o + v); });
}

template <class T, class V>
__device__ inline T p2c_atom_sub(T *p, V v) {
    if constexpr (p2c_atom_native<T>::add && p2c_atom_same<decltype(*p - v), T>::value)
        return p2c_atom_native_add(p, (T)(-(T)v));
    else
        return p2c_atom_apply(p, [v](T o) { return (T)(o - v); });
}

template <class T, class V>
__device__ inline T p2c_atom_and(T *p, V v) {
    if constexpr (p2c_atom_native<T>::bits && p2c_atom_same<decltype(*p & v), T>::value)
        return p2c_atom_native_bits(p, (T)v, '&');
    else
        return p2c_atom_apply(p, [v](T o) { return (T)(o & v); });
}

template <class T, class V>
__device__ inline T p2c_atom_or(T *p, V v) {
    if constexpr (p2c_atom_native<T>::bits && p2c_atom_same<decltype(*p | v), T>::value)
        return p2c_atom_native_bits(p, (T)v, '|');
    else
        return p2c_atom_apply(p, [v](T o) { return (T)(o | v); });
}

template <class T, class V>
__device__ inline T p2c_atom_xor(T *p, V v) {
    if constexpr (p2c_atom_native<T>::bits && p2c_atom_same<decltype(*p ^ v), T>::value)
        return p2c_atom_native_bits(p, (T)v, '^');
    else
        return p2c_atom_apply(p, [v](T o) { return (T)(o ^ v); });
}

} /* namespace p2c_prelude_1 */
