// The Python side: cucc_saxpy.saxpy_sum(n, a) -> float.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

extern "C" double saxpy_sum(int n, float a);

static PyObject *py_saxpy_sum(PyObject *, PyObject *args) {
    int n;
    float a;
    if (!PyArg_ParseTuple(args, "if", &n, &a)) return nullptr;
    if (n <= 0) {
        PyErr_SetString(PyExc_ValueError, "n must be positive");
        return nullptr;
    }
    double s = saxpy_sum(n, a);
    if (s < 0) {
        PyErr_SetString(PyExc_RuntimeError, "CUDA error");
        return nullptr;
    }
    return PyFloat_FromDouble(s);
}

static PyMethodDef methods[] = {
    {"saxpy_sum", py_saxpy_sum, METH_VARARGS, "sum of a*x + y for x = 0..n-1, y = 1"},
    {nullptr, nullptr, 0, nullptr},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "cucc_saxpy", nullptr, -1, methods};

PyMODINIT_FUNC PyInit_cucc_saxpy(void) { return PyModule_Create(&module); }
