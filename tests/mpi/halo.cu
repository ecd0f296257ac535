// Heat diffusion on a 2-D grid split by rows across MPI ranks, in the shape
// multi-GPU CUDA codes have: one rank per device (cudaSetDevice(rank %
// devices)), the field in device memory, halo rows exchanged by passing
// device pointers straight to MPI (as CUDA-aware MPI allows), a Jacobi
// kernel per step. Rank 0 gathers the field and prints a checksum that does
// not depend on the number of ranks.
//
// Build: cucc -ccbin mpicxx halo.cu -o halo; run: mpirun -np N ./halo [steps]
#include <cuda_runtime.h>
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t e_ = (call);                                                 \
        if (e_ != cudaSuccess) {                                                 \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,              \
                         cudaGetErrorString(e_));                                \
            MPI_Abort(MPI_COMM_WORLD, 1);                                        \
        }                                                                        \
    } while (0)

const int NX = 192;   // columns
const int NY = 130;   // rows of the whole grid (not a multiple of 4: uneven split)

// One Jacobi step on rows 1..rows of a (rows+2) x NX block with halo rows 0
// and rows+1; the grid's outer boundary stays fixed.
__global__ void jacobi(const float *in, float *out, int rows, int first_row) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (x >= NX || y > rows) return;
    int gy = first_row + y - 1;
    int i = y * NX + x;
    if (x == 0 || x == NX - 1 || gy == 0 || gy == NY - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - NX] + in[i + NX]);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int steps = argc > 1 ? std::atoi(argv[1]) : 200;

    int devices = 0;
    CHECK(cudaGetDeviceCount(&devices));
    CHECK(cudaSetDevice(rank % devices));

    // Rows of this rank: an even split, the first NY % size ranks one more.
    int rows = NY / size + (rank < NY % size);
    int first = rank * (NY / size) + (rank < NY % size ? rank : NY % size);

    std::vector<float> h((rows + 2) * NX, 0.0f);
    for (int y = 1; y <= rows; y++)
        for (int x = 0; x < NX; x++) {
            int gy = first + y - 1;
            // A hot top edge, a warm spot, the rest cold.
            float v = gy == 0 ? 100.0f : 0.0f;
            if (gy > NY / 3 && gy < NY / 2 && x > NX / 4 && x < NX / 3) v = 50.0f;
            h[y * NX + x] = v;
        }
    float *a, *b;
    size_t bytes = h.size() * sizeof(float);
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h.data(), bytes, cudaMemcpyHostToDevice));

    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    dim3 block(32, 8), grid((NX + 31) / 32, (rows + 7) / 8);
    for (int s = 0; s < steps; s++) {
        // Halo exchange on device pointers: first row up, last row down.
        MPI_Sendrecv(a + NX, NX, MPI_FLOAT, up, 0, a + (rows + 1) * NX, NX, MPI_FLOAT, down, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(a + rows * NX, NX, MPI_FLOAT, down, 1, a, NX, MPI_FLOAT, up, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        jacobi<<<grid, block>>>(a, b, rows, first);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        float *t = a;
        a = b;
        b = t;
    }

    // Gather the interior rows on rank 0 (again from device memory).
    std::vector<int> counts(size), displs(size);
    for (int r = 0; r < size; r++) {
        counts[r] = (NY / size + (r < NY % size)) * NX;
        displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
    }
    std::vector<float> all(rank == 0 ? NY * NX : 1);
    MPI_Gatherv(a + NX, rows * NX, MPI_FLOAT, all.data(), counts.data(), displs.data(),
                MPI_FLOAT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double sum = 0, weighted = 0;
        for (int i = 0; i < NY * NX; i++) {
            sum += all[i];
            weighted += all[i] * (double)(i % 97);
        }
        std::printf("grid %dx%d, %d steps: sum %.6f weighted %.6f centre %.6f\n", NX, NY, steps,
                    sum, weighted, all[(NY / 2) * NX + NX / 2]);
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    MPI_Finalize();
    return 0;
}
