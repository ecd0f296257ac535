// corpus: runtime-api
// CUDA graphs: a stream capture (kernels, copies, a memset, a host
// function, a fork and join through events) replayed several times, and a
// graph built node by node (kernel + memcpy + memset + host node with
// dependencies) instantiated, launched repeatedly, updated through
// cudaGraphExecKernelNodeSetParams and cudaGraphExecUpdate, and relaunched.
#include <cstdio>

__global__ void add(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}

__global__ void scale(int *p, int f, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= f;
}

#include "expect.h"

static void count_call(void *data) { ++*(int *)data; }

int main() {
    const int n = 1000;
    int *d, *e, h[n];
    EXPECT(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
    EXPECT(cudaMalloc(&e, n * sizeof(int)) == cudaSuccess);
    cudaStream_t s, s2;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);

    // --- Capture: memset, kernel, fork to s2 (kernel on e), join, copy, host fn.
    int host_calls = 0;
    cudaEvent_t fork, join;
    cudaEventCreate(&fork);
    cudaEventCreate(&join);
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusActive;
    EXPECT(cudaStreamIsCapturing(s, &st) == cudaSuccess && st == cudaStreamCaptureStatusNone);
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    EXPECT(cudaStreamIsCapturing(s, &st) == cudaSuccess && st == cudaStreamCaptureStatusActive);
    EXPECT(cudaMemsetAsync(d, 0, n * sizeof(int), s) == cudaSuccess);
    add<<<(n + 127) / 128, 128, 0, s>>>(d, 5, n);
    EXPECT(cudaEventRecord(fork, s) == cudaSuccess);
    EXPECT(cudaStreamWaitEvent(s2, fork, 0) == cudaSuccess);
    EXPECT(cudaStreamIsCapturing(s2, &st) == cudaSuccess && st == cudaStreamCaptureStatusActive);
    EXPECT(cudaMemcpyAsync(e, d, n * sizeof(int), cudaMemcpyDeviceToDevice, s2) == cudaSuccess);
    scale<<<(n + 127) / 128, 128, 0, s2>>>(e, 3, n);
    EXPECT(cudaEventRecord(join, s2) == cudaSuccess);
    EXPECT(cudaStreamWaitEvent(s, join, 0) == cudaSuccess);
    add<<<(n + 127) / 128, 128, 0, s>>>(d, 1, n);
    EXPECT(cudaLaunchHostFunc(s, count_call, &host_calls) == cudaSuccess);
    // A 3D copy of linear memory: d's first 100 ints over e's last 100.
    cudaMemcpy3DParms p3 = {};
    p3.srcPtr = make_cudaPitchedPtr(d, 400, 400, 1);
    p3.dstPtr = make_cudaPitchedPtr(e + 900, 400, 400, 1);
    p3.extent = make_cudaExtent(400, 1, 1);
    p3.kind = cudaMemcpyDeviceToDevice;
    EXPECT(cudaMemcpy3DAsync(&p3, s) == cudaSuccess);
    unsigned long long id = 0;
    cudaGraph_t captured_graph = nullptr;
    size_t ndeps = 0;
    EXPECT(cudaStreamGetCaptureInfo(s, &st, &id, &captured_graph, nullptr, nullptr, &ndeps) == cudaSuccess);
    EXPECT(st == cudaStreamCaptureStatusActive && id != 0 && captured_graph != nullptr && ndeps == 1);
    // Nothing ran yet: the work was recorded.
    EXPECT(host_calls == 0);
    cudaGraph_t g = nullptr;
    EXPECT(cudaStreamEndCapture(s, &g) == cudaSuccess && g == captured_graph);
    EXPECT(cudaStreamIsCapturing(s2, &st) == cudaSuccess && st == cudaStreamCaptureStatusNone);
    size_t count = 0;
    EXPECT(cudaGraphGetNodes(g, nullptr, &count) == cudaSuccess && count == 7);
    size_t roots = 0;
    EXPECT(cudaGraphGetRootNodes(g, nullptr, &roots) == cudaSuccess && roots == 1);

    cudaGraphExec_t ge;
    EXPECT(cudaGraphInstantiate(&ge, g, 0) == cudaSuccess);
    for (int round = 0; round < 3; ++round) {
        cudaMemset(e, 0xff, n * sizeof(int));
        EXPECT(cudaGraphLaunch(ge, s) == cudaSuccess);
        EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        EXPECT(h[0] == 6 && h[n - 1] == 6);
        cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost);
        EXPECT(h[0] == 15 && h[899] == 15);
        // Rows 900..999 of e were overwritten by d's first 100 values.
        EXPECT(h[900] == 6 && h[n - 1] == 6);
    }
    EXPECT(host_calls == 3);

    // Work that cannot be recorded invalidates the capture.
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaErrorStreamCaptureUnsupported);
    cudaGraph_t ended = (cudaGraph_t)1;
    EXPECT(cudaStreamEndCapture(s, &ended) == cudaErrorStreamCaptureInvalidated && ended == nullptr);
    EXPECT(cudaStreamEndCapture(s, &ended) != cudaSuccess);
    cudaGetLastError();

    // Capture into a graph of our own: it survives an invalidated capture.
    cudaGraph_t mine, out = nullptr;
    EXPECT(cudaGraphCreate(&mine, 0) == cudaSuccess);
    EXPECT(cudaStreamBeginCaptureToGraph(s, mine, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed) == cudaSuccess);
    add<<<1, 32, 0, s>>>(d, 1, 32);
    EXPECT(cudaStreamEndCapture(s, &out) == cudaSuccess && out == mine);
    EXPECT(cudaGraphGetNodes(mine, nullptr, &count) == cudaSuccess && count == 1);
    EXPECT(cudaStreamBeginCaptureToGraph(s, mine, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaErrorStreamCaptureUnsupported);
    EXPECT(cudaStreamEndCapture(s, &out) == cudaErrorStreamCaptureInvalidated);
    EXPECT(cudaGraphGetNodes(mine, nullptr, &count) == cudaSuccess && count == 1);
    EXPECT(cudaGraphDestroy(mine) == cudaSuccess);
    cudaGetLastError();

    // --- Explicit construction: memset -> kernel -> memcpy -> host node.
    cudaGraph_t g2;
    EXPECT(cudaGraphCreate(&g2, 0) == cudaSuccess);
    cudaMemsetParams ms = {};
    ms.dst = d;
    ms.value = 7;
    ms.elementSize = 4;
    ms.width = n;
    ms.height = 1;
    cudaGraphNode_t nset, nkern, ncopy, nhost, nempty;
    EXPECT(cudaGraphAddMemsetNode(&nset, g2, nullptr, 0, &ms) == cudaSuccess);
    int *kp = d, kv = 10, kn = n;
    void *kargs[] = {&kp, &kv, &kn};
    cudaKernelNodeParams kparams = {};
    kparams.func = (void *)add;
    kparams.gridDim = dim3((n + 127) / 128);
    kparams.blockDim = dim3(128);
    kparams.kernelParams = kargs;
    EXPECT(cudaGraphAddKernelNode(&nkern, g2, &nset, 1, &kparams) == cudaSuccess);
    kv = 999;  // arguments were copied when the node was added
    EXPECT(cudaGraphAddMemcpyNode1D(&ncopy, g2, &nkern, 1, e, d, n * sizeof(int),
                                    cudaMemcpyDeviceToDevice) == cudaSuccess);
    cudaHostNodeParams hp = {count_call, &host_calls};
    EXPECT(cudaGraphAddHostNode(&nhost, g2, &ncopy, 1, &hp) == cudaSuccess);
    EXPECT(cudaGraphAddEmptyNode(&nempty, g2, &nhost, 1) == cudaSuccess);
    // Kernel-node attributes are recorded and read back.
    cudaKernelNodeAttrValue kav = {};
    kav.priority = 3;
    EXPECT(cudaGraphKernelNodeSetAttribute(nkern, cudaKernelNodeAttributePriority, &kav) == cudaSuccess);
    cudaKernelNodeAttrValue kback = {};
    EXPECT(cudaGraphKernelNodeGetAttribute(nkern, cudaKernelNodeAttributePriority, &kback) == cudaSuccess);
    EXPECT(kback.priority == 3);
    EXPECT(cudaGraphKernelNodeSetAttribute(nset, cudaKernelNodeAttributePriority, &kav) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaGraphNodeType type;
    EXPECT(cudaGraphNodeGetType(nkern, &type) == cudaSuccess && type == cudaGraphNodeTypeKernel);
    EXPECT(cudaGraphNodeGetType(nset, &type) == cudaSuccess && type == cudaGraphNodeTypeMemset);
    size_t ndep = 0;
    EXPECT(cudaGraphNodeGetDependencies(ncopy, nullptr, nullptr, &ndep) == cudaSuccess && ndep == 1);
    cudaKernelNodeParams back = {};
    EXPECT(cudaGraphKernelNodeGetParams(nkern, &back) == cudaSuccess);
    EXPECT(back.func == (void *)add && *(int *)back.kernelParams[1] == 10);
    // A node of another graph cannot be a dependency.
    cudaGraphNode_t stray;
    EXPECT(cudaGraphAddEmptyNode(&stray, g, &nkern, 1) == cudaErrorInvalidValue);
    cudaGetLastError();

    cudaGraphExec_t ge2;
    EXPECT(cudaGraphInstantiate(&ge2, g2, 0) == cudaSuccess);
    host_calls = 0;
    for (int round = 0; round < 4; ++round) {
        cudaMemset(e, 0, n * sizeof(int));
        EXPECT(cudaGraphLaunch(ge2, s) == cudaSuccess);
        EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
        cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost);
        EXPECT(h[0] == 17 && h[n / 2] == 17 && h[n - 1] == 17);
    }
    EXPECT(host_calls == 4);

    // Update the kernel node of the executable graph only.
    int kv2 = 20;
    void *kargs2[] = {&kp, &kv2, &kn};
    kparams.kernelParams = kargs2;
    EXPECT(cudaGraphExecKernelNodeSetParams(ge2, nkern, &kparams) == cudaSuccess);
    EXPECT(cudaGraphLaunch(ge2, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost);
    EXPECT(h[0] == 27 && h[n - 1] == 27);
    // The graph itself still holds the old argument.
    EXPECT(cudaGraphKernelNodeGetParams(nkern, &back) == cudaSuccess && *(int *)back.kernelParams[1] == 10);

    // Whole-graph update from a graph of the same shape (scale instead of add).
    cudaGraph_t g3;
    EXPECT(cudaGraphClone(&g3, g2) == cudaSuccess);
    cudaGraphNode_t nodes3[5];
    size_t n3 = 5;
    EXPECT(cudaGraphGetNodes(g3, nodes3, &n3) == cudaSuccess && n3 == 5);
    int f = 3;
    void *kargs3[] = {&kp, &f, &kn};
    kparams.func = (void *)scale;
    kparams.kernelParams = kargs3;
    EXPECT(cudaGraphKernelNodeSetParams(nodes3[1], &kparams) == cudaSuccess);
    cudaGraphExecUpdateResultInfo info;
    EXPECT(cudaGraphExecUpdate(ge2, g3, &info) == cudaSuccess && info.result == cudaGraphExecUpdateSuccess);
    EXPECT(cudaGraphLaunch(ge2, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost);
    EXPECT(h[0] == 21 && h[n - 1] == 21);
    // A graph of another shape is refused.
    EXPECT(cudaGraphExecUpdate(ge2, g, &info) == cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged);
    cudaGetLastError();

    // The generic node API: a memset and a kernel node, read back, updated.
    cudaGraph_t g4;
    EXPECT(cudaGraphCreate(&g4, 0) == cudaSuccess);
    cudaGraphNodeParams np = {};
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = d;
    np.memset.value = 2;
    np.memset.elementSize = 4;
    np.memset.width = n;
    np.memset.height = 1;
    cudaGraphNode_t gset, gkern;
    EXPECT(cudaGraphAddNode(&gset, g4, nullptr, nullptr, 0, &np) == cudaSuccess);
    int kv4 = 40;
    void *kargs4[] = {&kp, &kv4, &kn};
    cudaGraphNodeParams kp4 = {};
    kp4.type = cudaGraphNodeTypeKernel;
    kp4.kernel.func = (void *)add;
    kp4.kernel.gridDim = dim3((n + 127) / 128);
    kp4.kernel.blockDim = dim3(128);
    kp4.kernel.kernelParams = kargs4;
    EXPECT(cudaGraphAddNode(&gkern, g4, &gset, nullptr, 1, &kp4) == cudaSuccess);
    cudaGraphNodeParams got = {};
    EXPECT(cudaGraphNodeGetParams(gkern, &got) == cudaSuccess && got.type == cudaGraphNodeTypeKernel);
    EXPECT(got.kernel.func == (void *)add && *(int *)got.kernel.kernelParams[1] == 40);
    EXPECT(cudaGraphNodeGetParams(gset, &got) == cudaSuccess && got.type == cudaGraphNodeTypeMemset);
    EXPECT(got.memset.value == 2 && got.memset.width == (size_t)n);
    cudaGraphExec_t ge4;
    EXPECT(cudaGraphInstantiate(&ge4, g4, 0) == cudaSuccess);
    EXPECT(cudaGraphLaunch(ge4, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    EXPECT(h[0] == 42 && h[n - 1] == 42);
    kv4 = 50;
    EXPECT(cudaGraphExecNodeSetParams(ge4, gkern, &kp4) == cudaSuccess);
    EXPECT(cudaGraphLaunch(ge4, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    EXPECT(h[0] == 52 && h[n - 1] == 52);
    np.memset.value = 9;
    EXPECT(cudaGraphNodeSetParams(gset, &np) == cudaSuccess);
    EXPECT(cudaGraphNodeGetParams(gset, &got) == cudaSuccess && got.memset.value == 9);
    // A node of another type cannot take these parameters.
    EXPECT(cudaGraphNodeSetParams(gkern, &np) == cudaErrorInvalidValue);
    cudaGetLastError();
    EXPECT(cudaGraphExecDestroy(ge4) == cudaSuccess);
    EXPECT(cudaGraphDestroy(g4) == cudaSuccess);

    // A child graph node runs the captured graph's copy.
    cudaGraph_t parent;
    cudaGraphCreate(&parent, 0);
    cudaGraphNode_t child;
    EXPECT(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, g2) == cudaSuccess);
    cudaGraphExec_t gp;
    EXPECT(cudaGraphInstantiate(&gp, parent, 0) == cudaSuccess);
    EXPECT(cudaGraphLaunch(gp, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost);
    EXPECT(h[0] == 17);

    EXPECT(cudaGraphExecDestroy(gp) == cudaSuccess);
    EXPECT(cudaGraphExecDestroy(ge) == cudaSuccess);
    EXPECT(cudaGraphExecDestroy(ge2) == cudaSuccess);
    EXPECT(cudaGraphDestroy(parent) == cudaSuccess);
    EXPECT(cudaGraphDestroy(g) == cudaSuccess);
    EXPECT(cudaGraphDestroy(g2) == cudaSuccess);
    EXPECT(cudaGraphDestroy(g3) == cudaSuccess);
    cudaEventDestroy(fork);
    cudaEventDestroy(join);
    cudaStreamDestroy(s);
    cudaStreamDestroy(s2);
    cudaFree(d);
    cudaFree(e);
    return report("api_graphs", bad);
}
