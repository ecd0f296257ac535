func.func public @sum(%X : memref<8x16xf64>, %Y : memref<8x16xf64>, %Z : memref<8x16xf64>) {
  linalg.generic {
    indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
    iterator_types = ["parallel", "parallel"]
  } ins(%X, %Y : memref<8x16xf64>, memref<8x16xf64>) outs(%Z : memref<8x16xf64>) {
  ^bb0(%x: f64, %y: f64, %z: f64):
    %s = arith.addf %x, %y fastmath<fast> : f64
    linalg.yield %s : f64
  }
  func.return
}
