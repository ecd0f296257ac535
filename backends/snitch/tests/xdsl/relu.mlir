func.func public @relu(%X : memref<8x16xf64>, %Y : memref<8x16xf64>) {
  %zero = arith.constant 0.0 : f64
  linalg.generic {
    indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
    iterator_types = ["parallel", "parallel"]
  } ins(%X : memref<8x16xf64>) outs(%Y : memref<8x16xf64>) {
  ^bb0(%x: f64, %y: f64):
    %m = arith.maximumf %x, %zero fastmath<fast> : f64
    linalg.yield %m : f64
  }
  func.return
}
