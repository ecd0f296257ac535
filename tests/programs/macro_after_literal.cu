// A macro pasted onto string literals without spaces, `"("NAME")"`, in host
// and device code, as Rodinia's mummergpu writes it: nvcc accepts it (C++11
// would read NAME as a literal suffix). Prints PASS.
#include <cstdio>
#include <cstring>

#define FIELD "id"

__device__ char dmsg[16];

__global__ void fill() {
    const char *s = "("FIELD")";
    for (int i = 0; i < 15 && s[i]; i++) dmsg[i] = s[i];
}

int main() {
    const char *host = "("FIELD")";
    fill<<<1, 1>>>();
    char h[16] = {0};
    cudaMemcpyFromSymbol(h, dmsg, 15);
    if (strcmp(host, "(id)") != 0 || strncmp(h, "(id)", 4) != 0) {
        printf("FAIL: host %s device %s\n", host, h);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
