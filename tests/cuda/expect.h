// EXPECT for the runtime-API programs: a condition that does not hold is
// printed with its line and counted in `bad`, and the program goes on.
#pragma once
#include "check.h"

static int bad = 0;

#define EXPECT(cond)                                                             \
    do {                                                                         \
        if (!(cond)) {                                                           \
            printf("line %d: %s does not hold\n", __LINE__, #cond);              \
            ++bad;                                                               \
        }                                                                        \
    } while (0)
