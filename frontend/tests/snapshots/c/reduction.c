/* kernel _Z6reduceIiLj128EEvPKT_PS0_i */
void k_Z6reduceIiLj128EEvPKT_PS0_i__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
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
  uint32_t v_2 = *(uint32_t *)args[2];
  const uint32_t v_108 = cucc_grid0;
  const uint32_t v_109 = cucc_grid1;
  const uint32_t v_110 = cucc_grid2;
  const uint32_t v_111 = cucc_block0;
  const uint32_t v_112 = cucc_block1;
  const uint32_t v_113 = cucc_block2;
  uint32_t cucc_b0 = (uint32_t)((block_begin) % v_108);
  uint32_t cucc_b1 = (uint32_t)(((block_begin) / v_108) % v_109);
  uint32_t cucc_b2 = (uint32_t)(((block_begin) / v_108) / v_109);
  for (uint32_t blin = block_begin; blin < block_end; ++blin) {
    const uint32_t bx_114 = cucc_b0;
    const uint32_t by_115 = cucc_b1;
    const uint32_t bz_116 = cucc_b2;
    char *const v_117 = (char *)scratch + 0;
    char *const v_4 = v_0;
    char *const v_6 = v_1;
    const uint32_t v_105 = 0x100u;
    const uint32_t v_15 = (uint32_t)(bx_114 * v_105);
    const uint32_t v_173 = 0x1u;
    const bool v_174 = v_112 == v_173;
    const uint32_t v_175 = 0x1u;
    const bool v_176 = v_113 == v_175;
    const bool v_177 = (bool)(v_174 & v_176);
    if (v_177) {
      for (int32_t tz_180_c = 0; tz_180_c < (int32_t)v_175; ++tz_180_c) {
        const uint32_t tz_180 = (uint32_t)tz_180_c;
        for (int32_t ty_179_c = 0; ty_179_c < (int32_t)v_173; ++ty_179_c) {
          const uint32_t ty_179 = (uint32_t)ty_179_c;
#pragma GCC ivdep
          for (int32_t tx_178_c = 0; tx_178_c < (int32_t)v_111; ++tx_178_c) {
            const uint32_t tx_178 = (uint32_t)tx_178_c;
            const uint32_t v_181 = 0x0u;
            const uint32_t v_182 = 0x80u;
            const uint32_t v_183 = (uint32_t)(v_15 + tx_178);
            const bool v_184 = v_183 < v_2;
            uint32_t v_188;
            if (v_184) {
              const uint64_t v_185 = (uint64_t)v_183;
              char *const v_186 = v_4 + (int64_t)v_185 * 4;
              const uint32_t v_187 = *(uint32_t *)v_186;
              v_188 = v_187;
            } else {
              v_188 = v_181;
            }
            const uint32_t v_189 = (uint32_t)(v_183 + v_182);
            const bool v_190 = v_189 < v_2;
            uint32_t v_195;
            if (v_190) {
              const uint64_t v_191 = (uint64_t)v_189;
              char *const v_192 = v_4 + (int64_t)v_191 * 4;
              const uint32_t v_193 = *(uint32_t *)v_192;
              const uint32_t v_194 = (uint32_t)(((int32_t)v_188) + ((int32_t)v_193));
              v_195 = v_194;
            } else {
              v_195 = v_188;
            }
            const uint64_t v_196 = (uint64_t)tx_178;
            char *const v_197 = v_117 + (int64_t)v_196 * 4;
            *(uint32_t *)v_197 = v_195;
          }
        }
      }
    } else {
      const uint32_t v_198 = 0x0u;
      const uint32_t v_199 = 0x1u;
      for (int32_t tz_120_c = (int32_t)v_198; tz_120_c < (int32_t)v_113; ++tz_120_c) {
        const uint32_t tz_120 = (uint32_t)tz_120_c;
        for (int32_t ty_119_c = (int32_t)v_198; ty_119_c < (int32_t)v_112; ++ty_119_c) {
          const uint32_t ty_119 = (uint32_t)ty_119_c;
          for (int32_t tx_118_c = (int32_t)v_198; tx_118_c < (int32_t)v_111; ++tx_118_c) {
            const uint32_t tx_118 = (uint32_t)tx_118_c;
            const uint32_t v_95 = 0x0u;
            const uint32_t v_12 = 0x80u;
            const uint32_t v_17 = (uint32_t)(v_15 + tx_118);
            const bool v_22 = v_17 < v_2;
            uint32_t v_99;
            if (v_22) {
              const uint64_t v_25 = (uint64_t)v_17;
              char *const v_26 = v_4 + (int64_t)v_25 * 4;
              const uint32_t v_27 = *(uint32_t *)v_26;
              v_99 = v_27;
            } else {
              v_99 = v_95;
            }
            const uint32_t v_33 = (uint32_t)(v_17 + v_12);
            const bool v_35 = v_33 < v_2;
            uint32_t v_100;
            if (v_35) {
              const uint64_t v_40 = (uint64_t)v_33;
              char *const v_41 = v_4 + (int64_t)v_40 * 4;
              const uint32_t v_42 = *(uint32_t *)v_41;
              const uint32_t v_44 = (uint32_t)(((int32_t)v_99) + ((int32_t)v_42));
              v_100 = v_44;
            } else {
              v_100 = v_99;
            }
            const uint64_t v_49 = (uint64_t)tx_118;
            char *const v_50 = v_117 + (int64_t)v_49 * 4;
            *(uint32_t *)v_50 = v_100;
          }
        }
      }
    }
    const uint32_t v_144 = 0x40u;
    uint32_t v_145 = v_144;
    uint32_t v_153;
    for (;;) {
      const uint32_t v_149 = 0x0u;
      const bool v_58 = v_145 > v_149;
      v_153 = v_145;
      if (!v_58) break;
      const uint32_t v_76 = 0x1u;
      const uint32_t v_78 = (uint32_t)(v_153 >> v_76);
      const uint64_t v_165 = (uint64_t)v_153;
      const uint64_t v_166 = (uint64_t)v_111;
      const uint64_t v_167 = UINT64_C(0x0);
      const bool v_168 = ((int64_t)v_165) < ((int64_t)v_167);
      const uint64_t v_169 = v_168 ? v_167 : v_165;
      const bool v_170 = ((int64_t)v_169) < ((int64_t)v_166);
      const uint64_t v_171 = v_170 ? v_169 : v_166;
      const uint32_t v_172 = (uint32_t)v_171;
      const uint32_t v_200 = 0x0u;
      const uint32_t v_201 = 0x1u;
      for (int32_t tz_156_c = (int32_t)v_200; tz_156_c < (int32_t)v_113; ++tz_156_c) {
        const uint32_t tz_156 = (uint32_t)tz_156_c;
        for (int32_t ty_155_c = (int32_t)v_200; ty_155_c < (int32_t)v_112; ++ty_155_c) {
          const uint32_t ty_155 = (uint32_t)ty_155_c;
          for (int32_t tx_154_c = (int32_t)v_200; tx_154_c < (int32_t)v_172; ++tx_154_c) {
            const uint32_t tx_154 = (uint32_t)tx_154_c;
            const uint64_t v_158 = (uint64_t)tx_154;
            char *const v_159 = v_117 + (int64_t)v_158 * 4;
            const bool v_61 = tx_154 < v_153;
            if (v_61) {
              const uint32_t v_65 = (uint32_t)(tx_154 + v_153);
              const uint64_t v_66 = (uint64_t)v_65;
              char *const v_67 = v_117 + (int64_t)v_66 * 4;
              const uint32_t v_68 = *(uint32_t *)v_67;
              const uint32_t v_73 = *(uint32_t *)v_159;
              const uint32_t v_74 = (uint32_t)(((int32_t)v_73) + ((int32_t)v_68));
              *(uint32_t *)v_159 = v_74;
            }
          }
        }
      }
      v_145 = v_78;
    }
    const uint32_t v_161 = v_153;
    const uint32_t v_202 = 0x0u;
    const uint32_t v_203 = 0x1u;
    for (int32_t tz_136_c = (int32_t)v_202; tz_136_c < (int32_t)v_113; ++tz_136_c) {
      const uint32_t tz_136 = (uint32_t)tz_136_c;
      for (int32_t ty_135_c = (int32_t)v_202; ty_135_c < (int32_t)v_112; ++ty_135_c) {
        const uint32_t ty_135 = (uint32_t)ty_135_c;
        for (int32_t tx_134_c = (int32_t)v_202; tx_134_c < (int32_t)v_111; ++tx_134_c) {
          const uint32_t tx_134 = (uint32_t)tx_134_c;
          const uint32_t v_137 = 0x0u;
          const bool v_82 = tx_134 == v_137;
          if (v_82) {
            const uint64_t v_107 = UINT64_C(0x0);
            char *const v_86 = v_117 + (int64_t)v_107 * 4;
            const uint32_t v_87 = *(uint32_t *)v_86;
            const uint64_t v_90 = (uint64_t)bx_114;
            char *const v_91 = v_6 + (int64_t)v_90 * 4;
            *(uint32_t *)v_91 = v_87;
          }
        }
      }
    }
    ++cucc_b0; if (cucc_b0 == v_108) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_109) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}

/* kernel _Z6reduceIfLj64EEvPKT_PS0_i */
void k_Z6reduceIfLj64EEvPKT_PS0_i__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
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
  const uint32_t v_110 = cucc_grid0;
  const uint32_t v_111 = cucc_grid1;
  const uint32_t v_112 = cucc_grid2;
  const uint32_t v_113 = cucc_block0;
  const uint32_t v_114 = cucc_block1;
  const uint32_t v_115 = cucc_block2;
  uint32_t cucc_b0 = (uint32_t)((block_begin) % v_110);
  uint32_t cucc_b1 = (uint32_t)(((block_begin) / v_110) % v_111);
  uint32_t cucc_b2 = (uint32_t)(((block_begin) / v_110) / v_111);
  for (uint32_t blin = block_begin; blin < block_end; ++blin) {
    const uint32_t bx_116 = cucc_b0;
    const uint32_t by_117 = cucc_b1;
    const uint32_t bz_118 = cucc_b2;
    char *const v_119 = (char *)scratch + 0;
    char *const v_4 = v_0;
    char *const v_6 = v_1;
    const uint32_t v_106 = 0x80u;
    const uint32_t v_15 = (uint32_t)(bx_116 * v_106);
    const uint32_t v_175 = 0x1u;
    const bool v_176 = v_114 == v_175;
    const uint32_t v_177 = 0x1u;
    const bool v_178 = v_115 == v_177;
    const bool v_179 = (bool)(v_176 & v_178);
    if (v_179) {
      for (int32_t tz_182_c = 0; tz_182_c < (int32_t)v_177; ++tz_182_c) {
        const uint32_t tz_182 = (uint32_t)tz_182_c;
        for (int32_t ty_181_c = 0; ty_181_c < (int32_t)v_175; ++ty_181_c) {
          const uint32_t ty_181 = (uint32_t)ty_181_c;
#pragma GCC ivdep
          for (int32_t tx_180_c = 0; tx_180_c < (int32_t)v_113; ++tx_180_c) {
            const uint32_t tx_180 = (uint32_t)tx_180_c;
            const float v_183 = 0.0f;
            const uint32_t v_184 = 0x40u;
            const uint32_t v_185 = (uint32_t)(v_15 + tx_180);
            const bool v_186 = v_185 < v_2;
            float v_191;
            if (v_186) {
              const uint64_t v_187 = (uint64_t)v_185;
              char *const v_188 = v_4 + (int64_t)v_187 * 4;
              const float v_189 = *(float *)v_188;
              const float v_190 = v_183 + v_189;
              v_191 = v_190;
            } else {
              v_191 = v_183;
            }
            const uint32_t v_192 = (uint32_t)(v_185 + v_184);
            const bool v_193 = v_192 < v_2;
            float v_198;
            if (v_193) {
              const uint64_t v_194 = (uint64_t)v_192;
              char *const v_195 = v_4 + (int64_t)v_194 * 4;
              const float v_196 = *(float *)v_195;
              const float v_197 = v_191 + v_196;
              v_198 = v_197;
            } else {
              v_198 = v_191;
            }
            const uint64_t v_199 = (uint64_t)tx_180;
            char *const v_200 = v_119 + (int64_t)v_199 * 4;
            *(float *)v_200 = v_198;
          }
        }
      }
    } else {
      const uint32_t v_201 = 0x0u;
      const uint32_t v_202 = 0x1u;
      for (int32_t tz_122_c = (int32_t)v_201; tz_122_c < (int32_t)v_115; ++tz_122_c) {
        const uint32_t tz_122 = (uint32_t)tz_122_c;
        for (int32_t ty_121_c = (int32_t)v_201; ty_121_c < (int32_t)v_114; ++ty_121_c) {
          const uint32_t ty_121 = (uint32_t)ty_121_c;
          for (int32_t tx_120_c = (int32_t)v_201; tx_120_c < (int32_t)v_113; ++tx_120_c) {
            const uint32_t tx_120 = (uint32_t)tx_120_c;
            const float v_99 = 0.0f;
            const uint32_t v_12 = 0x40u;
            const uint32_t v_17 = (uint32_t)(v_15 + tx_120);
            const bool v_23 = v_17 < v_2;
            float v_100;
            if (v_23) {
              const uint64_t v_26 = (uint64_t)v_17;
              char *const v_27 = v_4 + (int64_t)v_26 * 4;
              const float v_28 = *(float *)v_27;
              const float v_30 = v_99 + v_28;
              v_100 = v_30;
            } else {
              v_100 = v_99;
            }
            const uint32_t v_34 = (uint32_t)(v_17 + v_12);
            const bool v_36 = v_34 < v_2;
            float v_101;
            if (v_36) {
              const uint64_t v_41 = (uint64_t)v_34;
              char *const v_42 = v_4 + (int64_t)v_41 * 4;
              const float v_43 = *(float *)v_42;
              const float v_45 = v_100 + v_43;
              v_101 = v_45;
            } else {
              v_101 = v_100;
            }
            const uint64_t v_50 = (uint64_t)tx_120;
            char *const v_51 = v_119 + (int64_t)v_50 * 4;
            *(float *)v_51 = v_101;
          }
        }
      }
    }
    const uint32_t v_146 = 0x20u;
    uint32_t v_147 = v_146;
    uint32_t v_155;
    for (;;) {
      const uint32_t v_151 = 0x0u;
      const bool v_59 = v_147 > v_151;
      v_155 = v_147;
      if (!v_59) break;
      const uint32_t v_77 = 0x1u;
      const uint32_t v_79 = (uint32_t)(v_155 >> v_77);
      const uint64_t v_167 = (uint64_t)v_155;
      const uint64_t v_168 = (uint64_t)v_113;
      const uint64_t v_169 = UINT64_C(0x0);
      const bool v_170 = ((int64_t)v_167) < ((int64_t)v_169);
      const uint64_t v_171 = v_170 ? v_169 : v_167;
      const bool v_172 = ((int64_t)v_171) < ((int64_t)v_168);
      const uint64_t v_173 = v_172 ? v_171 : v_168;
      const uint32_t v_174 = (uint32_t)v_173;
      const uint32_t v_203 = 0x0u;
      const uint32_t v_204 = 0x1u;
      for (int32_t tz_158_c = (int32_t)v_203; tz_158_c < (int32_t)v_115; ++tz_158_c) {
        const uint32_t tz_158 = (uint32_t)tz_158_c;
        for (int32_t ty_157_c = (int32_t)v_203; ty_157_c < (int32_t)v_114; ++ty_157_c) {
          const uint32_t ty_157 = (uint32_t)ty_157_c;
          for (int32_t tx_156_c = (int32_t)v_203; tx_156_c < (int32_t)v_174; ++tx_156_c) {
            const uint32_t tx_156 = (uint32_t)tx_156_c;
            const uint64_t v_160 = (uint64_t)tx_156;
            char *const v_161 = v_119 + (int64_t)v_160 * 4;
            const bool v_62 = tx_156 < v_155;
            if (v_62) {
              const uint32_t v_66 = (uint32_t)(tx_156 + v_155);
              const uint64_t v_67 = (uint64_t)v_66;
              char *const v_68 = v_119 + (int64_t)v_67 * 4;
              const float v_69 = *(float *)v_68;
              const float v_74 = *(float *)v_161;
              const float v_75 = v_74 + v_69;
              *(float *)v_161 = v_75;
            }
          }
        }
      }
      v_147 = v_79;
    }
    const uint32_t v_163 = v_155;
    const uint32_t v_205 = 0x0u;
    const uint32_t v_206 = 0x1u;
    for (int32_t tz_138_c = (int32_t)v_205; tz_138_c < (int32_t)v_115; ++tz_138_c) {
      const uint32_t tz_138 = (uint32_t)tz_138_c;
      for (int32_t ty_137_c = (int32_t)v_205; ty_137_c < (int32_t)v_114; ++ty_137_c) {
        const uint32_t ty_137 = (uint32_t)ty_137_c;
        for (int32_t tx_136_c = (int32_t)v_205; tx_136_c < (int32_t)v_113; ++tx_136_c) {
          const uint32_t tx_136 = (uint32_t)tx_136_c;
          const uint32_t v_139 = 0x0u;
          const bool v_83 = tx_136 == v_139;
          if (v_83) {
            const uint64_t v_109 = UINT64_C(0x0);
            char *const v_87 = v_119 + (int64_t)v_109 * 4;
            const float v_88 = *(float *)v_87;
            const uint64_t v_91 = (uint64_t)bx_116;
            char *const v_92 = v_6 + (int64_t)v_91 * 4;
            *(float *)v_92 = v_88;
          }
        }
      }
    }
    ++cucc_b0; if (cucc_b0 == v_110) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_111) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}

/* kernel _Z6reduceIdLj256EEvPKT_PS0_i */
void k_Z6reduceIdLj256EEvPKT_PS0_i__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
  (void)launch; (void)block_begin; (void)block_end; (void)scratch;
  const uint32_t cucc_grid0 = launch->grid[0], cucc_grid1 = launch->grid[1], cucc_grid2 = launch->grid[2];
  const uint32_t cucc_block0 = launch->block[0], cucc_block1 = launch->block[1], cucc_block2 = launch->block[2];
  const size_t cucc_dyn_size = (size_t)launch->dynamic_shared;
  (void)cucc_grid0; (void)cucc_grid1; (void)cucc_grid2; (void)cucc_block0; (void)cucc_block1; (void)cucc_block2; (void)cucc_dyn_size;
  if (cucc_block0 - 1u >= 1024u || cucc_block1 - 1u >= 1024u || cucc_block2 - 1u >= 64u || cucc_grid0 - 1u >= 0x7fffffffu || cucc_grid1 - 1u >= 65535u || cucc_grid2 - 1u >= 65535u) __builtin_unreachable();
  char *const cucc_dyn = (char *)scratch + 2048;
  (void)cucc_dyn;
  char * v_0 = *(char * *)args[0];
  char * v_1 = *(char * *)args[1];
  uint32_t v_2 = *(uint32_t *)args[2];
  const uint32_t v_110 = cucc_grid0;
  const uint32_t v_111 = cucc_grid1;
  const uint32_t v_112 = cucc_grid2;
  const uint32_t v_113 = cucc_block0;
  const uint32_t v_114 = cucc_block1;
  const uint32_t v_115 = cucc_block2;
  uint32_t cucc_b0 = (uint32_t)((block_begin) % v_110);
  uint32_t cucc_b1 = (uint32_t)(((block_begin) / v_110) % v_111);
  uint32_t cucc_b2 = (uint32_t)(((block_begin) / v_110) / v_111);
  for (uint32_t blin = block_begin; blin < block_end; ++blin) {
    const uint32_t bx_116 = cucc_b0;
    const uint32_t by_117 = cucc_b1;
    const uint32_t bz_118 = cucc_b2;
    char *const v_119 = (char *)scratch + 0;
    char *const v_4 = v_0;
    char *const v_6 = v_1;
    const uint32_t v_106 = 0x200u;
    const uint32_t v_15 = (uint32_t)(bx_116 * v_106);
    const uint32_t v_175 = 0x1u;
    const bool v_176 = v_114 == v_175;
    const uint32_t v_177 = 0x1u;
    const bool v_178 = v_115 == v_177;
    const bool v_179 = (bool)(v_176 & v_178);
    if (v_179) {
      for (int32_t tz_182_c = 0; tz_182_c < (int32_t)v_177; ++tz_182_c) {
        const uint32_t tz_182 = (uint32_t)tz_182_c;
        for (int32_t ty_181_c = 0; ty_181_c < (int32_t)v_175; ++ty_181_c) {
          const uint32_t ty_181 = (uint32_t)ty_181_c;
#pragma GCC ivdep
          for (int32_t tx_180_c = 0; tx_180_c < (int32_t)v_113; ++tx_180_c) {
            const uint32_t tx_180 = (uint32_t)tx_180_c;
            const double v_183 = 0.0;
            const uint32_t v_184 = 0x100u;
            const uint32_t v_185 = (uint32_t)(v_15 + tx_180);
            const bool v_186 = v_185 < v_2;
            double v_191;
            if (v_186) {
              const uint64_t v_187 = (uint64_t)v_185;
              char *const v_188 = v_4 + (int64_t)v_187 * 8;
              const double v_189 = *(double *)v_188;
              const double v_190 = v_183 + v_189;
              v_191 = v_190;
            } else {
              v_191 = v_183;
            }
            const uint32_t v_192 = (uint32_t)(v_185 + v_184);
            const bool v_193 = v_192 < v_2;
            double v_198;
            if (v_193) {
              const uint64_t v_194 = (uint64_t)v_192;
              char *const v_195 = v_4 + (int64_t)v_194 * 8;
              const double v_196 = *(double *)v_195;
              const double v_197 = v_191 + v_196;
              v_198 = v_197;
            } else {
              v_198 = v_191;
            }
            const uint64_t v_199 = (uint64_t)tx_180;
            char *const v_200 = v_119 + (int64_t)v_199 * 8;
            *(double *)v_200 = v_198;
          }
        }
      }
    } else {
      const uint32_t v_201 = 0x0u;
      const uint32_t v_202 = 0x1u;
      for (int32_t tz_122_c = (int32_t)v_201; tz_122_c < (int32_t)v_115; ++tz_122_c) {
        const uint32_t tz_122 = (uint32_t)tz_122_c;
        for (int32_t ty_121_c = (int32_t)v_201; ty_121_c < (int32_t)v_114; ++ty_121_c) {
          const uint32_t ty_121 = (uint32_t)ty_121_c;
          for (int32_t tx_120_c = (int32_t)v_201; tx_120_c < (int32_t)v_113; ++tx_120_c) {
            const uint32_t tx_120 = (uint32_t)tx_120_c;
            const double v_99 = 0.0;
            const uint32_t v_12 = 0x100u;
            const uint32_t v_17 = (uint32_t)(v_15 + tx_120);
            const bool v_23 = v_17 < v_2;
            double v_100;
            if (v_23) {
              const uint64_t v_26 = (uint64_t)v_17;
              char *const v_27 = v_4 + (int64_t)v_26 * 8;
              const double v_28 = *(double *)v_27;
              const double v_30 = v_99 + v_28;
              v_100 = v_30;
            } else {
              v_100 = v_99;
            }
            const uint32_t v_34 = (uint32_t)(v_17 + v_12);
            const bool v_36 = v_34 < v_2;
            double v_101;
            if (v_36) {
              const uint64_t v_41 = (uint64_t)v_34;
              char *const v_42 = v_4 + (int64_t)v_41 * 8;
              const double v_43 = *(double *)v_42;
              const double v_45 = v_100 + v_43;
              v_101 = v_45;
            } else {
              v_101 = v_100;
            }
            const uint64_t v_50 = (uint64_t)tx_120;
            char *const v_51 = v_119 + (int64_t)v_50 * 8;
            *(double *)v_51 = v_101;
          }
        }
      }
    }
    const uint32_t v_146 = 0x80u;
    uint32_t v_147 = v_146;
    uint32_t v_155;
    for (;;) {
      const uint32_t v_151 = 0x0u;
      const bool v_59 = v_147 > v_151;
      v_155 = v_147;
      if (!v_59) break;
      const uint32_t v_77 = 0x1u;
      const uint32_t v_79 = (uint32_t)(v_155 >> v_77);
      const uint64_t v_167 = (uint64_t)v_155;
      const uint64_t v_168 = (uint64_t)v_113;
      const uint64_t v_169 = UINT64_C(0x0);
      const bool v_170 = ((int64_t)v_167) < ((int64_t)v_169);
      const uint64_t v_171 = v_170 ? v_169 : v_167;
      const bool v_172 = ((int64_t)v_171) < ((int64_t)v_168);
      const uint64_t v_173 = v_172 ? v_171 : v_168;
      const uint32_t v_174 = (uint32_t)v_173;
      const uint32_t v_203 = 0x0u;
      const uint32_t v_204 = 0x1u;
      for (int32_t tz_158_c = (int32_t)v_203; tz_158_c < (int32_t)v_115; ++tz_158_c) {
        const uint32_t tz_158 = (uint32_t)tz_158_c;
        for (int32_t ty_157_c = (int32_t)v_203; ty_157_c < (int32_t)v_114; ++ty_157_c) {
          const uint32_t ty_157 = (uint32_t)ty_157_c;
          for (int32_t tx_156_c = (int32_t)v_203; tx_156_c < (int32_t)v_174; ++tx_156_c) {
            const uint32_t tx_156 = (uint32_t)tx_156_c;
            const uint64_t v_160 = (uint64_t)tx_156;
            char *const v_161 = v_119 + (int64_t)v_160 * 8;
            const bool v_62 = tx_156 < v_155;
            if (v_62) {
              const uint32_t v_66 = (uint32_t)(tx_156 + v_155);
              const uint64_t v_67 = (uint64_t)v_66;
              char *const v_68 = v_119 + (int64_t)v_67 * 8;
              const double v_69 = *(double *)v_68;
              const double v_74 = *(double *)v_161;
              const double v_75 = v_74 + v_69;
              *(double *)v_161 = v_75;
            }
          }
        }
      }
      v_147 = v_79;
    }
    const uint32_t v_163 = v_155;
    const uint32_t v_205 = 0x0u;
    const uint32_t v_206 = 0x1u;
    for (int32_t tz_138_c = (int32_t)v_205; tz_138_c < (int32_t)v_115; ++tz_138_c) {
      const uint32_t tz_138 = (uint32_t)tz_138_c;
      for (int32_t ty_137_c = (int32_t)v_205; ty_137_c < (int32_t)v_114; ++ty_137_c) {
        const uint32_t ty_137 = (uint32_t)ty_137_c;
        for (int32_t tx_136_c = (int32_t)v_205; tx_136_c < (int32_t)v_113; ++tx_136_c) {
          const uint32_t tx_136 = (uint32_t)tx_136_c;
          const uint32_t v_139 = 0x0u;
          const bool v_83 = tx_136 == v_139;
          if (v_83) {
            const uint64_t v_109 = UINT64_C(0x0);
            char *const v_87 = v_119 + (int64_t)v_109 * 8;
            const double v_88 = *(double *)v_87;
            const uint64_t v_91 = (uint64_t)bx_116;
            char *const v_92 = v_6 + (int64_t)v_91 * 8;
            *(double *)v_92 = v_88;
          }
        }
      }
    }
    ++cucc_b0; if (cucc_b0 == v_110) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_111) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}
