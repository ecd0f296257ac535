/* kernel _Z9rows_colsPKiPiS1_ii */
void k_Z9rows_colsPKiPiS1_ii__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
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
  char * v_2 = *(char * *)args[2];
  uint32_t v_3 = *(uint32_t *)args[3];
  uint32_t v_4 = *(uint32_t *)args[4];
  const uint32_t v_96 = cucc_grid0;
  const uint32_t v_97 = cucc_grid1;
  const uint32_t v_98 = cucc_grid2;
  const uint32_t v_99 = cucc_block0;
  const uint32_t v_100 = cucc_block1;
  const uint32_t v_101 = cucc_block2;
  const uint32_t ex_108 = (uint32_t)(v_96 * v_99);
  const uint32_t ey_109 = (uint32_t)(v_97 * v_100);
  const uint32_t ez_110 = (uint32_t)(v_98 * v_101);
  const uint32_t v_120 = 0x1u;
  const uint32_t v_121 = (uint32_t)(v_3 - v_120);
  const uint64_t v_122 = (uint64_t)(int64_t)((int32_t)v_121);
  const uint64_t v_123 = (uint64_t)ex_108;
  const uint32_t v_124 = 0x0u;
  const uint64_t v_125 = (uint64_t)INT64_C(0);
  const uint64_t v_126 = (uint64_t)(v_122 - v_125);
  const uint64_t v_127 = UINT64_C(0x1);
  const uint64_t v_128 = (uint64_t)(v_125 + v_123);
  const uint64_t v_129 = (uint64_t)(v_128 - v_127);
  const uint64_t v_130 = UINT64_C(0x7fffffff);
  const bool v_131 = ((int64_t)v_129) <= ((int64_t)v_130);
  const uint64_t v_132 = UINT64_C(0x0);
  const bool v_133 = ((int64_t)v_126) < ((int64_t)v_132);
  const uint64_t v_134 = v_133 ? v_132 : v_126;
  const bool v_135 = ((int64_t)v_134) < ((int64_t)v_123);
  const uint64_t v_136 = v_135 ? v_134 : v_123;
  const uint64_t v_137 = v_131 ? v_136 : v_123;
  const uint32_t v_138 = (uint32_t)v_137;
  const bool v_139 = v_138 < ex_108;
  const uint32_t v_140 = v_139 ? v_138 : ex_108;
  const uint64_t v_141 = (uint64_t)(int64_t)((int32_t)v_4);
  const uint64_t v_142 = (uint64_t)ey_109;
  const uint32_t v_143 = 0x0u;
  const uint64_t v_144 = (uint64_t)INT64_C(0);
  const uint64_t v_145 = (uint64_t)(v_141 - v_144);
  const uint64_t v_146 = UINT64_C(0x1);
  const uint64_t v_147 = (uint64_t)(v_144 + v_142);
  const uint64_t v_148 = (uint64_t)(v_147 - v_146);
  const uint64_t v_149 = UINT64_C(0x7fffffff);
  const bool v_150 = ((int64_t)v_148) <= ((int64_t)v_149);
  const uint64_t v_151 = UINT64_C(0x0);
  const bool v_152 = ((int64_t)v_145) < ((int64_t)v_151);
  const uint64_t v_153 = v_152 ? v_151 : v_145;
  const bool v_154 = ((int64_t)v_153) < ((int64_t)v_142);
  const uint64_t v_155 = v_154 ? v_153 : v_142;
  const uint64_t v_156 = v_150 ? v_155 : v_142;
  const uint32_t v_157 = (uint32_t)v_156;
  const bool v_158 = v_157 < ey_109;
  const uint32_t v_159 = v_158 ? v_157 : ey_109;
  {
    const uint64_t cucc_e0 = (uint64_t)cucc_grid1 * cucc_block1;
    const uint64_t cucc_u0 = cucc_e0 > UINT32_MAX ? cucc_e0 : (cucc_e0 < (uint64_t)v_159 ? cucc_e0 : (uint64_t)v_159);
    const uint64_t cucc_e1 = (uint64_t)cucc_grid0 * cucc_block0;
    const uint64_t cucc_u1 = cucc_e1 > UINT32_MAX ? cucc_e1 : (cucc_e1 < (uint64_t)v_140 ? cucc_e1 : (uint64_t)v_140);
    const uint64_t cucc_e2 = (uint64_t)cucc_grid2 * cucc_block2;
    const uint64_t cucc_u2 = cucc_e2;
    if (launch->thread_ranges == 2) {
      for (uint64_t cucc_r = block_begin; cucc_r < (uint64_t)block_end; ++cucc_r) {
        const uint64_t cucc_g2 = cucc_r / cucc_e1, cucc_g1 = cucc_r % cucc_e1;
        if (cucc_g2 >= cucc_u2 || cucc_g1 >= cucc_u1) continue;
        if (cucc_u0 <= (uint64_t)INT32_MAX) {
          for (int32_t cucc_i0 = 0; cucc_i0 < (int32_t)cucc_u0; ++cucc_i0) {
            const uint64_t cucc_g0 = (uint64_t)cucc_i0;
            const uint32_t gy_111 = (uint32_t)cucc_g0;
            const uint32_t gx_112 = (uint32_t)cucc_g1;
            const uint32_t gz_113 = (uint32_t)cucc_g2;
            char *const v_6 = v_0;
            char *const v_8 = v_1;
            char *const v_10 = v_2;
            const uint32_t v_27 = 0x1u;
            const uint32_t v_28 = (uint32_t)(((int32_t)v_3) - ((int32_t)v_27));
            const bool v_94 = false;
            const bool v_29 = ((int32_t)gx_112) >= ((int32_t)v_28);
            bool v_30;
            if (v_29) {
              const bool v_34 = true;
              v_30 = v_34;
            } else {
              const bool v_33 = ((int32_t)gy_111) >= ((int32_t)v_4);
              v_30 = v_33;
            }
            bool v_95;
            if (v_30) {
              const bool v_37 = true;
              v_95 = v_37;
            } else {
              v_95 = v_94;
            }
            const bool v_39 = true;
            const bool v_40 = (bool)(v_95 ^ v_39);
            if (v_40) {
              const uint32_t v_44 = (uint32_t)(((int32_t)gx_112) * ((int32_t)v_4));
              const uint32_t v_46 = (uint32_t)(((int32_t)v_44) + ((int32_t)gy_111));
              const uint64_t v_47 = (uint64_t)(((int64_t)((int32_t)gx_112) * (int64_t)((int32_t)v_4)) + (int64_t)((int32_t)gy_111));
              char *const v_48 = v_6 + (int64_t)v_47 * 4;
              const uint32_t v_49 = *(uint32_t *)v_48;
              const uint32_t v_50 = 0x2u;
              const uint32_t v_51 = (uint32_t)(((int32_t)v_49) * ((int32_t)v_50));
              const uint32_t v_55 = (uint32_t)(((int32_t)gx_112) + ((int32_t)v_27));
              const uint32_t v_57 = (uint32_t)(((int32_t)v_55) * ((int32_t)v_4));
              const uint32_t v_59 = (uint32_t)(((int32_t)v_57) + ((int32_t)gy_111));
              const uint64_t v_60 = (uint64_t)((((int64_t)((int32_t)gx_112) + INT64_C(1)) * (int64_t)((int32_t)v_4)) + (int64_t)((int32_t)gy_111));
              char *const v_61 = v_6 + (int64_t)v_60 * 4;
              const uint32_t v_62 = *(uint32_t *)v_61;
              const uint32_t v_63 = (uint32_t)(((int32_t)v_51) + ((int32_t)v_62));
              char *const v_71 = v_8 + (int64_t)v_47 * 4;
              *(uint32_t *)v_71 = v_63;
              const uint32_t v_74 = 0x3e8u;
              const uint32_t v_75 = (uint32_t)(((int32_t)gx_112) * ((int32_t)v_74));
              const uint32_t v_77 = (uint32_t)(((int32_t)v_75) + ((int32_t)gy_111));
              const uint32_t v_81 = (uint32_t)(((int32_t)gy_111) * ((int32_t)v_3));
              const uint32_t v_83 = (uint32_t)(((int32_t)v_81) + ((int32_t)gx_112));
              const uint64_t v_84 = (uint64_t)(((int64_t)((int32_t)gy_111) * (int64_t)((int32_t)v_3)) + (int64_t)((int32_t)gx_112));
              char *const v_85 = v_10 + (int64_t)v_84 * 4;
              *(uint32_t *)v_85 = v_77;
            }
          }
        } else {
          for (uint64_t cucc_g0 = 0; cucc_g0 < cucc_u0; ++cucc_g0) {
            const uint32_t gy_111 = (uint32_t)cucc_g0;
            const uint32_t gx_112 = (uint32_t)cucc_g1;
            const uint32_t gz_113 = (uint32_t)cucc_g2;
            char *const v_6 = v_0;
            char *const v_8 = v_1;
            char *const v_10 = v_2;
            const uint32_t v_27 = 0x1u;
            const uint32_t v_28 = (uint32_t)(((int32_t)v_3) - ((int32_t)v_27));
            const bool v_94 = false;
            const bool v_29 = ((int32_t)gx_112) >= ((int32_t)v_28);
            bool v_30;
            if (v_29) {
              const bool v_34 = true;
              v_30 = v_34;
            } else {
              const bool v_33 = ((int32_t)gy_111) >= ((int32_t)v_4);
              v_30 = v_33;
            }
            bool v_95;
            if (v_30) {
              const bool v_37 = true;
              v_95 = v_37;
            } else {
              v_95 = v_94;
            }
            const bool v_39 = true;
            const bool v_40 = (bool)(v_95 ^ v_39);
            if (v_40) {
              const uint32_t v_44 = (uint32_t)(((int32_t)gx_112) * ((int32_t)v_4));
              const uint32_t v_46 = (uint32_t)(((int32_t)v_44) + ((int32_t)gy_111));
              const uint64_t v_47 = (uint64_t)(((int64_t)((int32_t)gx_112) * (int64_t)((int32_t)v_4)) + (int64_t)((int32_t)gy_111));
              char *const v_48 = v_6 + (int64_t)v_47 * 4;
              const uint32_t v_49 = *(uint32_t *)v_48;
              const uint32_t v_50 = 0x2u;
              const uint32_t v_51 = (uint32_t)(((int32_t)v_49) * ((int32_t)v_50));
              const uint32_t v_55 = (uint32_t)(((int32_t)gx_112) + ((int32_t)v_27));
              const uint32_t v_57 = (uint32_t)(((int32_t)v_55) * ((int32_t)v_4));
              const uint32_t v_59 = (uint32_t)(((int32_t)v_57) + ((int32_t)gy_111));
              const uint64_t v_60 = (uint64_t)((((int64_t)((int32_t)gx_112) + INT64_C(1)) * (int64_t)((int32_t)v_4)) + (int64_t)((int32_t)gy_111));
              char *const v_61 = v_6 + (int64_t)v_60 * 4;
              const uint32_t v_62 = *(uint32_t *)v_61;
              const uint32_t v_63 = (uint32_t)(((int32_t)v_51) + ((int32_t)v_62));
              char *const v_71 = v_8 + (int64_t)v_47 * 4;
              *(uint32_t *)v_71 = v_63;
              const uint32_t v_74 = 0x3e8u;
              const uint32_t v_75 = (uint32_t)(((int32_t)gx_112) * ((int32_t)v_74));
              const uint32_t v_77 = (uint32_t)(((int32_t)v_75) + ((int32_t)gy_111));
              const uint32_t v_81 = (uint32_t)(((int32_t)gy_111) * ((int32_t)v_3));
              const uint32_t v_83 = (uint32_t)(((int32_t)v_81) + ((int32_t)gx_112));
              const uint64_t v_84 = (uint64_t)(((int64_t)((int32_t)gy_111) * (int64_t)((int32_t)v_3)) + (int64_t)((int32_t)gx_112));
              char *const v_85 = v_10 + (int64_t)v_84 * 4;
              *(uint32_t *)v_85 = v_77;
            }
          }
        }
      }
    } else {
      uint32_t cucc_c0 = block_begin % cucc_grid0, cucc_c1 = block_begin / cucc_grid0 % cucc_grid1, cucc_c2 = block_begin / cucc_grid0 / cucc_grid1;
      for (uint32_t blin = block_begin; blin < block_end; ++blin) {
        const uint32_t cucc_c[3] = {cucc_c0, cucc_c1, cucc_c2}, cucc_bd[3] = {cucc_block0, cucc_block1, cucc_block2};
        const uint64_t cucc_lo0 = (uint64_t)cucc_c[1] * cucc_bd[1], cucc_hi0 = cucc_lo0 + cucc_bd[1] < cucc_u0 ? cucc_lo0 + cucc_bd[1] : cucc_u0;
        const uint64_t cucc_lo1 = (uint64_t)cucc_c[0] * cucc_bd[0], cucc_hi1 = cucc_lo1 + cucc_bd[0] < cucc_u1 ? cucc_lo1 + cucc_bd[0] : cucc_u1;
        const uint64_t cucc_lo2 = (uint64_t)cucc_c[2] * cucc_bd[2], cucc_hi2 = cucc_lo2 + cucc_bd[2] < cucc_u2 ? cucc_lo2 + cucc_bd[2] : cucc_u2;
        for (uint64_t cucc_g2 = cucc_lo2; cucc_g2 < cucc_hi2; ++cucc_g2) {
          for (uint64_t cucc_g1 = cucc_lo1; cucc_g1 < cucc_hi1; ++cucc_g1) {
            for (uint64_t cucc_g0 = cucc_lo0; cucc_g0 < cucc_hi0; ++cucc_g0) {
              const uint32_t gy_111 = (uint32_t)cucc_g0;
              const uint32_t gx_112 = (uint32_t)cucc_g1;
              const uint32_t gz_113 = (uint32_t)cucc_g2;
              char *const v_6 = v_0;
              char *const v_8 = v_1;
              char *const v_10 = v_2;
              const uint32_t v_27 = 0x1u;
              const uint32_t v_28 = (uint32_t)(((int32_t)v_3) - ((int32_t)v_27));
              const bool v_94 = false;
              const bool v_29 = ((int32_t)gx_112) >= ((int32_t)v_28);
              bool v_30;
              if (v_29) {
                const bool v_34 = true;
                v_30 = v_34;
              } else {
                const bool v_33 = ((int32_t)gy_111) >= ((int32_t)v_4);
                v_30 = v_33;
              }
              bool v_95;
              if (v_30) {
                const bool v_37 = true;
                v_95 = v_37;
              } else {
                v_95 = v_94;
              }
              const bool v_39 = true;
              const bool v_40 = (bool)(v_95 ^ v_39);
              if (v_40) {
                const uint32_t v_44 = (uint32_t)(((int32_t)gx_112) * ((int32_t)v_4));
                const uint32_t v_46 = (uint32_t)(((int32_t)v_44) + ((int32_t)gy_111));
                const uint64_t v_47 = (uint64_t)(((int64_t)((int32_t)gx_112) * (int64_t)((int32_t)v_4)) + (int64_t)((int32_t)gy_111));
                char *const v_48 = v_6 + (int64_t)v_47 * 4;
                const uint32_t v_49 = *(uint32_t *)v_48;
                const uint32_t v_50 = 0x2u;
                const uint32_t v_51 = (uint32_t)(((int32_t)v_49) * ((int32_t)v_50));
                const uint32_t v_55 = (uint32_t)(((int32_t)gx_112) + ((int32_t)v_27));
                const uint32_t v_57 = (uint32_t)(((int32_t)v_55) * ((int32_t)v_4));
                const uint32_t v_59 = (uint32_t)(((int32_t)v_57) + ((int32_t)gy_111));
                const uint64_t v_60 = (uint64_t)((((int64_t)((int32_t)gx_112) + INT64_C(1)) * (int64_t)((int32_t)v_4)) + (int64_t)((int32_t)gy_111));
                char *const v_61 = v_6 + (int64_t)v_60 * 4;
                const uint32_t v_62 = *(uint32_t *)v_61;
                const uint32_t v_63 = (uint32_t)(((int32_t)v_51) + ((int32_t)v_62));
                char *const v_71 = v_8 + (int64_t)v_47 * 4;
                *(uint32_t *)v_71 = v_63;
                const uint32_t v_74 = 0x3e8u;
                const uint32_t v_75 = (uint32_t)(((int32_t)gx_112) * ((int32_t)v_74));
                const uint32_t v_77 = (uint32_t)(((int32_t)v_75) + ((int32_t)gy_111));
                const uint32_t v_81 = (uint32_t)(((int32_t)gy_111) * ((int32_t)v_3));
                const uint32_t v_83 = (uint32_t)(((int32_t)v_81) + ((int32_t)gx_112));
                const uint64_t v_84 = (uint64_t)(((int64_t)((int32_t)gy_111) * (int64_t)((int32_t)v_3)) + (int64_t)((int32_t)gx_112));
                char *const v_85 = v_10 + (int64_t)v_84 * 4;
                *(uint32_t *)v_85 = v_77;
              }
            }
          }
        }
        if (++cucc_c0 == cucc_grid0) { cucc_c0 = 0; if (++cucc_c1 == cucc_grid1) { cucc_c1 = 0; ++cucc_c2; } }
      }
    }
  }
  return;
}

/* kernel _Z9cols_rowsPiii */
void k_Z9cols_rowsPiii__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
  (void)launch; (void)block_begin; (void)block_end; (void)scratch;
  const uint32_t cucc_grid0 = launch->grid[0], cucc_grid1 = launch->grid[1], cucc_grid2 = launch->grid[2];
  const uint32_t cucc_block0 = launch->block[0], cucc_block1 = launch->block[1], cucc_block2 = launch->block[2];
  const size_t cucc_dyn_size = (size_t)launch->dynamic_shared;
  (void)cucc_grid0; (void)cucc_grid1; (void)cucc_grid2; (void)cucc_block0; (void)cucc_block1; (void)cucc_block2; (void)cucc_dyn_size;
  if (cucc_block0 - 1u >= 1024u || cucc_block1 - 1u >= 1024u || cucc_block2 - 1u >= 64u || cucc_grid0 - 1u >= 0x7fffffffu || cucc_grid1 - 1u >= 65535u || cucc_grid2 - 1u >= 65535u) __builtin_unreachable();
  char *const cucc_dyn = (char *)scratch + 0;
  (void)cucc_dyn;
  char * v_0 = *(char * *)args[0];
  uint32_t v_1 = *(uint32_t *)args[1];
  uint32_t v_2 = *(uint32_t *)args[2];
  const uint32_t v_51 = cucc_grid0;
  const uint32_t v_52 = cucc_grid1;
  const uint32_t v_53 = cucc_grid2;
  const uint32_t v_54 = cucc_block0;
  const uint32_t v_55 = cucc_block1;
  const uint32_t v_56 = cucc_block2;
  const uint32_t ex_63 = (uint32_t)(v_51 * v_54);
  const uint32_t ey_64 = (uint32_t)(v_52 * v_55);
  const uint32_t ez_65 = (uint32_t)(v_53 * v_56);
  const uint64_t v_75 = (uint64_t)(int64_t)((int32_t)v_1);
  const uint64_t v_76 = (uint64_t)ey_64;
  const uint32_t v_77 = 0x0u;
  const uint64_t v_78 = (uint64_t)INT64_C(0);
  const uint64_t v_79 = (uint64_t)(v_75 - v_78);
  const uint64_t v_80 = UINT64_C(0x1);
  const uint64_t v_81 = (uint64_t)(v_78 + v_76);
  const uint64_t v_82 = (uint64_t)(v_81 - v_80);
  const uint64_t v_83 = UINT64_C(0x7fffffff);
  const bool v_84 = ((int64_t)v_82) <= ((int64_t)v_83);
  const uint64_t v_85 = UINT64_C(0x0);
  const bool v_86 = ((int64_t)v_79) < ((int64_t)v_85);
  const uint64_t v_87 = v_86 ? v_85 : v_79;
  const bool v_88 = ((int64_t)v_87) < ((int64_t)v_76);
  const uint64_t v_89 = v_88 ? v_87 : v_76;
  const uint64_t v_90 = v_84 ? v_89 : v_76;
  const uint32_t v_91 = (uint32_t)v_90;
  const bool v_92 = v_91 < ey_64;
  const uint32_t v_93 = v_92 ? v_91 : ey_64;
  const uint64_t v_94 = (uint64_t)(int64_t)((int32_t)v_2);
  const uint64_t v_95 = (uint64_t)ex_63;
  const uint32_t v_96 = 0x0u;
  const uint64_t v_97 = (uint64_t)INT64_C(0);
  const uint64_t v_98 = (uint64_t)(v_94 - v_97);
  const uint64_t v_99 = UINT64_C(0x1);
  const uint64_t v_100 = (uint64_t)(v_97 + v_95);
  const uint64_t v_101 = (uint64_t)(v_100 - v_99);
  const uint64_t v_102 = UINT64_C(0x7fffffff);
  const bool v_103 = ((int64_t)v_101) <= ((int64_t)v_102);
  const uint64_t v_104 = UINT64_C(0x0);
  const bool v_105 = ((int64_t)v_98) < ((int64_t)v_104);
  const uint64_t v_106 = v_105 ? v_104 : v_98;
  const bool v_107 = ((int64_t)v_106) < ((int64_t)v_95);
  const uint64_t v_108 = v_107 ? v_106 : v_95;
  const uint64_t v_109 = v_103 ? v_108 : v_95;
  const uint32_t v_110 = (uint32_t)v_109;
  const bool v_111 = v_110 < ex_63;
  const uint32_t v_112 = v_111 ? v_110 : ex_63;
  {
    const uint64_t cucc_e0 = (uint64_t)cucc_grid0 * cucc_block0;
    const uint64_t cucc_u0 = cucc_e0 > UINT32_MAX ? cucc_e0 : (cucc_e0 < (uint64_t)v_112 ? cucc_e0 : (uint64_t)v_112);
    const uint64_t cucc_e1 = (uint64_t)cucc_grid1 * cucc_block1;
    const uint64_t cucc_u1 = cucc_e1 > UINT32_MAX ? cucc_e1 : (cucc_e1 < (uint64_t)v_93 ? cucc_e1 : (uint64_t)v_93);
    const uint64_t cucc_e2 = (uint64_t)cucc_grid2 * cucc_block2;
    const uint64_t cucc_u2 = cucc_e2;
    if (launch->thread_ranges == 2) {
      for (uint64_t cucc_r = block_begin; cucc_r < (uint64_t)block_end; ++cucc_r) {
        const uint64_t cucc_g2 = cucc_r / cucc_e1, cucc_g1 = cucc_r % cucc_e1;
        if (cucc_g2 >= cucc_u2 || cucc_g1 >= cucc_u1) continue;
        if (cucc_u0 <= (uint64_t)INT32_MAX) {
          for (int32_t cucc_i0 = 0; cucc_i0 < (int32_t)cucc_u0; ++cucc_i0) {
            const uint64_t cucc_g0 = (uint64_t)cucc_i0;
            const uint32_t gx_66 = (uint32_t)cucc_g0;
            const uint32_t gy_67 = (uint32_t)cucc_g1;
            const uint32_t gz_68 = (uint32_t)cucc_g2;
            char *const v_4 = v_0;
            const bool v_21 = ((int32_t)gy_67) < ((int32_t)v_1);
            bool v_22;
            if (v_21) {
              const bool v_25 = ((int32_t)gx_66) < ((int32_t)v_2);
              v_22 = v_25;
            } else {
              const bool v_26 = false;
              v_22 = v_26;
            }
            bool v_27;
            if (v_22) {
              const uint32_t v_29 = 0x1u;
              const bool v_30 = ((int32_t)gx_66) >= ((int32_t)v_29);
              v_27 = v_30;
            } else {
              const bool v_31 = false;
              v_27 = v_31;
            }
            if (v_27) {
              const uint32_t v_34 = (uint32_t)(((int32_t)gy_67) - ((int32_t)gx_66));
              const uint32_t v_38 = (uint32_t)(((int32_t)gy_67) * ((int32_t)v_2));
              const uint32_t v_40 = (uint32_t)(((int32_t)v_38) + ((int32_t)gx_66));
              const uint64_t v_41 = (uint64_t)(((int64_t)((int32_t)gy_67) * (int64_t)((int32_t)v_2)) + (int64_t)((int32_t)gx_66));
              char *const v_42 = v_4 + (int64_t)v_41 * 4;
              const uint32_t v_43 = *(uint32_t *)v_42;
              const uint32_t v_44 = (uint32_t)(((int32_t)v_43) + ((int32_t)v_34));
              *(uint32_t *)v_42 = v_44;
            }
          }
        } else {
          for (uint64_t cucc_g0 = 0; cucc_g0 < cucc_u0; ++cucc_g0) {
            const uint32_t gx_66 = (uint32_t)cucc_g0;
            const uint32_t gy_67 = (uint32_t)cucc_g1;
            const uint32_t gz_68 = (uint32_t)cucc_g2;
            char *const v_4 = v_0;
            const bool v_21 = ((int32_t)gy_67) < ((int32_t)v_1);
            bool v_22;
            if (v_21) {
              const bool v_25 = ((int32_t)gx_66) < ((int32_t)v_2);
              v_22 = v_25;
            } else {
              const bool v_26 = false;
              v_22 = v_26;
            }
            bool v_27;
            if (v_22) {
              const uint32_t v_29 = 0x1u;
              const bool v_30 = ((int32_t)gx_66) >= ((int32_t)v_29);
              v_27 = v_30;
            } else {
              const bool v_31 = false;
              v_27 = v_31;
            }
            if (v_27) {
              const uint32_t v_34 = (uint32_t)(((int32_t)gy_67) - ((int32_t)gx_66));
              const uint32_t v_38 = (uint32_t)(((int32_t)gy_67) * ((int32_t)v_2));
              const uint32_t v_40 = (uint32_t)(((int32_t)v_38) + ((int32_t)gx_66));
              const uint64_t v_41 = (uint64_t)(((int64_t)((int32_t)gy_67) * (int64_t)((int32_t)v_2)) + (int64_t)((int32_t)gx_66));
              char *const v_42 = v_4 + (int64_t)v_41 * 4;
              const uint32_t v_43 = *(uint32_t *)v_42;
              const uint32_t v_44 = (uint32_t)(((int32_t)v_43) + ((int32_t)v_34));
              *(uint32_t *)v_42 = v_44;
            }
          }
        }
      }
    } else {
      uint32_t cucc_c0 = block_begin % cucc_grid0, cucc_c1 = block_begin / cucc_grid0 % cucc_grid1, cucc_c2 = block_begin / cucc_grid0 / cucc_grid1;
      for (uint32_t blin = block_begin; blin < block_end; ++blin) {
        const uint32_t cucc_c[3] = {cucc_c0, cucc_c1, cucc_c2}, cucc_bd[3] = {cucc_block0, cucc_block1, cucc_block2};
        const uint64_t cucc_lo0 = (uint64_t)cucc_c[0] * cucc_bd[0], cucc_hi0 = cucc_lo0 + cucc_bd[0] < cucc_u0 ? cucc_lo0 + cucc_bd[0] : cucc_u0;
        const uint64_t cucc_lo1 = (uint64_t)cucc_c[1] * cucc_bd[1], cucc_hi1 = cucc_lo1 + cucc_bd[1] < cucc_u1 ? cucc_lo1 + cucc_bd[1] : cucc_u1;
        const uint64_t cucc_lo2 = (uint64_t)cucc_c[2] * cucc_bd[2], cucc_hi2 = cucc_lo2 + cucc_bd[2] < cucc_u2 ? cucc_lo2 + cucc_bd[2] : cucc_u2;
        for (uint64_t cucc_g2 = cucc_lo2; cucc_g2 < cucc_hi2; ++cucc_g2) {
          for (uint64_t cucc_g1 = cucc_lo1; cucc_g1 < cucc_hi1; ++cucc_g1) {
            for (uint64_t cucc_g0 = cucc_lo0; cucc_g0 < cucc_hi0; ++cucc_g0) {
              const uint32_t gx_66 = (uint32_t)cucc_g0;
              const uint32_t gy_67 = (uint32_t)cucc_g1;
              const uint32_t gz_68 = (uint32_t)cucc_g2;
              char *const v_4 = v_0;
              const bool v_21 = ((int32_t)gy_67) < ((int32_t)v_1);
              bool v_22;
              if (v_21) {
                const bool v_25 = ((int32_t)gx_66) < ((int32_t)v_2);
                v_22 = v_25;
              } else {
                const bool v_26 = false;
                v_22 = v_26;
              }
              bool v_27;
              if (v_22) {
                const uint32_t v_29 = 0x1u;
                const bool v_30 = ((int32_t)gx_66) >= ((int32_t)v_29);
                v_27 = v_30;
              } else {
                const bool v_31 = false;
                v_27 = v_31;
              }
              if (v_27) {
                const uint32_t v_34 = (uint32_t)(((int32_t)gy_67) - ((int32_t)gx_66));
                const uint32_t v_38 = (uint32_t)(((int32_t)gy_67) * ((int32_t)v_2));
                const uint32_t v_40 = (uint32_t)(((int32_t)v_38) + ((int32_t)gx_66));
                const uint64_t v_41 = (uint64_t)(((int64_t)((int32_t)gy_67) * (int64_t)((int32_t)v_2)) + (int64_t)((int32_t)gx_66));
                char *const v_42 = v_4 + (int64_t)v_41 * 4;
                const uint32_t v_43 = *(uint32_t *)v_42;
                const uint32_t v_44 = (uint32_t)(((int32_t)v_43) + ((int32_t)v_34));
                *(uint32_t *)v_42 = v_44;
              }
            }
          }
        }
        if (++cucc_c0 == cucc_grid0) { cucc_c0 = 0; if (++cucc_c1 == cucc_grid1) { cucc_c1 = 0; ++cucc_c2; } }
      }
    }
  }
  return;
}
