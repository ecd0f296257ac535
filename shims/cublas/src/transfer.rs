//! `cublasSetVector`/`GetVector`/`SetMatrix`/`GetMatrix` and their Async
//! forms: strided copies between host and device memory, done by the
//! runtime's `cudaMemcpy2D[Async]` so device pointers are checked against
//! its memory table (a bad one is `CUBLAS_STATUS_MAPPING_ERROR`). The
//! synchronous forms copy on the legacy default stream, as cuBLAS does; the
//! Async forms on the stream given.

use std::ffi::{c_int, c_void};

use crate::call::*;
use crate::cudart::{self, MEMCPY_DEVICE_TO_HOST, MEMCPY_HOST_TO_DEVICE};
use crate::types::*;

#[allow(clippy::too_many_arguments)]
fn vector(
    n: c_int,
    elem: c_int,
    src: *const c_void,
    inc_src: c_int,
    dst: *mut c_void,
    inc_dst: c_int,
    kind: c_int,
    stream: Option<cudaStream_t>,
) -> Status {
    require(n >= 0 && elem > 0 && inc_src > 0 && inc_dst > 0)?;
    if n == 0 {
        return Ok(());
    }
    let es = elem as usize;
    match cudart::copy_2d(
        dst,
        inc_dst as usize * es,
        src,
        inc_src as usize * es,
        es,
        n as usize,
        kind,
        stream,
    ) {
        CUBLAS_STATUS_SUCCESS => Ok(()),
        e => Err(e),
    }
}

#[allow(clippy::too_many_arguments)]
fn matrix(
    rows: c_int,
    cols: c_int,
    elem: c_int,
    src: *const c_void,
    ld_src: c_int,
    dst: *mut c_void,
    ld_dst: c_int,
    kind: c_int,
    stream: Option<cudaStream_t>,
) -> Status {
    require(rows >= 0 && cols >= 0 && elem > 0)?;
    require(ld_src >= ld_min(rows) && ld_dst >= ld_min(rows))?;
    if rows == 0 || cols == 0 {
        return Ok(());
    }
    let es = elem as usize;
    match cudart::copy_2d(
        dst,
        ld_dst as usize * es,
        src,
        ld_src as usize * es,
        rows as usize * es,
        cols as usize,
        kind,
        stream,
    ) {
        CUBLAS_STATUS_SUCCESS => Ok(()),
        e => Err(e),
    }
}

api!(
    "Copies `n` elements from host vector x to device vector y.",
    fn cublasSetVector(
        n: c_int,
        elem_size: c_int,
        x: *const c_void,
        incx: c_int,
        y: *mut c_void,
        incy: c_int,
    ) {
        vector(n, elem_size, x, incx, y, incy, MEMCPY_HOST_TO_DEVICE, None)
    }
);
api!(
    "Copies `n` elements from device vector x to host vector y.",
    fn cublasGetVector(
        n: c_int,
        elem_size: c_int,
        x: *const c_void,
        incx: c_int,
        y: *mut c_void,
        incy: c_int,
    ) {
        vector(n, elem_size, x, incx, y, incy, MEMCPY_DEVICE_TO_HOST, None)
    }
);
api!(
    "`cublasSetVector` in stream order.",
    fn cublasSetVectorAsync(
        n: c_int,
        elem_size: c_int,
        x: *const c_void,
        incx: c_int,
        y: *mut c_void,
        incy: c_int,
        stream: cudaStream_t,
    ) {
        vector(
            n,
            elem_size,
            x,
            incx,
            y,
            incy,
            MEMCPY_HOST_TO_DEVICE,
            Some(stream),
        )
    }
);
api!(
    "`cublasGetVector` in stream order.",
    fn cublasGetVectorAsync(
        n: c_int,
        elem_size: c_int,
        x: *const c_void,
        incx: c_int,
        y: *mut c_void,
        incy: c_int,
        stream: cudaStream_t,
    ) {
        vector(
            n,
            elem_size,
            x,
            incx,
            y,
            incy,
            MEMCPY_DEVICE_TO_HOST,
            Some(stream),
        )
    }
);
api!(
    "Copies a `rows x cols` host matrix A to device matrix B.",
    fn cublasSetMatrix(
        rows: c_int,
        cols: c_int,
        elem_size: c_int,
        a: *const c_void,
        lda: c_int,
        b: *mut c_void,
        ldb: c_int,
    ) {
        matrix(
            rows,
            cols,
            elem_size,
            a,
            lda,
            b,
            ldb,
            MEMCPY_HOST_TO_DEVICE,
            None,
        )
    }
);
api!(
    "Copies a `rows x cols` device matrix A to host matrix B.",
    fn cublasGetMatrix(
        rows: c_int,
        cols: c_int,
        elem_size: c_int,
        a: *const c_void,
        lda: c_int,
        b: *mut c_void,
        ldb: c_int,
    ) {
        matrix(
            rows,
            cols,
            elem_size,
            a,
            lda,
            b,
            ldb,
            MEMCPY_DEVICE_TO_HOST,
            None,
        )
    }
);
api!(
    "`cublasSetMatrix` in stream order.",
    fn cublasSetMatrixAsync(
        rows: c_int,
        cols: c_int,
        elem_size: c_int,
        a: *const c_void,
        lda: c_int,
        b: *mut c_void,
        ldb: c_int,
        stream: cudaStream_t,
    ) {
        matrix(
            rows,
            cols,
            elem_size,
            a,
            lda,
            b,
            ldb,
            MEMCPY_HOST_TO_DEVICE,
            Some(stream),
        )
    }
);
api!(
    "`cublasGetMatrix` in stream order.",
    fn cublasGetMatrixAsync(
        rows: c_int,
        cols: c_int,
        elem_size: c_int,
        a: *const c_void,
        lda: c_int,
        b: *mut c_void,
        ldb: c_int,
        stream: cudaStream_t,
    ) {
        matrix(
            rows,
            cols,
            elem_size,
            a,
            lda,
            b,
            ldb,
            MEMCPY_DEVICE_TO_HOST,
            Some(stream),
        )
    }
);
