// Host-only C++ of the executable, compiled by the C++ compiler.
#include <cmath>
#include <cstdio>

bool report(const char *what, double got, double want) {
    bool ok = std::fabs(got - want) <= 1e-3 * std::fmax(1.0, std::fabs(want));
    std::printf("%s: %.4f (expected %.4f) %s\n", what, got, want, ok ? "ok" : "WRONG");
    return ok;
}
