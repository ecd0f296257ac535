/* kernel _Z6matmulPKfS0_Pfiii */
void k_Z6matmulPKfS0_Pfiii__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
  (void)launch; (void)block_begin; (void)block_end; (void)scratch;
  const uint32_t cucc_grid0 = launch->grid[0], cucc_grid1 = launch->grid[1], cucc_grid2 = launch->grid[2];
  const uint32_t cucc_block0 = launch->block[0], cucc_block1 = launch->block[1], cucc_block2 = launch->block[2];
  const size_t cucc_dyn_size = (size_t)launch->dynamic_shared;
  (void)cucc_grid0; (void)cucc_grid1; (void)cucc_grid2; (void)cucc_block0; (void)cucc_block1; (void)cucc_block2; (void)cucc_dyn_size;
  if (cucc_block0 - 1u >= 1024u || cucc_block1 - 1u >= 1024u || cucc_block2 - 1u >= 64u || cucc_grid0 - 1u >= 0x7fffffffu || cucc_grid1 - 1u >= 65535u || cucc_grid2 - 1u >= 65535u) __builtin_unreachable();
  char *const cucc_dyn = (char *)scratch + 2048;
  (void)cucc_dyn;
  char * restrict v_0 = *(char * *)args[0];
  char * restrict v_1 = *(char * *)args[1];
  char * restrict v_2 = *(char * *)args[2];
  uint32_t v_3 = *(uint32_t *)args[3];
  uint32_t v_4 = *(uint32_t *)args[4];
  uint32_t v_5 = *(uint32_t *)args[5];
  const uint32_t v_191 = cucc_grid0;
  const uint32_t v_192 = cucc_grid1;
  const uint32_t v_193 = cucc_grid2;
  const uint32_t v_194 = cucc_block0;
  const uint32_t v_195 = cucc_block1;
  const uint32_t v_196 = cucc_block2;
  uint32_t cucc_b0 = (uint32_t)((block_begin) % v_191);
  uint32_t cucc_b1 = (uint32_t)(((block_begin) / v_191) % v_192);
  uint32_t cucc_b2 = (uint32_t)(((block_begin) / v_191) / v_192);
  for (uint32_t blin = block_begin; blin < block_end; ++blin) {
    const uint32_t bx_197 = cucc_b0;
    const uint32_t by_198 = cucc_b1;
    const uint32_t bz_199 = cucc_b2;
    unsigned char v_205_buf[4096] __attribute__((aligned(4)));
    char *const v_205 = (char *)v_205_buf;
    unsigned char v_206_buf[4096] __attribute__((aligned(4)));
    char *const v_206 = (char *)v_206_buf;
    unsigned char v_288_buf[4096] __attribute__((aligned(4)));
    char *const v_288 = (char *)v_288_buf;
    char *const v_200 = (char *)scratch + 0;
    char *const v_201 = (char *)scratch + 1024;
    char *const v_7 = v_0;
    char *const v_9 = v_1;
    char *const v_11 = v_2;
    const uint32_t v_17 = 0x10u;
    const uint32_t v_18 = (uint32_t)(by_198 * v_17);
    const uint32_t v_24 = (uint32_t)(bx_197 * v_17);
    for (int32_t tz_204_c = 0; tz_204_c < (int32_t)v_196; ++tz_204_c) {
      const uint32_t tz_204 = (uint32_t)tz_204_c;
      for (int32_t ty_203_c = 0; ty_203_c < (int32_t)v_195; ++ty_203_c) {
        const uint32_t ty_203 = (uint32_t)ty_203_c;
#pragma GCC ivdep
        for (int32_t tx_202_c = 0; tx_202_c < (int32_t)v_194; ++tx_202_c) {
          const uint32_t tx_202 = (uint32_t)tx_202_c;
          const float v_165 = 0.0f;
          const uint32_t v_207 = (uint32_t)(((int32_t)v_195) * ((int32_t)tz_204));
          const uint32_t v_208 = (uint32_t)(((int32_t)ty_203) + ((int32_t)v_207));
          const uint32_t v_209 = (uint32_t)(((int32_t)v_194) * ((int32_t)v_208));
          const uint32_t v_210 = (uint32_t)(((int32_t)tx_202) + ((int32_t)v_209));
          char *const v_211 = v_205 + ((int64_t)((int32_t)tx_202) + ((int64_t)((int32_t)v_194) * ((int64_t)((int32_t)ty_203) + ((int64_t)((int32_t)v_195) * (int64_t)((int32_t)tz_204))))) * 4;
          *(float *)v_211 = v_165;
        }
      }
    }
    const uint32_t v_255 = 0x0u;
    uint32_t v_259 = v_255;
    uint32_t v_267;
    for (;;) {
      const uint32_t v_34 = (uint32_t)(((int32_t)v_5) + ((int32_t)v_17));
      const uint32_t v_35 = 0x1u;
      const uint32_t v_36 = (uint32_t)(((int32_t)v_34) - ((int32_t)v_35));
      const uint32_t v_38 = (uint32_t)(((int32_t)v_36) / ((int32_t)v_17));
      const bool v_39 = ((int32_t)v_259) < ((int32_t)v_38);
      for (int32_t tz_262_c = 0; tz_262_c < (int32_t)v_196; ++tz_262_c) {
        const uint32_t tz_262 = (uint32_t)tz_262_c;
        for (int32_t ty_261_c = 0; ty_261_c < (int32_t)v_195; ++ty_261_c) {
          const uint32_t ty_261 = (uint32_t)ty_261_c;
#pragma GCC ivdep
          for (int32_t tx_260_c = 0; tx_260_c < (int32_t)v_194; ++tx_260_c) {
            const uint32_t tx_260 = (uint32_t)tx_260_c;
            const uint32_t v_212 = (uint32_t)(((int32_t)v_195) * ((int32_t)tz_262));
            const uint32_t v_213 = (uint32_t)(((int32_t)ty_261) + ((int32_t)v_212));
            const uint32_t v_214 = (uint32_t)(((int32_t)v_194) * ((int32_t)v_213));
            const uint32_t v_215 = (uint32_t)(((int32_t)tx_260) + ((int32_t)v_214));
            char *const v_216 = v_205 + ((int64_t)((int32_t)tx_260) + ((int64_t)((int32_t)v_194) * ((int64_t)((int32_t)ty_261) + ((int64_t)((int32_t)v_195) * (int64_t)((int32_t)tz_262))))) * 4;
            const float v_217 = *(float *)v_216;
            const uint32_t v_218 = (uint32_t)(((int32_t)v_195) * ((int32_t)tz_262));
            const uint32_t v_219 = (uint32_t)(((int32_t)ty_261) + ((int32_t)v_218));
            const uint32_t v_220 = (uint32_t)(((int32_t)v_194) * ((int32_t)v_219));
            const uint32_t v_221 = (uint32_t)(((int32_t)tx_260) + ((int32_t)v_220));
            char *const v_222 = v_206 + ((int64_t)((int32_t)tx_260) + ((int64_t)((int32_t)v_194) * ((int64_t)((int32_t)ty_261) + ((int64_t)((int32_t)v_195) * (int64_t)((int32_t)tz_262))))) * 4;
            *(float *)v_222 = v_217;
          }
        }
      }
      v_267 = v_259;
      if (!v_39) break;
      const uint32_t v_271 = 0x0u;
      const float v_272 = 0.0f;
      const uint32_t v_43 = (uint32_t)(((int32_t)v_267) * ((int32_t)v_17));
      const uint32_t v_136 = 0x1u;
      const uint32_t v_137 = (uint32_t)(((int32_t)v_267) + ((int32_t)v_136));
      const uint32_t v_335 = 0x10u;
      const bool v_336 = v_194 == v_335;
      const uint32_t v_337 = 0x10u;
      const bool v_338 = v_195 == v_337;
      const bool v_339 = (bool)(v_336 & v_338);
      const uint32_t v_340 = 0x1u;
      const bool v_341 = v_196 == v_340;
      const bool v_342 = (bool)(v_339 & v_341);
      if (v_342) {
        for (int32_t tz_345_c = 0; tz_345_c < (int32_t)v_340; ++tz_345_c) {
          const uint32_t tz_345 = (uint32_t)tz_345_c;
          for (int32_t ty_344_c = 0; ty_344_c < (int32_t)v_337; ++ty_344_c) {
            const uint32_t ty_344 = (uint32_t)ty_344_c;
#pragma GCC ivdep
            for (int32_t tx_343_c = 0; tx_343_c < (int32_t)v_335; ++tx_343_c) {
              const uint32_t tx_343 = (uint32_t)tx_343_c;
              const uint32_t v_346 = (uint32_t)(v_18 + ty_344);
              const uint32_t v_347 = (uint32_t)(v_24 + tx_343);
              const uint32_t v_348 = (uint32_t)(v_43 + tx_343);
              const uint32_t v_349 = (uint32_t)(v_43 + ty_344);
              const bool v_350 = ((int32_t)v_346) < ((int32_t)v_3);
              bool v_353;
              if (v_350) {
                const bool v_351 = ((int32_t)v_348) < ((int32_t)v_5);
                v_353 = v_351;
              } else {
                const bool v_352 = false;
                v_353 = v_352;
              }
              float v_359;
              if (v_353) {
                const uint32_t v_354 = (uint32_t)(((int32_t)v_346) * ((int32_t)v_5));
                const uint32_t v_355 = (uint32_t)(((int32_t)v_354) + ((int32_t)v_348));
                const uint64_t v_356 = (uint64_t)(((int64_t)((int32_t)v_346) * (int64_t)((int32_t)v_5)) + (int64_t)((int32_t)v_348));
                char *const v_357 = v_7 + (int64_t)v_356 * 4;
                const float v_358 = *(float *)v_357;
                v_359 = v_358;
              } else {
                v_359 = v_272;
              }
              const uint64_t v_360 = (uint64_t)ty_344;
              char *const v_361 = v_200 + (int64_t)v_360 * 64;
              const uint64_t v_362 = (uint64_t)tx_343;
              char *const v_363 = v_361 + (int64_t)v_362 * 4;
              *(float *)v_363 = v_359;
              const bool v_364 = ((int32_t)v_349) < ((int32_t)v_5);
              bool v_367;
              if (v_364) {
                const bool v_365 = ((int32_t)v_347) < ((int32_t)v_4);
                v_367 = v_365;
              } else {
                const bool v_366 = false;
                v_367 = v_366;
              }
              float v_373;
              if (v_367) {
                const uint32_t v_368 = (uint32_t)(((int32_t)v_349) * ((int32_t)v_4));
                const uint32_t v_369 = (uint32_t)(((int32_t)v_368) + ((int32_t)v_347));
                const uint64_t v_370 = (uint64_t)(((int64_t)((int32_t)v_349) * (int64_t)((int32_t)v_4)) + (int64_t)((int32_t)v_347));
                char *const v_371 = v_9 + (int64_t)v_370 * 4;
                const float v_372 = *(float *)v_371;
                v_373 = v_372;
              } else {
                v_373 = v_272;
              }
              char *const v_374 = v_201 + (int64_t)v_360 * 64;
              char *const v_375 = v_374 + (int64_t)v_362 * 4;
              *(float *)v_375 = v_373;
            }
          }
        }
      } else {
        const uint32_t v_376 = 0x0u;
        const uint32_t v_377 = 0x1u;
        for (int32_t tz_270_c = (int32_t)v_376; tz_270_c < (int32_t)v_196; ++tz_270_c) {
          const uint32_t tz_270 = (uint32_t)tz_270_c;
          for (int32_t ty_269_c = (int32_t)v_376; ty_269_c < (int32_t)v_195; ++ty_269_c) {
            const uint32_t ty_269 = (uint32_t)ty_269_c;
            for (int32_t tx_268_c = (int32_t)v_376; tx_268_c < (int32_t)v_194; ++tx_268_c) {
              const uint32_t tx_268 = (uint32_t)tx_268_c;
              const uint32_t v_273 = (uint32_t)(v_18 + ty_269);
              const uint32_t v_274 = (uint32_t)(v_24 + tx_268);
              const uint32_t v_45 = (uint32_t)(v_43 + tx_268);
              const uint32_t v_51 = (uint32_t)(v_43 + ty_269);
              const bool v_54 = ((int32_t)v_273) < ((int32_t)v_3);
              bool v_55;
              if (v_54) {
                const bool v_58 = ((int32_t)v_45) < ((int32_t)v_5);
                v_55 = v_58;
              } else {
                const bool v_59 = false;
                v_55 = v_59;
              }
              float v_60;
              if (v_55) {
                const uint32_t v_64 = (uint32_t)(((int32_t)v_273) * ((int32_t)v_5));
                const uint32_t v_66 = (uint32_t)(((int32_t)v_64) + ((int32_t)v_45));
                const uint64_t v_67 = (uint64_t)(((int64_t)((int32_t)v_273) * (int64_t)((int32_t)v_5)) + (int64_t)((int32_t)v_45));
                char *const v_68 = v_7 + (int64_t)v_67 * 4;
                const float v_69 = *(float *)v_68;
                v_60 = v_69;
              } else {
                v_60 = v_272;
              }
              const uint64_t v_73 = (uint64_t)ty_269;
              char *const v_74 = v_200 + (int64_t)v_73 * 64;
              const uint64_t v_76 = (uint64_t)tx_268;
              char *const v_77 = v_74 + (int64_t)v_76 * 4;
              *(float *)v_77 = v_60;
              const bool v_81 = ((int32_t)v_51) < ((int32_t)v_5);
              bool v_82;
              if (v_81) {
                const bool v_85 = ((int32_t)v_274) < ((int32_t)v_4);
                v_82 = v_85;
              } else {
                const bool v_86 = false;
                v_82 = v_86;
              }
              float v_87;
              if (v_82) {
                const uint32_t v_91 = (uint32_t)(((int32_t)v_51) * ((int32_t)v_4));
                const uint32_t v_93 = (uint32_t)(((int32_t)v_91) + ((int32_t)v_274));
                const uint64_t v_94 = (uint64_t)(((int64_t)((int32_t)v_51) * (int64_t)((int32_t)v_4)) + (int64_t)((int32_t)v_274));
                char *const v_95 = v_9 + (int64_t)v_94 * 4;
                const float v_96 = *(float *)v_95;
                v_87 = v_96;
              } else {
                v_87 = v_272;
              }
              char *const v_101 = v_201 + (int64_t)v_73 * 64;
              char *const v_104 = v_101 + (int64_t)v_76 * 4;
              *(float *)v_104 = v_87;
            }
          }
        }
      }
      for (int32_t tz_278_c = 0; tz_278_c < (int32_t)v_196; ++tz_278_c) {
        const uint32_t tz_278 = (uint32_t)tz_278_c;
        for (int32_t ty_277_c = 0; ty_277_c < (int32_t)v_195; ++ty_277_c) {
          const uint32_t ty_277 = (uint32_t)ty_277_c;
#pragma GCC ivdep
          for (int32_t tx_276_c = 0; tx_276_c < (int32_t)v_194; ++tx_276_c) {
            const uint32_t tx_276 = (uint32_t)tx_276_c;
            const uint32_t v_279 = (uint32_t)(((int32_t)v_195) * ((int32_t)tz_278));
            const uint32_t v_280 = (uint32_t)(((int32_t)ty_277) + ((int32_t)v_279));
            const uint32_t v_281 = (uint32_t)(((int32_t)v_194) * ((int32_t)v_280));
            const uint32_t v_282 = (uint32_t)(((int32_t)tx_276) + ((int32_t)v_281));
            char *const v_283 = v_206 + ((int64_t)((int32_t)tx_276) + ((int64_t)((int32_t)v_194) * ((int64_t)((int32_t)ty_277) + ((int64_t)((int32_t)v_195) * (int64_t)((int32_t)tz_278))))) * 4;
            const float v_284 = *(float *)v_283;
            const uint64_t v_285 = (uint64_t)ty_277;
            char *const v_286 = v_200 + (int64_t)v_285 * 64;
            const uint64_t v_287 = (uint64_t)tx_276;
            float v_168 = v_284;
            uint32_t v_187 = v_271;
            float v_169;
            uint32_t v_188;
            for (;;) {
              const bool v_110 = ((int32_t)v_187) < ((int32_t)v_17);
              const float v_169_next0 = v_168;
              const uint32_t v_188_next1 = v_187;
              v_169 = v_169_next0;
              v_188 = v_188_next1;
              if (!v_110) break;
              const uint64_t v_116 = (uint64_t)(int64_t)((int32_t)v_188);
              char *const v_117 = v_286 + (int64_t)v_116 * 4;
              const float v_118 = *(float *)v_117;
              char *const v_122 = v_201 + (int64_t)v_116 * 64;
              char *const v_125 = v_122 + (int64_t)v_287 * 4;
              const float v_126 = *(float *)v_125;
              const float v_127 = v_118 * v_126;
              const float v_129 = v_169 + v_127;
              const uint32_t v_132 = 0x1u;
              const uint32_t v_133 = (uint32_t)(((int32_t)v_188) + ((int32_t)v_132));
              const float v_168_next0 = v_129;
              const uint32_t v_187_next1 = v_133;
              v_168 = v_168_next0;
              v_187 = v_187_next1;
            }
            const float v_170 = v_169;
            const uint32_t v_189 = v_188;
            const uint32_t v_289 = (uint32_t)(((int32_t)v_195) * ((int32_t)tz_278));
            const uint32_t v_290 = (uint32_t)(((int32_t)ty_277) + ((int32_t)v_289));
            const uint32_t v_291 = (uint32_t)(((int32_t)v_194) * ((int32_t)v_290));
            const uint32_t v_292 = (uint32_t)(((int32_t)tx_276) + ((int32_t)v_291));
            char *const v_293 = v_288 + ((int64_t)((int32_t)tx_276) + ((int64_t)((int32_t)v_194) * ((int64_t)((int32_t)ty_277) + ((int64_t)((int32_t)v_195) * (int64_t)((int32_t)tz_278))))) * 4;
            *(float *)v_293 = v_170;
          }
        }
      }
      for (int32_t tz_296_c = 0; tz_296_c < (int32_t)v_196; ++tz_296_c) {
        const uint32_t tz_296 = (uint32_t)tz_296_c;
        for (int32_t ty_295_c = 0; ty_295_c < (int32_t)v_195; ++ty_295_c) {
          const uint32_t ty_295 = (uint32_t)ty_295_c;
#pragma GCC ivdep
          for (int32_t tx_294_c = 0; tx_294_c < (int32_t)v_194; ++tx_294_c) {
            const uint32_t tx_294 = (uint32_t)tx_294_c;
            const uint32_t v_297 = (uint32_t)(((int32_t)v_195) * ((int32_t)tz_296));
            const uint32_t v_298 = (uint32_t)(((int32_t)ty_295) + ((int32_t)v_297));
            const uint32_t v_299 = (uint32_t)(((int32_t)v_194) * ((int32_t)v_298));
            const uint32_t v_300 = (uint32_t)(((int32_t)tx_294) + ((int32_t)v_299));
            char *const v_301 = v_288 + ((int64_t)((int32_t)tx_294) + ((int64_t)((int32_t)v_194) * ((int64_t)((int32_t)ty_295) + ((int64_t)((int32_t)v_195) * (int64_t)((int32_t)tz_296))))) * 4;
            const float v_302 = *(float *)v_301;
            const uint32_t v_229 = (uint32_t)(((int32_t)v_195) * ((int32_t)tz_296));
            const uint32_t v_230 = (uint32_t)(((int32_t)ty_295) + ((int32_t)v_229));
            const uint32_t v_231 = (uint32_t)(((int32_t)v_194) * ((int32_t)v_230));
            const uint32_t v_232 = (uint32_t)(((int32_t)tx_294) + ((int32_t)v_231));
            char *const v_233 = v_205 + ((int64_t)((int32_t)tx_294) + ((int64_t)((int32_t)v_194) * ((int64_t)((int32_t)ty_295) + ((int64_t)((int32_t)v_195) * (int64_t)((int32_t)tz_296))))) * 4;
            *(float *)v_233 = v_302;
          }
        }
      }
      v_259 = v_137;
    }
    const uint32_t v_275 = v_267;
    const uint64_t v_303 = (uint64_t)(int64_t)((int32_t)v_3);
    const uint64_t v_304 = (uint64_t)v_195;
    const uint64_t v_305 = (uint64_t)(int64_t)((int32_t)v_18);
    const uint64_t v_306 = (uint64_t)(v_303 - v_305);
    const uint64_t v_307 = UINT64_C(0x1);
    const uint64_t v_308 = (uint64_t)(v_305 + v_304);
    const uint64_t v_309 = (uint64_t)(v_308 - v_307);
    const uint64_t v_310 = UINT64_C(0x7fffffff);
    const bool v_311 = ((int64_t)v_309) <= ((int64_t)v_310);
    const uint64_t v_312 = UINT64_C(0x0);
    const bool v_313 = ((int64_t)v_306) < ((int64_t)v_312);
    const uint64_t v_314 = v_313 ? v_312 : v_306;
    const bool v_315 = ((int64_t)v_314) < ((int64_t)v_304);
    const uint64_t v_316 = v_315 ? v_314 : v_304;
    const uint64_t v_317 = v_311 ? v_316 : v_304;
    const uint32_t v_318 = (uint32_t)v_317;
    const uint64_t v_319 = (uint64_t)(int64_t)((int32_t)v_4);
    const uint64_t v_320 = (uint64_t)v_194;
    const uint64_t v_321 = (uint64_t)(int64_t)((int32_t)v_24);
    const uint64_t v_322 = (uint64_t)(v_319 - v_321);
    const uint64_t v_323 = UINT64_C(0x1);
    const uint64_t v_324 = (uint64_t)(v_321 + v_320);
    const uint64_t v_325 = (uint64_t)(v_324 - v_323);
    const uint64_t v_326 = UINT64_C(0x7fffffff);
    const bool v_327 = ((int64_t)v_325) <= ((int64_t)v_326);
    const uint64_t v_328 = UINT64_C(0x0);
    const bool v_329 = ((int64_t)v_322) < ((int64_t)v_328);
    const uint64_t v_330 = v_329 ? v_328 : v_322;
    const bool v_331 = ((int64_t)v_330) < ((int64_t)v_320);
    const uint64_t v_332 = v_331 ? v_330 : v_320;
    const uint64_t v_333 = v_327 ? v_332 : v_320;
    const uint32_t v_334 = (uint32_t)v_333;
    const uint32_t v_378 = 0x0u;
    const uint32_t v_379 = 0x1u;
    for (int32_t tz_249_c = (int32_t)v_378; tz_249_c < (int32_t)v_196; ++tz_249_c) {
      const uint32_t tz_249 = (uint32_t)tz_249_c;
      for (int32_t ty_248_c = (int32_t)v_378; ty_248_c < (int32_t)v_318; ++ty_248_c) {
        const uint32_t ty_248 = (uint32_t)ty_248_c;
        for (int32_t tx_247_c = (int32_t)v_378; tx_247_c < (int32_t)v_334; ++tx_247_c) {
          const uint32_t tx_247 = (uint32_t)tx_247_c;
          const uint32_t v_250 = (uint32_t)(v_18 + ty_248);
          const uint32_t v_251 = (uint32_t)(v_24 + tx_247);
          const uint32_t v_234 = (uint32_t)(((int32_t)v_195) * ((int32_t)tz_249));
          const uint32_t v_235 = (uint32_t)(((int32_t)ty_248) + ((int32_t)v_234));
          const uint32_t v_236 = (uint32_t)(((int32_t)v_194) * ((int32_t)v_235));
          const uint32_t v_237 = (uint32_t)(((int32_t)tx_247) + ((int32_t)v_236));
          char *const v_238 = v_206 + ((int64_t)((int32_t)tx_247) + ((int64_t)((int32_t)v_194) * ((int64_t)((int32_t)ty_248) + ((int64_t)((int32_t)v_195) * (int64_t)((int32_t)tz_249))))) * 4;
          const float v_239 = *(float *)v_238;
          const bool v_141 = ((int32_t)v_250) < ((int32_t)v_3);
          bool v_142;
          if (v_141) {
            const bool v_145 = ((int32_t)v_251) < ((int32_t)v_4);
            v_142 = v_145;
          } else {
            const bool v_146 = false;
            v_142 = v_146;
          }
          if (v_142) {
            const uint32_t v_151 = (uint32_t)(((int32_t)v_250) * ((int32_t)v_4));
            const uint32_t v_153 = (uint32_t)(((int32_t)v_151) + ((int32_t)v_251));
            const uint64_t v_154 = (uint64_t)(((int64_t)((int32_t)v_250) * (int64_t)((int32_t)v_4)) + (int64_t)((int32_t)v_251));
            char *const v_155 = v_11 + (int64_t)v_154 * 4;
            *(float *)v_155 = v_239;
          }
        }
      }
    }
    ++cucc_b0; if (cucc_b0 == v_191) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_192) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}
