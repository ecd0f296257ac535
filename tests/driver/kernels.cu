// Kernels for the driver API test (driver_api.c), built by nvcc into PTX
// text (`nvcc -ptx`) and a fat binary (`nvcc -fatbin`) that the program
// loads at run time.

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__device__ float bias;

extern "C" __global__ void add_bias(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += bias;
}

// Parameters of mixed sizes, for the packed `extra` buffer.
extern "C" __global__ void mixed(char c, double d, int *out, short s)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        out[0] = c;
        out[1] = (int)d;
        out[2] = s;
    }
}

// A C++ (mangled) name.
__global__ void block_sum(const int *in, int *out)
{
    __shared__ int part[256];
    part[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = part[0];
}
