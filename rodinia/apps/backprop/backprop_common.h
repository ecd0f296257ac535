/* backprop: one training step of a fully connected network with one hidden
 * layer of 16 units and one output unit.  The generated inputs, the host-side
 * parts (output layer and errors, which the CUDA version also runs on the
 * host) and the output, shared by both versions.
 *
 * Layout: units[0] is the bias (1.0); weights are (in + 1) x (hid + 1),
 * row k = input unit, column j = hidden unit (column 0 unused). */
#ifndef BACKPROP_COMMON_H
#define BACKPROP_COMMON_H
#include <math.h>
#include "rodinia_common.h"

#define BP_HIDDEN 16
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f

typedef struct {
    int in;
    float *input;        /* in + 1 */
    float *w_ih;         /* (in + 1) * (BP_HIDDEN + 1) */
    float *dw_ih;        /* previous changes, same shape */
    float hidden[BP_HIDDEN + 1];
    float w_ho[BP_HIDDEN + 1];
    float output;
    float target;
    float hidden_delta[BP_HIDDEN + 1];
    float output_delta;
} bp_net;

static inline float bp_squash(float x) { return 1.0f / (1.0f + expf(-x)); }

static inline void bp_generate(bp_net *n, int in) {
    size_t w = (size_t)(in + 1) * (BP_HIDDEN + 1);
    rd_rng r = rd_seed(3);
    n->in = in;
    n->input = (float *)malloc((in + 1) * sizeof(float));
    n->w_ih = (float *)malloc(w * sizeof(float));
    n->dw_ih = (float *)malloc(w * sizeof(float));
    n->input[0] = 1.0f;
    for (int k = 1; k <= in; k++) n->input[k] = rd_unit(&r);
    for (size_t i = 0; i < w; i++) {
        n->w_ih[i] = (rd_unit(&r) - 0.5f) * 0.02f;
        n->dw_ih[i] = 0.0f;
    }
    for (int j = 0; j <= BP_HIDDEN; j++) n->w_ho[j] = rd_unit(&r) - 0.5f;
    n->target = 0.1f;
}

/* From the hidden sums: squash, output layer, output and hidden errors, and
 * the hidden-to-output weight update (all small, all on the host). */
static inline void bp_finish_forward_and_errors(bp_net *n, const float *sums) {
    n->hidden[0] = 1.0f;
    for (int j = 1; j <= BP_HIDDEN; j++) n->hidden[j] = bp_squash(sums[j]);
    float s = 0.0f;
    for (int j = 0; j <= BP_HIDDEN; j++) s += n->w_ho[j] * n->hidden[j];
    n->output = bp_squash(s);
    n->output_delta = n->output * (1.0f - n->output) * (n->target - n->output);
    for (int j = 1; j <= BP_HIDDEN; j++) {
        float h = n->hidden[j];
        n->hidden_delta[j] = h * (1.0f - h) * n->output_delta * n->w_ho[j];
    }
    n->hidden_delta[0] = 0.0f;
    for (int j = 0; j <= BP_HIDDEN; j++) n->w_ho[j] += BP_ETA * n->output_delta * n->hidden[j];
}

/* Hidden units, output, and every `stride`-th input weight (at most about
 * 65536 of them: enough to catch any wrong block, small enough to compare). */
static inline void bp_write(const char *path, const bp_net *n) {
    FILE *f = rd_open_output(path);
    for (int j = 1; j <= BP_HIDDEN; j++) fprintf(f, RD_FLOAT_FMT "\n", n->hidden[j]);
    fprintf(f, RD_FLOAT_FMT "\n", n->output);
    size_t w = (size_t)(n->in + 1) * (BP_HIDDEN + 1);
    size_t stride = w / 65536 + 1;
    for (size_t i = 0; i < w; i += stride) fprintf(f, RD_FLOAT_FMT "\n", n->w_ih[i]);
    fclose(f);
}

/* Parses INPUT_UNITS OUTPUT (a multiple of `tile` input units), or exits. */
static inline int bp_parse(int argc, char **argv, int tile) {
    rd_usage(argc, argv, 2, "INPUT_UNITS OUTPUT");
    int in = rd_arg_int(argv[1], "input units");
    rd_require(in % tile == 0, "the number of input units must be a multiple of %d\n", tile);
    return in;
}
#endif
