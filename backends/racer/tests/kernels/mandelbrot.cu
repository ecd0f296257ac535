// The Mandelbrot kernel of the Rák thesis (section 3.3.1) as a CUDA
// kernel: one thread per pixel, double precision, do-while loop.
__global__ void mandelbrot(int *out, double x0, double y0, double dx,
                           double dy, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = x0 + (i % width) * dx;
  double y = y0 + (i / width) * dy;
  double z1 = 0, z2 = 0;
  int iter = 0;
  double len;
  do {
    double a = z1 * z1 - z2 * z2 + x;
    double b = 2 * z1 * z2 + y;
    z1 = a;
    z2 = b;
    len = z1 * z1 + z2 * z2;
    iter++;
  } while (iter < 200 && len < 16);
  out[i] = iter;
}
