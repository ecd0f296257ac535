func.func public @matmul(%X : memref<1x200xf64>, %Y : memref<200x5xf64>, %Z : memref<1x5xf64>) {
  %zero = arith.constant 0.0 : f64
  linalg.generic {
    indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>],
    iterator_types = ["parallel", "parallel"]
  } ins(%zero : f64) outs(%Z : memref<1x5xf64>) {
  ^bb0(%in: f64, %out: f64):
    linalg.yield %in : f64
  }
  linalg.generic {
    indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
    iterator_types = ["parallel", "parallel", "reduction"]
  } ins(%X, %Y : memref<1x200xf64>, memref<200x5xf64>) outs(%Z : memref<1x5xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y fastmath<fast> : f64
    %s = arith.addf %acc, %p fastmath<fast> : f64
    linalg.yield %s : f64
  }
  func.return
}
