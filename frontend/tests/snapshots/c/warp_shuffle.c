/* kernel _Z8shufflesPKiPi */
void k_Z8shufflesPKiPi__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
  (void)launch; (void)block_begin; (void)block_end; (void)scratch;
  const uint32_t cucc_grid0 = launch->grid[0], cucc_grid1 = launch->grid[1], cucc_grid2 = launch->grid[2];
  const uint32_t cucc_block0 = launch->block[0], cucc_block1 = launch->block[1], cucc_block2 = launch->block[2];
  const size_t cucc_dyn_size = (size_t)launch->dynamic_shared;
  (void)cucc_grid0; (void)cucc_grid1; (void)cucc_grid2; (void)cucc_block0; (void)cucc_block1; (void)cucc_block2; (void)cucc_dyn_size;
  if (cucc_block0 - 1u >= 1024u || cucc_block1 - 1u >= 1024u || cucc_block2 - 1u >= 64u || cucc_grid0 - 1u >= 0x7fffffffu || cucc_grid1 - 1u >= 65535u || cucc_grid2 - 1u >= 65535u) __builtin_unreachable();
  char *const cucc_dyn = (char *)scratch + 0;
  (void)cucc_dyn;
  char * v_0 = *(char * *)args[0];
  char * v_1 = *(char * *)args[1];
  const uint32_t v_217 = cucc_grid0;
  const uint32_t v_218 = cucc_grid1;
  const uint32_t v_219 = cucc_grid2;
  const uint32_t v_220 = cucc_block0;
  const uint32_t v_221 = cucc_block1;
  const uint32_t v_222 = cucc_block2;
  uint32_t cucc_b0 = (uint32_t)((block_begin) % v_217);
  uint32_t cucc_b1 = (uint32_t)(((block_begin) / v_217) % v_218);
  uint32_t cucc_b2 = (uint32_t)(((block_begin) / v_217) / v_218);
  for (uint32_t blin = block_begin; blin < block_end; ++blin) {
    const uint32_t bx_223 = cucc_b0;
    const uint32_t by_224 = cucc_b1;
    const uint32_t bz_225 = cucc_b2;
    unsigned char v_265_buf[4352] __attribute__((aligned(4)));
    char *const v_265 = (char *)v_265_buf;
    unsigned char v_287_buf[4096] __attribute__((aligned(4)));
    char *const v_287 = (char *)v_287_buf;
    unsigned char v_309_buf[4352] __attribute__((aligned(4)));
    char *const v_309 = (char *)v_309_buf;
    unsigned char v_331_buf[4096] __attribute__((aligned(4)));
    char *const v_331 = (char *)v_331_buf;
    unsigned char v_357_buf[4352] __attribute__((aligned(4)));
    char *const v_357 = (char *)v_357_buf;
    unsigned char v_387_buf[4096] __attribute__((aligned(4)));
    char *const v_387 = (char *)v_387_buf;
    unsigned char v_416_buf[4352] __attribute__((aligned(4)));
    char *const v_416 = (char *)v_416_buf;
    unsigned char v_444_buf[4096] __attribute__((aligned(4)));
    char *const v_444 = (char *)v_444_buf;
    unsigned char v_479_buf[4096] __attribute__((aligned(4)));
    char *const v_479 = (char *)v_479_buf;
    unsigned char v_480_buf[4096] __attribute__((aligned(4)));
    char *const v_480 = (char *)v_480_buf;
    unsigned char v_496_buf[4096] __attribute__((aligned(4)));
    char *const v_496 = (char *)v_496_buf;
    unsigned char v_696_buf[4352] __attribute__((aligned(4)));
    char *const v_696 = (char *)v_696_buf;
    unsigned char v_728_buf[4096] __attribute__((aligned(4)));
    char *const v_728 = (char *)v_728_buf;
    unsigned char v_729_buf[4096] __attribute__((aligned(4)));
    char *const v_729 = (char *)v_729_buf;
    unsigned char v_953_buf[4352] __attribute__((aligned(4)));
    char *const v_953 = (char *)v_953_buf;
    unsigned char v_980_buf[4352] __attribute__((aligned(4)));
    char *const v_980 = (char *)v_980_buf;
    char *const v_3 = v_0;
    char *const v_5 = v_1;
    const uint32_t v_8 = cucc_block0;
    const uint32_t v_9 = (uint32_t)(bx_223 * v_8);
    const uint32_t v_229 = (uint32_t)(v_220 * v_221);
    const uint32_t v_230 = (uint32_t)(v_229 * v_222);
    const uint32_t v_231 = 0x1fu;
    const uint32_t v_232 = 0x20u;
    const uint32_t v_233 = (uint32_t)(v_230 + v_231);
    const uint32_t v_234 = (uint32_t)(v_233 / v_232);
    for (int32_t warp_235_c = 0; warp_235_c < (int32_t)v_234; ++warp_235_c) {
      const uint32_t warp_235 = (uint32_t)warp_235_c;
      const uint32_t v_236 = 0x20u;
      const uint32_t warp_base_237 = (uint32_t)(((int32_t)warp_235) * ((int32_t)v_236));
      const uint32_t v_238 = (uint32_t)(v_230 - warp_base_237);
      const uint32_t lanes_239 = (v_238 < v_236 ? v_238 : v_236);
      const uint32_t v_249 = (uint32_t)(warp_base_237 % v_220);
      const uint32_t v_250 = (uint32_t)(warp_base_237 / v_220);
      const uint32_t v_251 = (uint32_t)(v_250 % v_221);
      const uint32_t v_252 = (uint32_t)(v_250 / v_221);
      const uint32_t v_253 = (uint32_t)(v_220 - v_249);
      const bool v_254 = lanes_239 <= v_253;
#pragma GCC ivdep
      for (int32_t lane_255_c = 0; lane_255_c < (int32_t)lanes_239; ++lane_255_c) {
        const uint32_t lane_255 = (uint32_t)lane_255_c;
        uint32_t v_256;
        uint32_t v_257;
        uint32_t v_258;
        if (v_254) {
          const uint32_t v_259 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_255));
          const uint32_t v_256_next0 = v_259;
          const uint32_t v_257_next1 = v_251;
          const uint32_t v_258_next2 = v_252;
          v_256 = v_256_next0;
          v_257 = v_257_next1;
          v_258 = v_258_next2;
        } else {
          const uint32_t v_260 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_255));
          const uint32_t v_261 = (uint32_t)(v_260 % v_220);
          const uint32_t v_262 = (uint32_t)(v_260 / v_220);
          const uint32_t v_263 = (uint32_t)(v_262 % v_221);
          const uint32_t v_264 = (uint32_t)(v_262 / v_221);
          const uint32_t v_256_next0 = v_261;
          const uint32_t v_257_next1 = v_263;
          const uint32_t v_258_next2 = v_264;
          v_256 = v_256_next0;
          v_257 = v_257_next1;
          v_258 = v_258_next2;
        }
        const uint32_t v_11 = (uint32_t)(v_9 + v_256);
        const uint64_t v_19 = (uint64_t)(int64_t)((int32_t)v_11);
        char *const v_20 = v_3 + (int64_t)v_19 * 4;
        const uint32_t v_21 = *(uint32_t *)v_20;
        const uint32_t v_266 = 0x20u;
        const uint32_t v_267 = (uint32_t)(warp_base_237 + v_266);
        char *const v_268 = v_265 + (int64_t)((int32_t)v_267) * 4;
        char *const v_269 = v_268 + (int64_t)((int32_t)lane_255) * 4;
        *(uint32_t *)v_269 = v_21;
        char *const v_1044 = v_287 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_289 = v_1044 + (int64_t)((int32_t)lane_255) * 4;
        *(uint32_t *)v_289 = v_21;
      }
#pragma GCC ivdep
      for (int32_t lane_290_c = 0; lane_290_c < (int32_t)lanes_239; ++lane_290_c) {
        const uint32_t lane_290 = (uint32_t)lane_290_c;
        char *const v_1045 = v_287 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_292 = v_1045 + (int64_t)((int32_t)lane_290) * 4;
        const uint32_t v_293 = *(uint32_t *)v_292;
        uint32_t v_300;
        uint32_t v_301;
        uint32_t v_302;
        if (v_254) {
          const uint32_t v_294 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_290));
          const uint32_t v_300_next0 = v_294;
          const uint32_t v_301_next1 = v_251;
          const uint32_t v_302_next2 = v_252;
          v_300 = v_300_next0;
          v_301 = v_301_next1;
          v_302 = v_302_next2;
        } else {
          const uint32_t v_295 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_290));
          const uint32_t v_296 = (uint32_t)(v_295 % v_220);
          const uint32_t v_297 = (uint32_t)(v_295 / v_220);
          const uint32_t v_298 = (uint32_t)(v_297 % v_221);
          const uint32_t v_299 = (uint32_t)(v_297 / v_221);
          const uint32_t v_300_next0 = v_296;
          const uint32_t v_301_next1 = v_298;
          const uint32_t v_302_next2 = v_299;
          v_300 = v_300_next0;
          v_301 = v_301_next1;
          v_302 = v_302_next2;
        }
        const uint32_t v_305 = 0x20u;
        const uint32_t v_308 = 0x3u;
        const uint32_t v_270 = 0x1u;
        const uint32_t v_271 = (uint32_t)(v_305 - v_270);
        const uint32_t v_272 = 0xffffffffu;
        const uint32_t v_273 = (uint32_t)(v_271 ^ v_272);
        const uint32_t v_274 = (uint32_t)(lane_290 & v_273);
        const uint32_t v_276 = (uint32_t)(v_308 & v_271);
        const uint32_t v_277 = (uint32_t)(v_274 + v_276);
        const bool v_278 = true;
        const bool v_279 = v_277 < lanes_239;
        const bool v_280 = (bool)(v_278 & v_279);
        const uint32_t v_281 = 0x20u;
        const uint32_t v_282 = (uint32_t)(warp_base_237 + v_281);
        char *const v_283 = v_265 + (int64_t)((int32_t)v_282) * 4;
        const uint32_t v_284 = v_280 ? v_277 : lane_290;
        char *const v_285 = v_283 + (int64_t)((int32_t)v_284) * 4;
        const uint32_t v_286 = *(uint32_t *)v_285;
        const uint32_t v_310 = 0x20u;
        const uint32_t v_311 = (uint32_t)(warp_base_237 + v_310);
        char *const v_312 = v_309 + (int64_t)((int32_t)v_311) * 4;
        char *const v_313 = v_312 + (int64_t)((int32_t)lane_290) * 4;
        *(uint32_t *)v_313 = v_293;
        char *const v_1046 = v_331 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_333 = v_1046 + (int64_t)((int32_t)lane_290) * 4;
        *(uint32_t *)v_333 = v_286;
      }
#pragma GCC ivdep
      for (int32_t lane_334_c = 0; lane_334_c < (int32_t)lanes_239; ++lane_334_c) {
        const uint32_t lane_334 = (uint32_t)lane_334_c;
        char *const v_1048 = v_287 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_339 = v_1048 + (int64_t)((int32_t)lane_334) * 4;
        const uint32_t v_340 = *(uint32_t *)v_339;
        uint32_t v_347;
        uint32_t v_348;
        uint32_t v_349;
        if (v_254) {
          const uint32_t v_341 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_334));
          const uint32_t v_347_next0 = v_341;
          const uint32_t v_348_next1 = v_251;
          const uint32_t v_349_next2 = v_252;
          v_347 = v_347_next0;
          v_348 = v_348_next1;
          v_349 = v_349_next2;
        } else {
          const uint32_t v_342 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_334));
          const uint32_t v_343 = (uint32_t)(v_342 % v_220);
          const uint32_t v_344 = (uint32_t)(v_342 / v_220);
          const uint32_t v_345 = (uint32_t)(v_344 % v_221);
          const uint32_t v_346 = (uint32_t)(v_344 / v_221);
          const uint32_t v_347_next0 = v_343;
          const uint32_t v_348_next1 = v_345;
          const uint32_t v_349_next2 = v_346;
          v_347 = v_347_next0;
          v_348 = v_348_next1;
          v_349 = v_349_next2;
        }
        const uint32_t v_350 = 0x0u;
        const uint32_t v_356 = 0x8u;
        const uint32_t v_314 = 0x1u;
        const uint32_t v_315 = (uint32_t)(v_356 - v_314);
        const uint32_t v_316 = 0xffffffffu;
        const uint32_t v_317 = (uint32_t)(v_315 ^ v_316);
        const uint32_t v_318 = (uint32_t)(lane_334 & v_317);
        const uint32_t v_320 = (uint32_t)(v_350 & v_315);
        const uint32_t v_321 = (uint32_t)(v_318 + v_320);
        const bool v_322 = true;
        const bool v_323 = v_321 < lanes_239;
        const bool v_324 = (bool)(v_322 & v_323);
        const uint32_t v_325 = 0x20u;
        const uint32_t v_326 = (uint32_t)(warp_base_237 + v_325);
        char *const v_327 = v_309 + (int64_t)((int32_t)v_326) * 4;
        const uint32_t v_328 = v_324 ? v_321 : lane_334;
        char *const v_329 = v_327 + (int64_t)((int32_t)v_328) * 4;
        const uint32_t v_330 = *(uint32_t *)v_329;
        const uint32_t v_358 = 0x20u;
        const uint32_t v_359 = (uint32_t)(warp_base_237 + v_358);
        char *const v_360 = v_357 + (int64_t)((int32_t)v_359) * 4;
        char *const v_361 = v_360 + (int64_t)((int32_t)lane_334) * 4;
        *(uint32_t *)v_361 = v_340;
        char *const v_1049 = v_387 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_389 = v_1049 + (int64_t)((int32_t)lane_334) * 4;
        *(uint32_t *)v_389 = v_330;
      }
#pragma GCC ivdep
      for (int32_t lane_390_c = 0; lane_390_c < (int32_t)lanes_239; ++lane_390_c) {
        const uint32_t lane_390 = (uint32_t)lane_390_c;
        char *const v_1052 = v_287 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_398 = v_1052 + (int64_t)((int32_t)lane_390) * 4;
        const uint32_t v_399 = *(uint32_t *)v_398;
        uint32_t v_406;
        uint32_t v_407;
        uint32_t v_408;
        if (v_254) {
          const uint32_t v_400 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_390));
          const uint32_t v_406_next0 = v_400;
          const uint32_t v_407_next1 = v_251;
          const uint32_t v_408_next2 = v_252;
          v_406 = v_406_next0;
          v_407 = v_407_next1;
          v_408 = v_408_next2;
        } else {
          const uint32_t v_401 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_390));
          const uint32_t v_402 = (uint32_t)(v_401 % v_220);
          const uint32_t v_403 = (uint32_t)(v_401 / v_220);
          const uint32_t v_404 = (uint32_t)(v_403 % v_221);
          const uint32_t v_405 = (uint32_t)(v_403 / v_221);
          const uint32_t v_406_next0 = v_402;
          const uint32_t v_407_next1 = v_404;
          const uint32_t v_408_next2 = v_405;
          v_406 = v_406_next0;
          v_407 = v_407_next1;
          v_408 = v_408_next2;
        }
        const uint32_t v_409 = 0x0u;
        const uint32_t v_411 = 0x20u;
        const uint32_t v_412 = (uint32_t)(v_406 % v_411);
        const uint32_t v_415 = 0x1u;
        const uint32_t v_362 = 0x1u;
        const uint32_t v_363 = (uint32_t)(v_411 - v_362);
        const uint32_t v_364 = 0xffffffffu;
        const uint32_t v_365 = (uint32_t)(v_363 ^ v_364);
        const uint32_t v_366 = (uint32_t)(lane_390 & v_365);
        const uint32_t v_368 = (uint32_t)(lane_390 - v_415);
        const bool v_369 = ((int32_t)v_368) >= ((int32_t)v_366);
        const bool v_370 = v_368 < lanes_239;
        const bool v_371 = (bool)(v_369 & v_370);
        const uint32_t v_372 = 0x20u;
        const uint32_t v_373 = (uint32_t)(warp_base_237 + v_372);
        char *const v_374 = v_357 + (int64_t)((int32_t)v_373) * 4;
        const uint32_t v_375 = 0x0u;
        const uint32_t v_376 = (uint32_t)(v_375 - v_415);
        const uint32_t v_377 = 0x20u;
        const uint32_t v_378 = 0xffffffe0u;
        const uint32_t v_379 = (uint32_t)(((int32_t)v_376) < ((int32_t)v_377) ? ((int32_t)v_376) : ((int32_t)v_377));
        const uint32_t v_380 = (uint32_t)(((int32_t)v_379) > ((int32_t)v_378) ? ((int32_t)v_379) : ((int32_t)v_378));
        char *const v_381 = v_374 + (int64_t)((int32_t)v_380) * 4;
        char *const v_382 = v_381 + (int64_t)((int32_t)lane_390) * 4;
        const uint32_t v_383 = *(uint32_t *)v_382;
        char *const v_384 = v_374 + (int64_t)((int32_t)lane_390) * 4;
        const uint32_t v_385 = *(uint32_t *)v_384;
        const uint32_t v_386 = v_371 ? v_383 : v_385;
        const bool v_42 = v_412 == v_409;
        uint32_t v_192;
        if (v_42) {
          v_192 = v_409;
        } else {
          v_192 = v_386;
        }
        const uint32_t v_417 = 0x20u;
        const uint32_t v_418 = (uint32_t)(warp_base_237 + v_417);
        char *const v_419 = v_416 + (int64_t)((int32_t)v_418) * 4;
        char *const v_420 = v_419 + (int64_t)((int32_t)lane_390) * 4;
        *(uint32_t *)v_420 = v_399;
        char *const v_1053 = v_444 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_446 = v_1053 + (int64_t)((int32_t)lane_390) * 4;
        *(uint32_t *)v_446 = v_386;
      }
#pragma GCC ivdep
      for (int32_t lane_447_c = 0; lane_447_c < (int32_t)lanes_239; ++lane_447_c) {
        const uint32_t lane_447 = (uint32_t)lane_447_c;
        char *const v_1054 = v_444 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_449 = v_1054 + (int64_t)((int32_t)lane_447) * 4;
        const uint32_t v_450 = *(uint32_t *)v_449;
        char *const v_1057 = v_287 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_458 = v_1057 + (int64_t)((int32_t)lane_447) * 4;
        const uint32_t v_459 = *(uint32_t *)v_458;
        uint32_t v_466;
        uint32_t v_467;
        uint32_t v_468;
        if (v_254) {
          const uint32_t v_460 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_447));
          const uint32_t v_466_next0 = v_460;
          const uint32_t v_467_next1 = v_251;
          const uint32_t v_468_next2 = v_252;
          v_466 = v_466_next0;
          v_467 = v_467_next1;
          v_468 = v_468_next2;
        } else {
          const uint32_t v_461 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_447));
          const uint32_t v_462 = (uint32_t)(v_461 % v_220);
          const uint32_t v_463 = (uint32_t)(v_461 / v_220);
          const uint32_t v_464 = (uint32_t)(v_463 % v_221);
          const uint32_t v_465 = (uint32_t)(v_463 / v_221);
          const uint32_t v_466_next0 = v_462;
          const uint32_t v_467_next1 = v_464;
          const uint32_t v_468_next2 = v_465;
          v_466 = v_466_next0;
          v_467 = v_467_next1;
          v_468 = v_468_next2;
        }
        const uint32_t v_469 = 0x0u;
        const uint32_t v_471 = 0x20u;
        const uint32_t v_472 = (uint32_t)(v_466 % v_471);
        const bool v_476 = v_472 == v_469;
        uint32_t v_477;
        if (v_476) {
          v_477 = v_469;
        } else {
          v_477 = v_450;
        }
        const uint32_t v_478 = 0x2u;
        const uint32_t v_421 = 0x1u;
        const uint32_t v_422 = (uint32_t)(v_471 - v_421);
        const uint32_t v_423 = 0xffffffffu;
        const uint32_t v_424 = (uint32_t)(v_422 ^ v_423);
        const uint32_t v_425 = (uint32_t)(lane_447 & v_424);
        const uint32_t v_426 = (uint32_t)(v_425 + v_471);
        const uint32_t v_427 = (uint32_t)(lane_447 + v_478);
        const bool v_428 = ((int32_t)v_427) < ((int32_t)v_426);
        const bool v_429 = v_427 < lanes_239;
        const bool v_430 = (bool)(v_428 & v_429);
        const uint32_t v_431 = 0x20u;
        const uint32_t v_432 = (uint32_t)(warp_base_237 + v_431);
        char *const v_433 = v_416 + (int64_t)((int32_t)v_432) * 4;
        const uint32_t v_434 = 0x20u;
        const uint32_t v_435 = 0xffffffe0u;
        const uint32_t v_436 = (uint32_t)(((int32_t)v_478) < ((int32_t)v_434) ? ((int32_t)v_478) : ((int32_t)v_434));
        const uint32_t v_437 = (uint32_t)(((int32_t)v_436) > ((int32_t)v_435) ? ((int32_t)v_436) : ((int32_t)v_435));
        char *const v_438 = v_433 + (int64_t)((int32_t)v_437) * 4;
        char *const v_439 = v_438 + (int64_t)((int32_t)lane_447) * 4;
        const uint32_t v_440 = *(uint32_t *)v_439;
        char *const v_441 = v_433 + (int64_t)((int32_t)lane_447) * 4;
        const uint32_t v_442 = *(uint32_t *)v_441;
        const uint32_t v_443 = v_430 ? v_440 : v_442;
        const uint32_t v_52 = 0x1eu;
        const bool v_53 = ((int32_t)v_472) >= ((int32_t)v_52);
        uint32_t v_194;
        if (v_53) {
          v_194 = v_469;
        } else {
          v_194 = v_443;
        }
        char *const v_1058 = v_479 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_482 = v_1058 + (int64_t)((int32_t)lane_447) * 4;
        *(uint32_t *)v_482 = v_459;
        char *const v_1059 = v_496 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_498 = v_1059 + (int64_t)((int32_t)lane_447) * 4;
        *(uint32_t *)v_498 = v_443;
      }
      const uint32_t v_576 = 0x0u;
      const uint32_t v_577 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)v_576));
      char *const v_578 = v_496 + (((int64_t)((int32_t)warp_235) * INT64_C(32)) + INT64_C(0)) * 4;
      const uint32_t v_579 = *(uint32_t *)v_578;
      const uint32_t v_580 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)v_576));
      char *const v_581 = v_444 + (((int64_t)((int32_t)warp_235) * INT64_C(32)) + INT64_C(0)) * 4;
      const uint32_t v_582 = *(uint32_t *)v_581;
      uint32_t v_598;
      uint32_t v_599;
      uint32_t v_600;
      if (v_254) {
        const uint32_t v_592 = (uint32_t)(((int32_t)v_249) + ((int32_t)v_576));
        const uint32_t v_598_next0 = v_592;
        const uint32_t v_599_next1 = v_251;
        const uint32_t v_600_next2 = v_252;
        v_598 = v_598_next0;
        v_599 = v_599_next1;
        v_600 = v_600_next2;
      } else {
        const uint32_t v_593 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)v_576));
        const uint32_t v_594 = (uint32_t)(v_593 % v_220);
        const uint32_t v_595 = (uint32_t)(v_593 / v_220);
        const uint32_t v_596 = (uint32_t)(v_595 % v_221);
        const uint32_t v_597 = (uint32_t)(v_595 / v_221);
        const uint32_t v_598_next0 = v_594;
        const uint32_t v_599_next1 = v_596;
        const uint32_t v_600_next2 = v_597;
        v_598 = v_598_next0;
        v_599 = v_599_next1;
        v_600 = v_600_next2;
      }
      const uint32_t v_601 = 0x0u;
      const uint32_t v_603 = 0x20u;
      const uint32_t v_604 = (uint32_t)(v_598 % v_603);
      const bool v_608 = v_604 == v_601;
      uint32_t v_609;
      if (v_608) {
        v_609 = v_601;
      } else {
        v_609 = v_582;
      }
      const uint32_t v_611 = 0x1eu;
      const bool v_612 = ((int32_t)v_604) >= ((int32_t)v_611);
      uint32_t v_613;
      if (v_612) {
        v_613 = v_601;
      } else {
        v_613 = v_579;
      }
      const uint32_t v_614 = 0x10u;
      uint32_t v_615 = v_614;
      uint32_t v_655;
      for (;;) {
        const uint32_t v_641 = 0x0u;
        const uint32_t v_643 = 0x20u;
        const uint32_t v_651 = 0x1eu;
        const bool v_62 = ((int32_t)v_615) > ((int32_t)v_641);
#pragma GCC ivdep
        for (int32_t lane_616_c = 0; lane_616_c < (int32_t)lanes_239; ++lane_616_c) {
          const uint32_t lane_616 = (uint32_t)lane_616_c;
          char *const v_1060 = v_496 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_618 = v_1060 + (int64_t)((int32_t)lane_616) * 4;
          const uint32_t v_619 = *(uint32_t *)v_618;
          char *const v_1061 = v_444 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_621 = v_1061 + (int64_t)((int32_t)lane_616) * 4;
          const uint32_t v_622 = *(uint32_t *)v_621;
          uint32_t v_638;
          uint32_t v_639;
          uint32_t v_640;
          if (v_254) {
            const uint32_t v_632 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_616));
            const uint32_t v_638_next0 = v_632;
            const uint32_t v_639_next1 = v_251;
            const uint32_t v_640_next2 = v_252;
            v_638 = v_638_next0;
            v_639 = v_639_next1;
            v_640 = v_640_next2;
          } else {
            const uint32_t v_633 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_616));
            const uint32_t v_634 = (uint32_t)(v_633 % v_220);
            const uint32_t v_635 = (uint32_t)(v_633 / v_220);
            const uint32_t v_636 = (uint32_t)(v_635 % v_221);
            const uint32_t v_637 = (uint32_t)(v_635 / v_221);
            const uint32_t v_638_next0 = v_634;
            const uint32_t v_639_next1 = v_636;
            const uint32_t v_640_next2 = v_637;
            v_638 = v_638_next0;
            v_639 = v_639_next1;
            v_640 = v_640_next2;
          }
          const uint32_t v_644 = (uint32_t)(v_638 % v_643);
          const bool v_648 = v_644 == v_641;
          uint32_t v_649;
          if (v_648) {
            v_649 = v_641;
          } else {
            v_649 = v_622;
          }
          const bool v_652 = ((int32_t)v_644) >= ((int32_t)v_651);
          uint32_t v_653;
          if (v_652) {
            v_653 = v_641;
          } else {
            v_653 = v_619;
          }
          char *const v_1065 = v_479 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_484 = v_1065 + (int64_t)((int32_t)lane_616) * 4;
          const uint32_t v_485 = *(uint32_t *)v_484;
          char *const v_1066 = v_480 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_487 = v_1066 + (int64_t)((int32_t)lane_616) * 4;
          *(uint32_t *)v_487 = v_485;
        }
        v_655 = v_615;
        if (!v_62) break;
        const uint32_t v_681 = 0x0u;
        const uint32_t v_683 = 0x20u;
        const uint32_t v_687 = 0x1u;
        const uint32_t v_691 = 0x1eu;
        const uint32_t v_73 = (uint32_t)(((int32_t)v_655) >> v_687);
#pragma GCC ivdep
        for (int32_t lane_656_c = 0; lane_656_c < (int32_t)lanes_239; ++lane_656_c) {
          const uint32_t lane_656 = (uint32_t)lane_656_c;
          char *const v_1067 = v_496 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_658 = v_1067 + (int64_t)((int32_t)lane_656) * 4;
          const uint32_t v_659 = *(uint32_t *)v_658;
          char *const v_1068 = v_444 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_661 = v_1068 + (int64_t)((int32_t)lane_656) * 4;
          const uint32_t v_662 = *(uint32_t *)v_661;
          uint32_t v_678;
          uint32_t v_679;
          uint32_t v_680;
          if (v_254) {
            const uint32_t v_672 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_656));
            const uint32_t v_678_next0 = v_672;
            const uint32_t v_679_next1 = v_251;
            const uint32_t v_680_next2 = v_252;
            v_678 = v_678_next0;
            v_679 = v_679_next1;
            v_680 = v_680_next2;
          } else {
            const uint32_t v_673 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_656));
            const uint32_t v_674 = (uint32_t)(v_673 % v_220);
            const uint32_t v_675 = (uint32_t)(v_673 / v_220);
            const uint32_t v_676 = (uint32_t)(v_675 % v_221);
            const uint32_t v_677 = (uint32_t)(v_675 / v_221);
            const uint32_t v_678_next0 = v_674;
            const uint32_t v_679_next1 = v_676;
            const uint32_t v_680_next2 = v_677;
            v_678 = v_678_next0;
            v_679 = v_679_next1;
            v_680 = v_680_next2;
          }
          const uint32_t v_684 = (uint32_t)(v_678 % v_683);
          const bool v_688 = v_684 == v_681;
          uint32_t v_689;
          if (v_688) {
            v_689 = v_681;
          } else {
            v_689 = v_662;
          }
          const bool v_692 = ((int32_t)v_684) >= ((int32_t)v_691);
          uint32_t v_693;
          if (v_692) {
            v_693 = v_681;
          } else {
            v_693 = v_659;
          }
          char *const v_1072 = v_480 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_489 = v_1072 + (int64_t)((int32_t)lane_656) * 4;
          const uint32_t v_490 = *(uint32_t *)v_489;
          const uint32_t v_697 = 0x20u;
          const uint32_t v_698 = (uint32_t)(warp_base_237 + v_697);
          char *const v_699 = v_696 + (int64_t)((int32_t)v_698) * 4;
          char *const v_700 = v_699 + (int64_t)((int32_t)lane_656) * 4;
          *(uint32_t *)v_700 = v_490;
        }
#pragma GCC ivdep
        for (int32_t lane_724_c = 0; lane_724_c < (int32_t)lanes_239; ++lane_724_c) {
          const uint32_t lane_724 = (uint32_t)lane_724_c;
          char *const v_1073 = v_480 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_726 = v_1073 + (int64_t)((int32_t)lane_724) * 4;
          const uint32_t v_727 = *(uint32_t *)v_726;
          const uint32_t v_701 = 0x1u;
          const uint32_t v_702 = (uint32_t)(v_683 - v_701);
          const uint32_t v_703 = 0xffffffffu;
          const uint32_t v_704 = (uint32_t)(v_702 ^ v_703);
          const uint32_t v_705 = (uint32_t)(lane_724 & v_704);
          const uint32_t v_706 = (uint32_t)(v_705 + v_683);
          const uint32_t v_707 = (uint32_t)(lane_724 + v_655);
          const bool v_708 = ((int32_t)v_707) < ((int32_t)v_706);
          const bool v_709 = v_707 < lanes_239;
          const bool v_710 = (bool)(v_708 & v_709);
          const uint32_t v_711 = 0x20u;
          const uint32_t v_712 = (uint32_t)(warp_base_237 + v_711);
          char *const v_713 = v_696 + (int64_t)((int32_t)v_712) * 4;
          const uint32_t v_714 = 0x20u;
          const uint32_t v_715 = 0xffffffe0u;
          const uint32_t v_716 = (uint32_t)(((int32_t)v_655) < ((int32_t)v_714) ? ((int32_t)v_655) : ((int32_t)v_714));
          const uint32_t v_717 = (uint32_t)(((int32_t)v_716) > ((int32_t)v_715) ? ((int32_t)v_716) : ((int32_t)v_715));
          char *const v_718 = v_713 + (int64_t)((int32_t)v_717) * 4;
          char *const v_719 = v_718 + (int64_t)((int32_t)lane_724) * 4;
          const uint32_t v_720 = *(uint32_t *)v_719;
          char *const v_721 = v_713 + (int64_t)((int32_t)lane_724) * 4;
          const uint32_t v_722 = *(uint32_t *)v_721;
          const uint32_t v_723 = v_710 ? v_720 : v_722;
          const uint32_t v_69 = (uint32_t)(((int32_t)v_727) + ((int32_t)v_723));
          char *const v_1074 = v_479 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_492 = v_1074 + (int64_t)((int32_t)lane_724) * 4;
          *(uint32_t *)v_492 = v_69;
        }
        v_615 = v_73;
      }
      const uint32_t v_695 = v_655;
#pragma GCC ivdep
      for (int32_t lane_538_c = 0; lane_538_c < (int32_t)lanes_239; ++lane_538_c) {
        const uint32_t lane_538 = (uint32_t)lane_538_c;
        char *const v_1075 = v_496 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_540 = v_1075 + (int64_t)((int32_t)lane_538) * 4;
        const uint32_t v_541 = *(uint32_t *)v_540;
        char *const v_1076 = v_444 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_543 = v_1076 + (int64_t)((int32_t)lane_538) * 4;
        const uint32_t v_544 = *(uint32_t *)v_543;
        char *const v_1079 = v_287 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_552 = v_1079 + (int64_t)((int32_t)lane_538) * 4;
        const uint32_t v_553 = *(uint32_t *)v_552;
        uint32_t v_560;
        uint32_t v_561;
        uint32_t v_562;
        if (v_254) {
          const uint32_t v_554 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_538));
          const uint32_t v_560_next0 = v_554;
          const uint32_t v_561_next1 = v_251;
          const uint32_t v_562_next2 = v_252;
          v_560 = v_560_next0;
          v_561 = v_561_next1;
          v_562 = v_562_next2;
        } else {
          const uint32_t v_555 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_538));
          const uint32_t v_556 = (uint32_t)(v_555 % v_220);
          const uint32_t v_557 = (uint32_t)(v_555 / v_220);
          const uint32_t v_558 = (uint32_t)(v_557 % v_221);
          const uint32_t v_559 = (uint32_t)(v_557 / v_221);
          const uint32_t v_560_next0 = v_556;
          const uint32_t v_561_next1 = v_558;
          const uint32_t v_562_next2 = v_559;
          v_560 = v_560_next0;
          v_561 = v_561_next1;
          v_562 = v_562_next2;
        }
        const uint32_t v_563 = 0x0u;
        const uint32_t v_565 = 0x20u;
        const uint32_t v_566 = (uint32_t)(v_560 % v_565);
        const bool v_570 = v_566 == v_563;
        uint32_t v_571;
        if (v_570) {
          v_571 = v_563;
        } else {
          v_571 = v_544;
        }
        const uint32_t v_573 = 0x1eu;
        const bool v_574 = ((int32_t)v_566) >= ((int32_t)v_573);
        uint32_t v_575;
        if (v_574) {
          v_575 = v_563;
        } else {
          v_575 = v_541;
        }
        char *const v_1081 = v_728 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_731 = v_1081 + (int64_t)((int32_t)lane_538) * 4;
        *(uint32_t *)v_731 = v_553;
      }
      const uint32_t v_827 = 0x0u;
      const uint32_t v_828 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)v_827));
      char *const v_829 = v_496 + (((int64_t)((int32_t)warp_235) * INT64_C(32)) + INT64_C(0)) * 4;
      const uint32_t v_830 = *(uint32_t *)v_829;
      const uint32_t v_831 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)v_827));
      char *const v_832 = v_444 + (((int64_t)((int32_t)warp_235) * INT64_C(32)) + INT64_C(0)) * 4;
      const uint32_t v_833 = *(uint32_t *)v_832;
      uint32_t v_849;
      uint32_t v_850;
      uint32_t v_851;
      if (v_254) {
        const uint32_t v_843 = (uint32_t)(((int32_t)v_249) + ((int32_t)v_827));
        const uint32_t v_849_next0 = v_843;
        const uint32_t v_850_next1 = v_251;
        const uint32_t v_851_next2 = v_252;
        v_849 = v_849_next0;
        v_850 = v_850_next1;
        v_851 = v_851_next2;
      } else {
        const uint32_t v_844 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)v_827));
        const uint32_t v_845 = (uint32_t)(v_844 % v_220);
        const uint32_t v_846 = (uint32_t)(v_844 / v_220);
        const uint32_t v_847 = (uint32_t)(v_846 % v_221);
        const uint32_t v_848 = (uint32_t)(v_846 / v_221);
        const uint32_t v_849_next0 = v_845;
        const uint32_t v_850_next1 = v_847;
        const uint32_t v_851_next2 = v_848;
        v_849 = v_849_next0;
        v_850 = v_850_next1;
        v_851 = v_851_next2;
      }
      const uint32_t v_852 = 0x0u;
      const uint32_t v_854 = 0x20u;
      const uint32_t v_855 = (uint32_t)(v_849 % v_854);
      const uint32_t v_858 = 0x1u;
      const bool v_859 = v_855 == v_852;
      uint32_t v_860;
      if (v_859) {
        v_860 = v_852;
      } else {
        v_860 = v_833;
      }
      const uint32_t v_862 = 0x1eu;
      const bool v_863 = ((int32_t)v_855) >= ((int32_t)v_862);
      uint32_t v_864;
      if (v_863) {
        v_864 = v_852;
      } else {
        v_864 = v_830;
      }
      uint32_t v_868 = v_858;
      uint32_t v_910;
      for (;;) {
        const uint32_t v_894 = 0x0u;
        const uint32_t v_896 = 0x20u;
        const uint32_t v_904 = 0x1eu;
        const bool v_81 = ((int32_t)v_868) < ((int32_t)v_896);
#pragma GCC ivdep
        for (int32_t lane_869_c = 0; lane_869_c < (int32_t)lanes_239; ++lane_869_c) {
          const uint32_t lane_869 = (uint32_t)lane_869_c;
          char *const v_1082 = v_496 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_871 = v_1082 + (int64_t)((int32_t)lane_869) * 4;
          const uint32_t v_872 = *(uint32_t *)v_871;
          char *const v_1083 = v_444 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_874 = v_1083 + (int64_t)((int32_t)lane_869) * 4;
          const uint32_t v_875 = *(uint32_t *)v_874;
          uint32_t v_891;
          uint32_t v_892;
          uint32_t v_893;
          if (v_254) {
            const uint32_t v_885 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_869));
            const uint32_t v_891_next0 = v_885;
            const uint32_t v_892_next1 = v_251;
            const uint32_t v_893_next2 = v_252;
            v_891 = v_891_next0;
            v_892 = v_892_next1;
            v_893 = v_893_next2;
          } else {
            const uint32_t v_886 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_869));
            const uint32_t v_887 = (uint32_t)(v_886 % v_220);
            const uint32_t v_888 = (uint32_t)(v_886 / v_220);
            const uint32_t v_889 = (uint32_t)(v_888 % v_221);
            const uint32_t v_890 = (uint32_t)(v_888 / v_221);
            const uint32_t v_891_next0 = v_887;
            const uint32_t v_892_next1 = v_889;
            const uint32_t v_893_next2 = v_890;
            v_891 = v_891_next0;
            v_892 = v_892_next1;
            v_893 = v_893_next2;
          }
          const uint32_t v_897 = (uint32_t)(v_891 % v_896);
          const bool v_901 = v_897 == v_894;
          uint32_t v_902;
          if (v_901) {
            v_902 = v_894;
          } else {
            v_902 = v_875;
          }
          const bool v_905 = ((int32_t)v_897) >= ((int32_t)v_904);
          uint32_t v_906;
          if (v_905) {
            v_906 = v_894;
          } else {
            v_906 = v_872;
          }
          char *const v_1088 = v_728 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_733 = v_1088 + (int64_t)((int32_t)lane_869) * 4;
          const uint32_t v_734 = *(uint32_t *)v_733;
          char *const v_1089 = v_729 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_736 = v_1089 + (int64_t)((int32_t)lane_869) * 4;
          *(uint32_t *)v_736 = v_734;
        }
        v_910 = v_868;
        if (!v_81) break;
        const uint32_t v_936 = 0x0u;
        const uint32_t v_938 = 0x20u;
        const uint32_t v_942 = 0x1u;
        const uint32_t v_946 = 0x1eu;
        const uint32_t v_98 = (uint32_t)(v_910 << v_942);
#pragma GCC ivdep
        for (int32_t lane_911_c = 0; lane_911_c < (int32_t)lanes_239; ++lane_911_c) {
          const uint32_t lane_911 = (uint32_t)lane_911_c;
          char *const v_1090 = v_496 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_913 = v_1090 + (int64_t)((int32_t)lane_911) * 4;
          const uint32_t v_914 = *(uint32_t *)v_913;
          char *const v_1091 = v_444 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_916 = v_1091 + (int64_t)((int32_t)lane_911) * 4;
          const uint32_t v_917 = *(uint32_t *)v_916;
          uint32_t v_933;
          uint32_t v_934;
          uint32_t v_935;
          if (v_254) {
            const uint32_t v_927 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_911));
            const uint32_t v_933_next0 = v_927;
            const uint32_t v_934_next1 = v_251;
            const uint32_t v_935_next2 = v_252;
            v_933 = v_933_next0;
            v_934 = v_934_next1;
            v_935 = v_935_next2;
          } else {
            const uint32_t v_928 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_911));
            const uint32_t v_929 = (uint32_t)(v_928 % v_220);
            const uint32_t v_930 = (uint32_t)(v_928 / v_220);
            const uint32_t v_931 = (uint32_t)(v_930 % v_221);
            const uint32_t v_932 = (uint32_t)(v_930 / v_221);
            const uint32_t v_933_next0 = v_929;
            const uint32_t v_934_next1 = v_931;
            const uint32_t v_935_next2 = v_932;
            v_933 = v_933_next0;
            v_934 = v_934_next1;
            v_935 = v_935_next2;
          }
          const uint32_t v_939 = (uint32_t)(v_933 % v_938);
          const bool v_943 = v_939 == v_936;
          uint32_t v_944;
          if (v_943) {
            v_944 = v_936;
          } else {
            v_944 = v_917;
          }
          const bool v_947 = ((int32_t)v_939) >= ((int32_t)v_946);
          uint32_t v_948;
          if (v_947) {
            v_948 = v_936;
          } else {
            v_948 = v_914;
          }
          char *const v_1096 = v_729 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_738 = v_1096 + (int64_t)((int32_t)lane_911) * 4;
          const uint32_t v_739 = *(uint32_t *)v_738;
          const uint32_t v_954 = 0x20u;
          const uint32_t v_955 = (uint32_t)(warp_base_237 + v_954);
          char *const v_956 = v_953 + (int64_t)((int32_t)v_955) * 4;
          char *const v_957 = v_956 + (int64_t)((int32_t)lane_911) * 4;
          *(uint32_t *)v_957 = v_739;
        }
#pragma GCC ivdep
        for (int32_t lane_976_c = 0; lane_976_c < (int32_t)lanes_239; ++lane_976_c) {
          const uint32_t lane_976 = (uint32_t)lane_976_c;
          char *const v_1097 = v_729 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_978 = v_1097 + (int64_t)((int32_t)lane_976) * 4;
          const uint32_t v_979 = *(uint32_t *)v_978;
          const uint32_t v_958 = 0x1u;
          const uint32_t v_959 = (uint32_t)(v_938 - v_958);
          const uint32_t v_960 = 0xffffffffu;
          const uint32_t v_961 = (uint32_t)(v_959 ^ v_960);
          const uint32_t v_962 = (uint32_t)(lane_976 & v_961);
          const uint32_t v_963 = (uint32_t)(v_962 + v_938);
          const uint32_t v_964 = (uint32_t)(lane_976 ^ v_910);
          const bool v_965 = ((int32_t)v_964) >= ((int32_t)v_962);
          const bool v_966 = ((int32_t)v_964) < ((int32_t)v_963);
          const bool v_967 = (bool)(v_965 & v_966);
          const bool v_968 = v_964 < lanes_239;
          const bool v_969 = (bool)(v_967 & v_968);
          const uint32_t v_970 = 0x20u;
          const uint32_t v_971 = (uint32_t)(warp_base_237 + v_970);
          char *const v_972 = v_953 + (int64_t)((int32_t)v_971) * 4;
          const uint32_t v_973 = v_969 ? v_964 : lane_976;
          char *const v_974 = v_972 + (int64_t)((int32_t)v_973) * 4;
          const uint32_t v_975 = *(uint32_t *)v_974;
          const bool v_90 = ((int32_t)v_975) > ((int32_t)v_979);
          uint32_t v_183;
          if (v_90) {
            v_183 = v_975;
          } else {
            v_183 = v_979;
          }
          char *const v_1098 = v_728 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
          char *const v_741 = v_1098 + (int64_t)((int32_t)lane_976) * 4;
          *(uint32_t *)v_741 = v_183;
        }
        v_868 = v_98;
      }
      const uint32_t v_952 = v_910;
#pragma GCC ivdep
      for (int32_t lane_786_c = 0; lane_786_c < (int32_t)lanes_239; ++lane_786_c) {
        const uint32_t lane_786 = (uint32_t)lane_786_c;
        char *const v_1099 = v_496 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_788 = v_1099 + (int64_t)((int32_t)lane_786) * 4;
        const uint32_t v_789 = *(uint32_t *)v_788;
        char *const v_1100 = v_444 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_791 = v_1100 + (int64_t)((int32_t)lane_786) * 4;
        const uint32_t v_792 = *(uint32_t *)v_791;
        char *const v_1103 = v_287 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_800 = v_1103 + (int64_t)((int32_t)lane_786) * 4;
        const uint32_t v_801 = *(uint32_t *)v_800;
        uint32_t v_808;
        uint32_t v_809;
        uint32_t v_810;
        if (v_254) {
          const uint32_t v_802 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_786));
          const uint32_t v_808_next0 = v_802;
          const uint32_t v_809_next1 = v_251;
          const uint32_t v_810_next2 = v_252;
          v_808 = v_808_next0;
          v_809 = v_809_next1;
          v_810 = v_810_next2;
        } else {
          const uint32_t v_803 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_786));
          const uint32_t v_804 = (uint32_t)(v_803 % v_220);
          const uint32_t v_805 = (uint32_t)(v_803 / v_220);
          const uint32_t v_806 = (uint32_t)(v_805 % v_221);
          const uint32_t v_807 = (uint32_t)(v_805 / v_221);
          const uint32_t v_808_next0 = v_804;
          const uint32_t v_809_next1 = v_806;
          const uint32_t v_810_next2 = v_807;
          v_808 = v_808_next0;
          v_809 = v_809_next1;
          v_810 = v_810_next2;
        }
        const uint32_t v_811 = 0x0u;
        const uint32_t v_813 = 0x20u;
        const uint32_t v_814 = (uint32_t)(v_808 % v_813);
        const bool v_818 = v_814 == v_811;
        uint32_t v_819;
        if (v_818) {
          v_819 = v_811;
        } else {
          v_819 = v_792;
        }
        const uint32_t v_821 = 0x1eu;
        const bool v_822 = ((int32_t)v_814) >= ((int32_t)v_821);
        uint32_t v_823;
        if (v_822) {
          v_823 = v_811;
        } else {
          v_823 = v_789;
        }
        const float v_103 = (float)((int32_t)v_801);
        const float v_104 = 0.5f;
        const float v_105 = v_103 * v_104;
        const uint32_t v_981 = 0x20u;
        const uint32_t v_982 = (uint32_t)(warp_base_237 + v_981);
        char *const v_983 = v_980 + (int64_t)((int32_t)v_982) * 4;
        char *const v_984 = v_983 + (int64_t)((int32_t)lane_786) * 4;
        *(float *)v_984 = v_105;
      }
      const uint32_t v_1112 = 0x0u;
      const uint32_t v_1113 = 0x1u;
      for (int32_t lane_1003_c = (int32_t)v_1112; lane_1003_c < (int32_t)lanes_239; ++lane_1003_c) {
        const uint32_t lane_1003 = (uint32_t)lane_1003_c;
        char *const v_1106 = v_496 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_1005 = v_1106 + (int64_t)((int32_t)lane_1003) * 4;
        const uint32_t v_1006 = *(uint32_t *)v_1005;
        char *const v_1107 = v_444 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_1008 = v_1107 + (int64_t)((int32_t)lane_1003) * 4;
        const uint32_t v_1009 = *(uint32_t *)v_1008;
        char *const v_1108 = v_387 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_1011 = v_1108 + (int64_t)((int32_t)lane_1003) * 4;
        const uint32_t v_1012 = *(uint32_t *)v_1011;
        char *const v_1109 = v_331 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_1014 = v_1109 + (int64_t)((int32_t)lane_1003) * 4;
        const uint32_t v_1015 = *(uint32_t *)v_1014;
        uint32_t v_1022;
        uint32_t v_1023;
        uint32_t v_1024;
        if (v_254) {
          const uint32_t v_1016 = (uint32_t)(((int32_t)v_249) + ((int32_t)lane_1003));
          const uint32_t v_1022_next0 = v_1016;
          const uint32_t v_1023_next1 = v_251;
          const uint32_t v_1024_next2 = v_252;
          v_1022 = v_1022_next0;
          v_1023 = v_1023_next1;
          v_1024 = v_1024_next2;
        } else {
          const uint32_t v_1017 = (uint32_t)(((int32_t)warp_base_237) + ((int32_t)lane_1003));
          const uint32_t v_1018 = (uint32_t)(v_1017 % v_220);
          const uint32_t v_1019 = (uint32_t)(v_1017 / v_220);
          const uint32_t v_1020 = (uint32_t)(v_1019 % v_221);
          const uint32_t v_1021 = (uint32_t)(v_1019 / v_221);
          const uint32_t v_1022_next0 = v_1018;
          const uint32_t v_1023_next1 = v_1020;
          const uint32_t v_1024_next2 = v_1021;
          v_1022 = v_1022_next0;
          v_1023 = v_1023_next1;
          v_1024 = v_1024_next2;
        }
        const uint32_t v_1025 = 0x0u;
        const uint32_t v_1026 = (uint32_t)(v_9 + v_1022);
        const uint32_t v_1027 = 0x20u;
        const uint32_t v_1028 = (uint32_t)(v_1022 % v_1027);
        const uint32_t v_1029 = 0xffffffffu;
        const uint32_t v_1030 = 0x3u;
        const uint32_t v_1031 = 0x1u;
        const bool v_1032 = v_1028 == v_1025;
        uint32_t v_1033;
        if (v_1032) {
          v_1033 = v_1025;
        } else {
          v_1033 = v_1009;
        }
        const uint32_t v_1034 = 0x2u;
        const uint32_t v_1035 = 0x1eu;
        const bool v_1036 = ((int32_t)v_1028) >= ((int32_t)v_1035);
        uint32_t v_1037;
        if (v_1036) {
          v_1037 = v_1025;
        } else {
          v_1037 = v_1006;
        }
        char *const v_1110 = v_480 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_1039 = v_1110 + (int64_t)((int32_t)lane_1003) * 4;
        const uint32_t v_1040 = *(uint32_t *)v_1039;
        char *const v_1111 = v_729 + ((int64_t)((int32_t)warp_235) * INT64_C(32)) * 4;
        char *const v_1042 = v_1111 + (int64_t)((int32_t)lane_1003) * 4;
        const uint32_t v_1043 = *(uint32_t *)v_1042;
        const uint32_t v_985 = 0x1u;
        const uint32_t v_986 = (uint32_t)(v_1027 - v_985);
        const uint32_t v_987 = 0xffffffffu;
        const uint32_t v_988 = (uint32_t)(v_986 ^ v_987);
        const uint32_t v_989 = (uint32_t)(lane_1003 & v_988);
        const uint32_t v_990 = (uint32_t)(v_989 + v_1027);
        const uint32_t v_991 = (uint32_t)(lane_1003 ^ v_1031);
        const bool v_992 = ((int32_t)v_991) >= ((int32_t)v_989);
        const bool v_993 = ((int32_t)v_991) < ((int32_t)v_990);
        const bool v_994 = (bool)(v_992 & v_993);
        const bool v_995 = v_991 < lanes_239;
        const bool v_996 = (bool)(v_994 & v_995);
        const uint32_t v_997 = 0x20u;
        const uint32_t v_998 = (uint32_t)(warp_base_237 + v_997);
        char *const v_999 = v_980 + (int64_t)((int32_t)v_998) * 4;
        const uint32_t v_1000 = v_996 ? v_991 : lane_1003;
        char *const v_1001 = v_999 + (int64_t)((int32_t)v_1000) * 4;
        const float v_1002 = *(float *)v_1001;
        const uint32_t v_111 = 0x6u;
        const uint32_t v_113 = (uint32_t)(((int32_t)v_111) * ((int32_t)v_1026));
        const uint64_t v_116 = (uint64_t)(INT64_C(6) * (int64_t)((int32_t)v_1026));
        char *const v_117 = v_5 + (int64_t)v_116 * 4;
        *(uint32_t *)v_117 = v_1015;
        const uint32_t v_125 = (uint32_t)(((int32_t)v_113) + ((int32_t)v_1031));
        const uint64_t v_126 = (uint64_t)((INT64_C(6) * (int64_t)((int32_t)v_1026)) + INT64_C(1));
        char *const v_127 = v_5 + (int64_t)v_126 * 4;
        *(uint32_t *)v_127 = v_1012;
        const uint32_t v_131 = (uint32_t)(((int32_t)v_1033) + ((int32_t)v_1037));
        const uint32_t v_137 = (uint32_t)(((int32_t)v_113) + ((int32_t)v_1034));
        const uint64_t v_138 = (uint64_t)((INT64_C(6) * (int64_t)((int32_t)v_1026)) + INT64_C(2));
        char *const v_139 = v_5 + (int64_t)v_138 * 4;
        *(uint32_t *)v_139 = v_131;
        uint32_t v_144;
        if (v_1032) {
          v_144 = v_1040;
        } else {
          v_144 = v_1029;
        }
        const uint32_t v_154 = (uint32_t)(((int32_t)v_113) + ((int32_t)v_1030));
        const uint64_t v_155 = (uint64_t)((INT64_C(6) * (int64_t)((int32_t)v_1026)) + INT64_C(3));
        char *const v_156 = v_5 + (int64_t)v_155 * 4;
        *(uint32_t *)v_156 = v_144;
        const uint32_t v_163 = 0x4u;
        const uint32_t v_164 = (uint32_t)(((int32_t)v_113) + ((int32_t)v_163));
        const uint64_t v_165 = (uint64_t)((INT64_C(6) * (int64_t)((int32_t)v_1026)) + INT64_C(4));
        char *const v_166 = v_5 + (int64_t)v_165 * 4;
        *(uint32_t *)v_166 = v_1043;
        const float v_169 = 2.0f;
        const float v_170 = v_1002 * v_169;
        const uint32_t v_171 = (uint32_t)cucc_ff2i32(v_170);
        const uint32_t v_176 = 0x5u;
        const uint32_t v_177 = (uint32_t)(((int32_t)v_113) + ((int32_t)v_176));
        const uint64_t v_178 = (uint64_t)((INT64_C(6) * (int64_t)((int32_t)v_1026)) + INT64_C(5));
        char *const v_179 = v_5 + (int64_t)v_178 * 4;
        *(uint32_t *)v_179 = v_171;
      }
    }
    ++cucc_b0; if (cucc_b0 == v_217) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_218) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}
