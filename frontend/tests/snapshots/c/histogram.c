/* kernel _Z9histogramPKhPji */
void k_Z9histogramPKhPji__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
  (void)launch; (void)block_begin; (void)block_end; (void)scratch;
  const uint32_t cucc_grid0 = launch->grid[0], cucc_grid1 = launch->grid[1], cucc_grid2 = launch->grid[2];
  const uint32_t cucc_block0 = launch->block[0], cucc_block1 = launch->block[1], cucc_block2 = launch->block[2];
  const size_t cucc_dyn_size = (size_t)launch->dynamic_shared;
  (void)cucc_grid0; (void)cucc_grid1; (void)cucc_grid2; (void)cucc_block0; (void)cucc_block1; (void)cucc_block2; (void)cucc_dyn_size;
  if (cucc_block0 - 1u >= 1024u || cucc_block1 - 1u >= 1024u || cucc_block2 - 1u >= 64u || cucc_grid0 - 1u >= 0x7fffffffu || cucc_grid1 - 1u >= 65535u || cucc_grid2 - 1u >= 65535u) __builtin_unreachable();
  char *const cucc_dyn = (char *)scratch + 256;
  (void)cucc_dyn;
  char * v_0 = *(char * *)args[0];
  char * v_1 = *(char * *)args[1];
  uint32_t v_2 = *(uint32_t *)args[2];
  const uint32_t v_93 = cucc_grid0;
  const uint32_t v_94 = cucc_grid1;
  const uint32_t v_95 = cucc_grid2;
  const uint32_t v_96 = cucc_block0;
  const uint32_t v_97 = cucc_block1;
  const uint32_t v_98 = cucc_block2;
  uint32_t cucc_b0 = (uint32_t)((block_begin) % v_93);
  uint32_t cucc_b1 = (uint32_t)(((block_begin) / v_93) % v_94);
  uint32_t cucc_b2 = (uint32_t)(((block_begin) / v_93) / v_94);
  for (uint32_t blin = block_begin; blin < block_end; ++blin) {
    const uint32_t bx_99 = cucc_b0;
    const uint32_t by_100 = cucc_b1;
    const uint32_t bz_101 = cucc_b2;
    char *const v_102 = (char *)scratch + 0;
    char *const v_4 = v_0;
    char *const v_6 = v_1;
    const uint32_t v_25 = cucc_block0;
    const uint32_t v_26 = (uint32_t)(bx_99 * v_25);
    const uint32_t v_114 = 0x0u;
    const uint32_t v_115 = 0x1u;
    for (int32_t tz_105_c = (int32_t)v_114; tz_105_c < (int32_t)v_98; ++tz_105_c) {
      const uint32_t tz_105 = (uint32_t)tz_105_c;
      for (int32_t ty_104_c = (int32_t)v_114; ty_104_c < (int32_t)v_97; ++ty_104_c) {
        const uint32_t ty_104 = (uint32_t)ty_104_c;
        for (int32_t tx_103_c = (int32_t)v_114; tx_103_c < (int32_t)v_96; ++tx_103_c) {
          const uint32_t tx_103 = (uint32_t)tx_103_c;
          const uint32_t v_80 = 0x0u;
          uint32_t v_82 = tx_103;
          uint32_t v_83;
          for (;;) {
            const uint32_t v_11 = 0x40u;
            const bool v_12 = ((int32_t)v_82) < ((int32_t)v_11);
            v_83 = v_82;
            if (!v_12) break;
            const uint64_t v_16 = (uint64_t)(int64_t)((int32_t)v_83);
            char *const v_17 = v_102 + (int64_t)v_16 * 4;
            *(uint32_t *)v_17 = v_80;
            const uint32_t v_19 = cucc_block0;
            const uint32_t v_21 = (uint32_t)(v_83 + v_19);
            v_82 = v_21;
          }
          const uint32_t v_84 = v_83;
        }
      }
    }
    const uint32_t v_116 = 0x0u;
    const uint32_t v_117 = 0x1u;
    for (int32_t tz_108_c = (int32_t)v_116; tz_108_c < (int32_t)v_98; ++tz_108_c) {
      const uint32_t tz_108 = (uint32_t)tz_108_c;
      for (int32_t ty_107_c = (int32_t)v_116; ty_107_c < (int32_t)v_97; ++ty_107_c) {
        const uint32_t ty_107 = (uint32_t)ty_107_c;
        for (int32_t tx_106_c = (int32_t)v_116; tx_106_c < (int32_t)v_96; ++tx_106_c) {
          const uint32_t tx_106 = (uint32_t)tx_106_c;
          const uint32_t v_28 = (uint32_t)(v_26 + tx_106);
          uint32_t v_86 = v_28;
          uint32_t v_87;
          for (;;) {
            const bool v_31 = ((int32_t)v_86) < ((int32_t)v_2);
            v_87 = v_86;
            if (!v_31) break;
            const uint64_t v_35 = (uint64_t)(int64_t)((int32_t)v_87);
            char *const v_36 = v_4 + (int64_t)v_35 * 1;
            const uint8_t v_37 = *(uint8_t *)v_36;
            const uint32_t v_38 = (uint32_t)v_37;
            const uint32_t v_39 = 0x40u;
            const uint32_t v_40 = (uint32_t)(((int32_t)v_38) % ((int32_t)v_39));
            const uint64_t v_41 = (uint64_t)(int64_t)((int32_t)v_40);
            char *const v_42 = v_102 + (int64_t)v_41 * 4;
            char *const v_43 = v_42;
            const uint32_t v_44 = 0x1u;
            const uint32_t v_45 = *(uint32_t *)v_43;
            *(uint32_t *)v_43 = (uint32_t)(v_45 + v_44);
            const uint32_t v_47 = cucc_grid0;
            const uint32_t v_48 = (uint32_t)(v_25 * v_47);
            const uint32_t v_50 = (uint32_t)(v_87 + v_48);
            v_86 = v_50;
          }
          const uint32_t v_88 = v_87;
        }
      }
    }
    const uint32_t v_118 = 0x0u;
    const uint32_t v_119 = 0x1u;
    for (int32_t tz_112_c = (int32_t)v_118; tz_112_c < (int32_t)v_98; ++tz_112_c) {
      const uint32_t tz_112 = (uint32_t)tz_112_c;
      for (int32_t ty_111_c = (int32_t)v_118; ty_111_c < (int32_t)v_97; ++ty_111_c) {
        const uint32_t ty_111 = (uint32_t)ty_111_c;
        for (int32_t tx_110_c = (int32_t)v_118; tx_110_c < (int32_t)v_96; ++tx_110_c) {
          const uint32_t tx_110 = (uint32_t)tx_110_c;
          const uint32_t v_113 = 0x0u;
          uint32_t v_90 = tx_110;
          uint32_t v_91;
          for (;;) {
            const uint32_t v_55 = 0x40u;
            const bool v_56 = ((int32_t)v_90) < ((int32_t)v_55);
            v_91 = v_90;
            if (!v_56) break;
            const uint64_t v_59 = (uint64_t)(int64_t)((int32_t)v_91);
            char *const v_60 = v_102 + (int64_t)v_59 * 4;
            const uint32_t v_61 = *(uint32_t *)v_60;
            const bool v_63 = v_61 != v_113;
            if (v_63) {
              char *const v_67 = v_6 + (int64_t)v_59 * 4;
              const uint32_t v_72 = *(uint32_t *)v_60;
              const uint32_t v_73 = __atomic_fetch_add((uint32_t *)v_67, v_72, __ATOMIC_RELAXED);
            }
            const uint32_t v_76 = (uint32_t)(v_91 + v_25);
            v_90 = v_76;
          }
          const uint32_t v_92 = v_91;
        }
      }
    }
    ++cucc_b0; if (cucc_b0 == v_93) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_94) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}
