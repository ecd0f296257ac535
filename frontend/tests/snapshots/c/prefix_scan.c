/* kernel _Z11scan_blocksPKiPiS1_i */
void k_Z11scan_blocksPKiPiS1_i__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
  (void)launch; (void)block_begin; (void)block_end; (void)scratch;
  const uint32_t cucc_grid0 = launch->grid[0], cucc_grid1 = launch->grid[1], cucc_grid2 = launch->grid[2];
  const uint32_t cucc_block0 = launch->block[0], cucc_block1 = launch->block[1], cucc_block2 = launch->block[2];
  const size_t cucc_dyn_size = (size_t)launch->dynamic_shared;
  (void)cucc_grid0; (void)cucc_grid1; (void)cucc_grid2; (void)cucc_block0; (void)cucc_block1; (void)cucc_block2; (void)cucc_dyn_size;
  if (cucc_block0 - 1u >= 1024u || cucc_block1 - 1u >= 1024u || cucc_block2 - 1u >= 64u || cucc_grid0 - 1u >= 0x7fffffffu || cucc_grid1 - 1u >= 65535u || cucc_grid2 - 1u >= 65535u) __builtin_unreachable();
  char *const cucc_dyn = (char *)scratch + 512;
  (void)cucc_dyn;
  char * v_0 = *(char * *)args[0];
  char * v_1 = *(char * *)args[1];
  char * v_2 = *(char * *)args[2];
  uint32_t v_3 = *(uint32_t *)args[3];
  const uint32_t v_329 = cucc_grid0;
  const uint32_t v_330 = cucc_grid1;
  const uint32_t v_331 = cucc_grid2;
  const uint32_t v_332 = cucc_block0;
  const uint32_t v_333 = cucc_block1;
  const uint32_t v_334 = cucc_block2;
  uint32_t cucc_b0 = (uint32_t)((block_begin) % v_329);
  uint32_t cucc_b1 = (uint32_t)(((block_begin) / v_329) % v_330);
  uint32_t cucc_b2 = (uint32_t)(((block_begin) / v_329) / v_330);
  for (uint32_t blin = block_begin; blin < block_end; ++blin) {
    const uint32_t bx_335 = cucc_b0;
    const uint32_t by_336 = cucc_b1;
    const uint32_t bz_337 = cucc_b2;
    char *const v_338 = (char *)scratch + 0;
    char *const v_5 = v_0;
    char *const v_7 = v_1;
    char *const v_9 = v_2;
    const uint32_t v_319 = 0x80u;
    const uint32_t v_18 = (uint32_t)(bx_335 * v_319);
    const uint32_t v_559 = 0x1u;
    const bool v_560 = v_333 == v_559;
    const uint32_t v_561 = 0x1u;
    const bool v_562 = v_334 == v_561;
    const bool v_563 = (bool)(v_560 & v_562);
    if (v_563) {
      for (int32_t tz_566_c = 0; tz_566_c < (int32_t)v_561; ++tz_566_c) {
        const uint32_t tz_566 = (uint32_t)tz_566_c;
        for (int32_t ty_565_c = 0; ty_565_c < (int32_t)v_559; ++ty_565_c) {
          const uint32_t ty_565 = (uint32_t)ty_565_c;
#pragma GCC ivdep
          for (int32_t tx_564_c = 0; tx_564_c < (int32_t)v_332; ++tx_564_c) {
            const uint32_t tx_564 = (uint32_t)tx_564_c;
            const uint32_t v_567 = 0x0u;
            const uint32_t v_568 = 0x2u;
            const uint32_t v_569 = (uint32_t)(((int32_t)v_568) * ((int32_t)tx_564));
            const uint32_t v_570 = (uint32_t)(((int32_t)v_18) + ((int32_t)v_569));
            const bool v_571 = ((int32_t)v_570) < ((int32_t)v_3);
            uint32_t v_575;
            if (v_571) {
              const uint64_t v_572 = (uint64_t)((int64_t)((int32_t)v_18) + (INT64_C(2) * (int64_t)((int32_t)tx_564)));
              char *const v_573 = v_5 + (int64_t)v_572 * 4;
              const uint32_t v_574 = *(uint32_t *)v_573;
              v_575 = v_574;
            } else {
              v_575 = v_567;
            }
            const uint64_t v_576 = (uint64_t)(INT64_C(2) * (int64_t)((int32_t)tx_564));
            char *const v_577 = v_338 + (int64_t)v_576 * 4;
            *(uint32_t *)v_577 = v_575;
            const uint32_t v_578 = 0x1u;
            const uint32_t v_579 = (uint32_t)(((int32_t)v_570) + ((int32_t)v_578));
            const bool v_580 = ((int32_t)v_579) < ((int32_t)v_3);
            uint32_t v_584;
            if (v_580) {
              const uint64_t v_581 = (uint64_t)(((int64_t)((int32_t)v_18) + (INT64_C(2) * (int64_t)((int32_t)tx_564))) + INT64_C(1));
              char *const v_582 = v_5 + (int64_t)v_581 * 4;
              const uint32_t v_583 = *(uint32_t *)v_582;
              v_584 = v_583;
            } else {
              v_584 = v_567;
            }
            const uint32_t v_585 = (uint32_t)(((int32_t)v_569) + ((int32_t)v_578));
            const uint64_t v_586 = (uint64_t)((INT64_C(2) * (int64_t)((int32_t)tx_564)) + INT64_C(1));
            char *const v_587 = v_338 + (int64_t)v_586 * 4;
            *(uint32_t *)v_587 = v_584;
          }
        }
      }
    } else {
      const uint32_t v_588 = 0x0u;
      const uint32_t v_589 = 0x1u;
      for (int32_t tz_341_c = (int32_t)v_588; tz_341_c < (int32_t)v_334; ++tz_341_c) {
        const uint32_t tz_341 = (uint32_t)tz_341_c;
        for (int32_t ty_340_c = (int32_t)v_588; ty_340_c < (int32_t)v_333; ++ty_340_c) {
          const uint32_t ty_340 = (uint32_t)ty_340_c;
          for (int32_t tx_339_c = (int32_t)v_588; tx_339_c < (int32_t)v_332; ++tx_339_c) {
            const uint32_t tx_339 = (uint32_t)tx_339_c;
            const uint32_t v_276 = 0x0u;
            const uint32_t v_15 = 0x2u;
            const uint32_t v_22 = (uint32_t)(((int32_t)v_15) * ((int32_t)tx_339));
            const uint32_t v_23 = (uint32_t)(((int32_t)v_18) + ((int32_t)v_22));
            const bool v_25 = ((int32_t)v_23) < ((int32_t)v_3);
            uint32_t v_26;
            if (v_25) {
              const uint64_t v_33 = (uint64_t)((int64_t)((int32_t)v_18) + (INT64_C(2) * (int64_t)((int32_t)tx_339)));
              char *const v_34 = v_5 + (int64_t)v_33 * 4;
              const uint32_t v_35 = *(uint32_t *)v_34;
              v_26 = v_35;
            } else {
              v_26 = v_276;
            }
            const uint64_t v_41 = (uint64_t)(INT64_C(2) * (int64_t)((int32_t)tx_339));
            char *const v_42 = v_338 + (int64_t)v_41 * 4;
            *(uint32_t *)v_42 = v_26;
            const uint32_t v_49 = 0x1u;
            const uint32_t v_50 = (uint32_t)(((int32_t)v_23) + ((int32_t)v_49));
            const bool v_52 = ((int32_t)v_50) < ((int32_t)v_3);
            uint32_t v_53;
            if (v_52) {
              const uint64_t v_62 = (uint64_t)(((int64_t)((int32_t)v_18) + (INT64_C(2) * (int64_t)((int32_t)tx_339))) + INT64_C(1));
              char *const v_63 = v_5 + (int64_t)v_62 * 4;
              const uint32_t v_64 = *(uint32_t *)v_63;
              v_53 = v_64;
            } else {
              v_53 = v_276;
            }
            const uint32_t v_71 = (uint32_t)(((int32_t)v_22) + ((int32_t)v_49));
            const uint64_t v_72 = (uint64_t)((INT64_C(2) * (int64_t)((int32_t)tx_339)) + INT64_C(1));
            char *const v_73 = v_338 + (int64_t)v_72 * 4;
            *(uint32_t *)v_73 = v_53;
          }
        }
      }
    }
    const uint32_t v_383 = 0x40u;
    const uint32_t v_389 = 0x1u;
    uint32_t v_395 = v_389;
    uint32_t v_396 = v_383;
    uint32_t v_415;
    uint32_t v_416;
    for (;;) {
      const uint32_t v_401 = 0x0u;
      const bool v_85 = ((int32_t)v_396) > ((int32_t)v_401);
      const uint32_t v_415_next0 = v_395;
      const uint32_t v_416_next1 = v_396;
      v_415 = v_415_next0;
      v_416 = v_416_next1;
      if (!v_85) break;
      const uint32_t v_422 = 0x2u;
      const uint32_t v_429 = 0x1u;
      const uint32_t v_123 = (uint32_t)(((int32_t)v_415) * ((int32_t)v_422));
      const uint32_t v_127 = (uint32_t)(((int32_t)v_416) >> v_429);
      const uint64_t v_543 = (uint64_t)(int64_t)((int32_t)v_416);
      const uint64_t v_544 = (uint64_t)v_332;
      const uint64_t v_545 = UINT64_C(0x0);
      const bool v_546 = ((int64_t)v_543) < ((int64_t)v_545);
      const uint64_t v_547 = v_546 ? v_545 : v_543;
      const bool v_548 = ((int64_t)v_547) < ((int64_t)v_544);
      const uint64_t v_549 = v_548 ? v_547 : v_544;
      const uint32_t v_550 = (uint32_t)v_549;
      const uint32_t v_590 = 0x0u;
      const uint32_t v_591 = 0x1u;
      for (int32_t tz_439_c = (int32_t)v_590; tz_439_c < (int32_t)v_334; ++tz_439_c) {
        const uint32_t tz_439 = (uint32_t)tz_439_c;
        for (int32_t ty_438_c = (int32_t)v_590; ty_438_c < (int32_t)v_333; ++ty_438_c) {
          const uint32_t ty_438 = (uint32_t)ty_438_c;
          for (int32_t tx_437_c = (int32_t)v_590; tx_437_c < (int32_t)v_550; ++tx_437_c) {
            const uint32_t tx_437 = (uint32_t)tx_437_c;
            const uint32_t v_440 = (uint32_t)(((int32_t)v_422) * ((int32_t)tx_437));
            const uint32_t v_441 = (uint32_t)(((int32_t)v_440) + ((int32_t)v_429));
            const bool v_88 = ((int32_t)tx_437) < ((int32_t)v_416);
            if (v_88) {
              const uint32_t v_96 = (uint32_t)(((int32_t)v_415) * ((int32_t)v_441));
              const uint32_t v_98 = (uint32_t)(((int32_t)v_96) - ((int32_t)v_429));
              const uint32_t v_105 = (uint32_t)(((int32_t)v_440) + ((int32_t)v_422));
              const uint32_t v_106 = (uint32_t)(((int32_t)v_415) * ((int32_t)v_105));
              const uint32_t v_108 = (uint32_t)(((int32_t)v_106) - ((int32_t)v_429));
              const uint64_t v_111 = (uint64_t)(((int64_t)((int32_t)v_415) * (((int64_t)((int32_t)v_422) * (int64_t)((int32_t)tx_437)) + INT64_C(1))) - INT64_C(1));
              char *const v_112 = v_338 + (int64_t)v_111 * 4;
              const uint32_t v_113 = *(uint32_t *)v_112;
              const uint64_t v_116 = (uint64_t)(((int64_t)((int32_t)v_415) * (((int64_t)((int32_t)v_422) * (int64_t)((int32_t)tx_437)) + INT64_C(2))) - INT64_C(1));
              char *const v_117 = v_338 + (int64_t)v_116 * 4;
              const uint32_t v_118 = *(uint32_t *)v_117;
              const uint32_t v_119 = (uint32_t)(((int32_t)v_118) + ((int32_t)v_113));
              *(uint32_t *)v_117 = v_119;
            }
          }
        }
      }
      const uint32_t v_395_next0 = v_123;
      const uint32_t v_396_next1 = v_127;
      v_395 = v_395_next0;
      v_396 = v_396_next1;
    }
    const uint32_t v_435 = v_415;
    const uint32_t v_436 = v_416;
    const uint32_t v_592 = 0x0u;
    const uint32_t v_593 = 0x1u;
    for (int32_t tz_362_c = (int32_t)v_592; tz_362_c < (int32_t)v_334; ++tz_362_c) {
      const uint32_t tz_362 = (uint32_t)tz_362_c;
      for (int32_t ty_361_c = (int32_t)v_592; ty_361_c < (int32_t)v_333; ++ty_361_c) {
        const uint32_t ty_361 = (uint32_t)ty_361_c;
        for (int32_t tx_360_c = (int32_t)v_592; tx_360_c < (int32_t)v_332; ++tx_360_c) {
          const uint32_t tx_360 = (uint32_t)tx_360_c;
          char *const v_363 = (char *)(uintptr_t)UINT64_C(0x0);
          const uint32_t v_364 = 0x0u;
          const bool v_131 = tx_360 == v_364;
          if (v_131) {
            const bool v_134 = (uintptr_t)v_9 != (uintptr_t)v_363;
            if (v_134) {
              const uint64_t v_324 = UINT64_C(0x7f);
              char *const v_142 = v_338 + (int64_t)v_324 * 4;
              const uint32_t v_143 = *(uint32_t *)v_142;
              const uint64_t v_146 = (uint64_t)bx_335;
              char *const v_147 = v_9 + (int64_t)v_146 * 4;
              *(uint32_t *)v_147 = v_143;
            }
            const uint64_t v_327 = UINT64_C(0x7f);
            char *const v_157 = v_338 + (int64_t)v_327 * 4;
            *(uint32_t *)v_157 = v_364;
          }
        }
      }
    }
    const uint32_t v_481 = 0x1u;
    uint32_t v_487 = v_435;
    uint32_t v_488 = v_481;
    uint32_t v_504;
    uint32_t v_505;
    for (;;) {
      const bool v_165 = ((int32_t)v_488) < ((int32_t)v_319);
      const uint32_t v_504_next0 = v_487;
      const uint32_t v_505_next1 = v_488;
      v_504 = v_504_next0;
      v_505 = v_505_next1;
      if (!v_165) break;
      const uint32_t v_509 = 0x2u;
      const uint32_t v_515 = 0x1u;
      const uint32_t v_168 = (uint32_t)(((int32_t)v_504) >> v_515);
      const uint32_t v_219 = (uint32_t)(((int32_t)v_505) * ((int32_t)v_509));
      const uint64_t v_551 = (uint64_t)(int64_t)((int32_t)v_505);
      const uint64_t v_552 = (uint64_t)v_332;
      const uint64_t v_553 = UINT64_C(0x0);
      const bool v_554 = ((int64_t)v_551) < ((int64_t)v_553);
      const uint64_t v_555 = v_554 ? v_553 : v_551;
      const bool v_556 = ((int64_t)v_555) < ((int64_t)v_552);
      const uint64_t v_557 = v_556 ? v_555 : v_552;
      const uint32_t v_558 = (uint32_t)v_557;
      const uint32_t v_594 = 0x0u;
      const uint32_t v_595 = 0x1u;
      for (int32_t tz_525_c = (int32_t)v_594; tz_525_c < (int32_t)v_334; ++tz_525_c) {
        const uint32_t tz_525 = (uint32_t)tz_525_c;
        for (int32_t ty_524_c = (int32_t)v_594; ty_524_c < (int32_t)v_333; ++ty_524_c) {
          const uint32_t ty_524 = (uint32_t)ty_524_c;
          for (int32_t tx_523_c = (int32_t)v_594; tx_523_c < (int32_t)v_558; ++tx_523_c) {
            const uint32_t tx_523 = (uint32_t)tx_523_c;
            const uint32_t v_526 = (uint32_t)(((int32_t)v_509) * ((int32_t)tx_523));
            const uint32_t v_527 = (uint32_t)(((int32_t)v_526) + ((int32_t)v_515));
            const bool v_172 = ((int32_t)tx_523) < ((int32_t)v_505);
            if (v_172) {
              const uint32_t v_180 = (uint32_t)(((int32_t)v_168) * ((int32_t)v_527));
              const uint32_t v_182 = (uint32_t)(((int32_t)v_180) - ((int32_t)v_515));
              const uint32_t v_189 = (uint32_t)(((int32_t)v_526) + ((int32_t)v_509));
              const uint32_t v_190 = (uint32_t)(((int32_t)v_168) * ((int32_t)v_189));
              const uint32_t v_192 = (uint32_t)(((int32_t)v_190) - ((int32_t)v_515));
              const uint64_t v_196 = (uint64_t)(((int64_t)((int32_t)v_168) * (((int64_t)((int32_t)v_509) * (int64_t)((int32_t)tx_523)) + INT64_C(1))) - INT64_C(1));
              char *const v_197 = v_338 + (int64_t)v_196 * 4;
              const uint32_t v_198 = *(uint32_t *)v_197;
              const uint64_t v_201 = (uint64_t)(((int64_t)((int32_t)v_168) * (((int64_t)((int32_t)v_509) * (int64_t)((int32_t)tx_523)) + INT64_C(2))) - INT64_C(1));
              char *const v_202 = v_338 + (int64_t)v_201 * 4;
              const uint32_t v_203 = *(uint32_t *)v_202;
              *(uint32_t *)v_197 = v_203;
              const uint32_t v_214 = *(uint32_t *)v_202;
              const uint32_t v_215 = (uint32_t)(((int32_t)v_214) + ((int32_t)v_198));
              *(uint32_t *)v_202 = v_215;
            }
          }
        }
      }
      const uint32_t v_487_next0 = v_168;
      const uint32_t v_488_next1 = v_219;
      v_487 = v_487_next0;
      v_488 = v_488_next1;
    }
    const uint32_t v_521 = v_504;
    const uint32_t v_522 = v_505;
    const uint32_t v_596 = 0x1u;
    const bool v_597 = v_333 == v_596;
    const uint32_t v_598 = 0x1u;
    const bool v_599 = v_334 == v_598;
    const bool v_600 = (bool)(v_597 & v_599);
    if (v_600) {
      for (int32_t tz_603_c = 0; tz_603_c < (int32_t)v_598; ++tz_603_c) {
        const uint32_t tz_603 = (uint32_t)tz_603_c;
        for (int32_t ty_602_c = 0; ty_602_c < (int32_t)v_596; ++ty_602_c) {
          const uint32_t ty_602 = (uint32_t)ty_602_c;
#pragma GCC ivdep
          for (int32_t tx_601_c = 0; tx_601_c < (int32_t)v_332; ++tx_601_c) {
            const uint32_t tx_601 = (uint32_t)tx_601_c;
            const uint32_t v_604 = 0x2u;
            const uint32_t v_605 = (uint32_t)(((int32_t)v_604) * ((int32_t)tx_601));
            const uint32_t v_606 = (uint32_t)(((int32_t)v_18) + ((int32_t)v_605));
            const bool v_607 = ((int32_t)v_606) < ((int32_t)v_3);
            const uint64_t v_608 = (uint64_t)(INT64_C(2) * (int64_t)((int32_t)tx_601));
            char *const v_609 = v_338 + (int64_t)v_608 * 4;
            const uint32_t v_610 = 0x1u;
            const uint32_t v_611 = (uint32_t)(((int32_t)v_606) + ((int32_t)v_610));
            const bool v_612 = ((int32_t)v_611) < ((int32_t)v_3);
            const uint32_t v_613 = (uint32_t)(((int32_t)v_605) + ((int32_t)v_610));
            const uint64_t v_614 = (uint64_t)((INT64_C(2) * (int64_t)((int32_t)tx_601)) + INT64_C(1));
            char *const v_615 = v_338 + (int64_t)v_614 * 4;
            if (v_607) {
              const uint32_t v_616 = *(uint32_t *)v_609;
              const uint64_t v_617 = (uint64_t)((int64_t)((int32_t)v_18) + (INT64_C(2) * (int64_t)((int32_t)tx_601)));
              char *const v_618 = v_7 + (int64_t)v_617 * 4;
              *(uint32_t *)v_618 = v_616;
            }
            if (v_612) {
              const uint32_t v_619 = *(uint32_t *)v_615;
              const uint64_t v_620 = (uint64_t)(((int64_t)((int32_t)v_18) + (INT64_C(2) * (int64_t)((int32_t)tx_601))) + INT64_C(1));
              char *const v_621 = v_7 + (int64_t)v_620 * 4;
              *(uint32_t *)v_621 = v_619;
            }
          }
        }
      }
    } else {
      const uint32_t v_622 = 0x0u;
      const uint32_t v_623 = 0x1u;
      for (int32_t tz_530_c = (int32_t)v_622; tz_530_c < (int32_t)v_334; ++tz_530_c) {
        const uint32_t tz_530 = (uint32_t)tz_530_c;
        for (int32_t ty_529_c = (int32_t)v_622; ty_529_c < (int32_t)v_333; ++ty_529_c) {
          const uint32_t ty_529 = (uint32_t)ty_529_c;
          for (int32_t tx_528_c = (int32_t)v_622; tx_528_c < (int32_t)v_332; ++tx_528_c) {
            const uint32_t tx_528 = (uint32_t)tx_528_c;
            const uint32_t v_531 = 0x2u;
            const uint32_t v_532 = (uint32_t)(((int32_t)v_531) * ((int32_t)tx_528));
            const uint32_t v_533 = (uint32_t)(((int32_t)v_18) + ((int32_t)v_532));
            const bool v_534 = ((int32_t)v_533) < ((int32_t)v_3);
            const uint64_t v_535 = (uint64_t)(INT64_C(2) * (int64_t)((int32_t)tx_528));
            char *const v_536 = v_338 + (int64_t)v_535 * 4;
            const uint32_t v_537 = 0x1u;
            const uint32_t v_538 = (uint32_t)(((int32_t)v_533) + ((int32_t)v_537));
            const bool v_539 = ((int32_t)v_538) < ((int32_t)v_3);
            const uint32_t v_540 = (uint32_t)(((int32_t)v_532) + ((int32_t)v_537));
            const uint64_t v_541 = (uint64_t)((INT64_C(2) * (int64_t)((int32_t)tx_528)) + INT64_C(1));
            char *const v_542 = v_338 + (int64_t)v_541 * 4;
            if (v_534) {
              const uint32_t v_234 = *(uint32_t *)v_536;
              const uint64_t v_241 = (uint64_t)((int64_t)((int32_t)v_18) + (INT64_C(2) * (int64_t)((int32_t)tx_528)));
              char *const v_242 = v_7 + (int64_t)v_241 * 4;
              *(uint32_t *)v_242 = v_234;
            }
            if (v_539) {
              const uint32_t v_261 = *(uint32_t *)v_542;
              const uint64_t v_270 = (uint64_t)(((int64_t)((int32_t)v_18) + (INT64_C(2) * (int64_t)((int32_t)tx_528))) + INT64_C(1));
              char *const v_271 = v_7 + (int64_t)v_270 * 4;
              *(uint32_t *)v_271 = v_261;
            }
          }
        }
      }
    }
    ++cucc_b0; if (cucc_b0 == v_329) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_330) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}

/* kernel _Z11add_offsetsPiPKii */
void k_Z11add_offsetsPiPKii__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
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
  uint32_t v_2 = *(uint32_t *)args[2];
  const uint32_t v_54 = cucc_grid0;
  const uint32_t v_55 = cucc_grid1;
  const uint32_t v_56 = cucc_grid2;
  const uint32_t v_57 = cucc_block0;
  const uint32_t v_58 = cucc_block1;
  const uint32_t v_59 = cucc_block2;
  uint32_t cucc_b0 = (uint32_t)((block_begin) % v_54);
  uint32_t cucc_b1 = (uint32_t)(((block_begin) / v_54) % v_55);
  uint32_t cucc_b2 = (uint32_t)(((block_begin) / v_54) / v_55);
  for (uint32_t blin = block_begin; blin < block_end; ++blin) {
    const uint32_t bx_60 = cucc_b0;
    const uint32_t by_61 = cucc_b1;
    const uint32_t bz_62 = cucc_b2;
    char *const v_4 = v_0;
    char *const v_6 = v_1;
    const uint32_t v_53 = 0x80u;
    const uint32_t v_13 = (uint32_t)(bx_60 * v_53);
    const uint64_t v_19 = (uint64_t)bx_60;
    char *const v_20 = v_6 + (int64_t)v_19 * 4;
    const uint32_t v_21 = *(uint32_t *)v_20;
    const uint32_t v_66 = 0x0u;
    const uint32_t v_67 = 0x1u;
    for (int32_t tz_65_c = (int32_t)v_66; tz_65_c < (int32_t)v_59; ++tz_65_c) {
      const uint32_t tz_65 = (uint32_t)tz_65_c;
      for (int32_t ty_64_c = (int32_t)v_66; ty_64_c < (int32_t)v_58; ++ty_64_c) {
        const uint32_t ty_64 = (uint32_t)ty_64_c;
        for (int32_t tx_63_c = (int32_t)v_66; tx_63_c < (int32_t)v_57; ++tx_63_c) {
          const uint32_t tx_63 = (uint32_t)tx_63_c;
          const uint32_t v_11 = 0x40u;
          const uint32_t v_15 = (uint32_t)(v_13 + tx_63);
          const bool v_24 = ((int32_t)v_15) < ((int32_t)v_2);
          if (v_24) {
            const uint64_t v_28 = (uint64_t)(int64_t)((int32_t)v_15);
            char *const v_29 = v_4 + (int64_t)v_28 * 4;
            const uint32_t v_30 = *(uint32_t *)v_29;
            const uint32_t v_31 = (uint32_t)(((int32_t)v_30) + ((int32_t)v_21));
            *(uint32_t *)v_29 = v_31;
          }
          const uint32_t v_35 = (uint32_t)(((int32_t)v_15) + ((int32_t)v_11));
          const bool v_37 = ((int32_t)v_35) < ((int32_t)v_2);
          if (v_37) {
            const uint64_t v_43 = (uint64_t)((int64_t)((int32_t)v_15) + INT64_C(64));
            char *const v_44 = v_4 + (int64_t)v_43 * 4;
            const uint32_t v_45 = *(uint32_t *)v_44;
            const uint32_t v_46 = (uint32_t)(((int32_t)v_45) + ((int32_t)v_21));
            *(uint32_t *)v_44 = v_46;
          }
        }
      }
    }
    ++cucc_b0; if (cucc_b0 == v_54) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_55) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}
