// A "gate" for the runtime-API programs: a host function (queued with
// cudaLaunchHostFunc) that waits until main opens it, holding everything
// behind it on its stream at a known point so that ordering checks are
// deterministic. It gives up after two seconds, setting `timed_out`, rather
// than hang when the ordering under test is wrong.
#pragma once
#include <ctime>

struct Gate {
    int open;
    int timed_out;
};

static void sleep_a_little() {
    struct timespec ts = {0, 100000};
    nanosleep(&ts, nullptr);
}

static void CUDART_CB hold(void *arg) {
    Gate *g = (Gate *)arg;
    for (int waited = 0; !__atomic_load_n(&g->open, __ATOMIC_ACQUIRE); ++waited) {
        if (waited > 20000) {
            g->timed_out = 1;
            return;
        }
        sleep_a_little();
    }
}

static void open_gate(Gate *g) { __atomic_store_n(&g->open, 1, __ATOMIC_RELEASE); }
