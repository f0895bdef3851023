// Shared helpers for the emulator tests: count failures, report, exit nonzero.
#pragma once
#include <cstdio>
#include <cstdlib>
static int g_failures = 0;
#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            if (g_failures < 20) {                                              \
                std::fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,     \
                             __LINE__, #cond);                                  \
                std::fprintf(stderr, __VA_ARGS__);                              \
                std::fputc('\n', stderr);                                       \
            }                                                                   \
            ++g_failures;                                                       \
        }                                                                       \
    } while (0)
#define CUDA_OK(call)                                                           \
    do {                                                                        \
        cudaError_t e_ = (call);                                                \
        if (e_ != cudaSuccess) {                                                \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,  \
                         #call, cudaGetErrorString(e_));                        \
            std::exit(1);                                                       \
        }                                                                       \
    } while (0)
static int finish(const char *name) {
    if (g_failures) {
        std::fprintf(stderr, "%s: %d failure(s)\n", name, g_failures);
        return 1;
    }
    return 0;
}
