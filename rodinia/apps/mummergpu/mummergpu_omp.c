/* mummergpu, OpenMP (Rodinia has no OpenMP version; this is the natural
 * one): the same tree walk for every query position, queries shared among
 * the threads in chunks (dynamic: random queries end their walks early). */
#include <omp.h>
#include "mummergpu_tree.h"

static void match_query(const mg_tree *t, const unsigned char *ref, const unsigned char *s,
                        int qlen, int *length, int *where) {
    for (int start = 0; start < qlen; start++) {
        int node = 0, m = 0, locus = 0;
        while (start + m < qlen) {
            int child = t->child[4 * node + s[start + m]];
            if (child < 0) break;
            locus = child;
            int from = t->pos[child], edge_end = t->depth[child];
            int k = t->depth[node] + 1;
            m++;
            while (k < edge_end && start + m < qlen && ref[from + k] == s[start + m]) {
                k++;
                m++;
            }
            if (k < edge_end) break;
            node = child;
        }
        length[start] = m;
        where[start] = m > 0 ? t->pos[locus] : -1;
    }
}

int main(int argc, char **argv) {
    int len, count, qlen, min_match, *length, *where;
    unsigned char *ref, *queries;
    mg_tree t = mg_setup(argc, argv, &len, &count, &qlen, &min_match, &ref, &queries, &length,
                         &where);

    double t0 = rd_now();
#pragma omp parallel for schedule(dynamic, 64)
    for (int q = 0; q < count; q++)
        match_query(&t, ref, queries + (size_t)q * qlen, qlen, length + (size_t)q * qlen,
                    where + (size_t)q * qlen);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    mg_write(argv[5], count, qlen, min_match, length, where);
    mg_free(&t);
    RD_FREE(ref, queries, length, where);
    return 0;
}
