/* kernel _Z9stencil1dPKiPii */
void k_Z9stencil1dPKiPii__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
  (void)launch; (void)block_begin; (void)block_end; (void)scratch;
  const uint32_t cucc_grid0 = launch->grid[0], cucc_grid1 = launch->grid[1], cucc_grid2 = launch->grid[2];
  const uint32_t cucc_block0 = launch->block[0], cucc_block1 = launch->block[1], cucc_block2 = launch->block[2];
  const size_t cucc_dyn_size = (size_t)launch->dynamic_shared;
  (void)cucc_grid0; (void)cucc_grid1; (void)cucc_grid2; (void)cucc_block0; (void)cucc_block1; (void)cucc_block2; (void)cucc_dyn_size;
  if (cucc_block0 - 1u >= 1024u || cucc_block1 - 1u >= 1024u || cucc_block2 - 1u >= 64u || cucc_grid0 - 1u >= 0x7fffffffu || cucc_grid1 - 1u >= 65535u || cucc_grid2 - 1u >= 65535u) __builtin_unreachable();
  char *const cucc_dyn = (char *)scratch + 288;
  (void)cucc_dyn;
  char * v_0 = *(char * *)args[0];
  char * v_1 = *(char * *)args[1];
  uint32_t v_2 = *(uint32_t *)args[2];
  const uint32_t v_134 = cucc_grid0;
  const uint32_t v_135 = cucc_grid1;
  const uint32_t v_136 = cucc_grid2;
  const uint32_t v_137 = cucc_block0;
  const uint32_t v_138 = cucc_block1;
  const uint32_t v_139 = cucc_block2;
  uint32_t cucc_b0 = (uint32_t)((block_begin) % v_134);
  uint32_t cucc_b1 = (uint32_t)(((block_begin) / v_134) % v_135);
  uint32_t cucc_b2 = (uint32_t)(((block_begin) / v_134) / v_135);
  for (uint32_t blin = block_begin; blin < block_end; ++blin) {
    const uint32_t bx_140 = cucc_b0;
    const uint32_t by_141 = cucc_b1;
    const uint32_t bz_142 = cucc_b2;
    char *const v_143 = (char *)scratch + 0;
    char *const v_4 = v_0;
    char *const v_6 = v_1;
    const uint32_t v_10 = cucc_block0;
    const uint32_t v_11 = (uint32_t)(bx_140 * v_10);
    const uint32_t v_171 = 0x0u;
    const uint32_t v_172 = 0x1u;
    for (int32_t tz_146_c = (int32_t)v_171; tz_146_c < (int32_t)v_139; ++tz_146_c) {
      const uint32_t tz_146 = (uint32_t)tz_146_c;
      for (int32_t ty_145_c = (int32_t)v_171; ty_145_c < (int32_t)v_138; ++ty_145_c) {
        const uint32_t ty_145 = (uint32_t)ty_145_c;
        for (int32_t tx_144_c = (int32_t)v_171; tx_144_c < (int32_t)v_137; ++tx_144_c) {
          const uint32_t tx_144 = (uint32_t)tx_144_c;
          const uint32_t v_116 = 0x0u;
          const uint32_t v_13 = (uint32_t)(v_11 + tx_144);
          const uint32_t v_16 = 0x3u;
          const uint32_t v_17 = (uint32_t)(tx_144 + v_16);
          const bool v_20 = ((int32_t)v_13) < ((int32_t)v_2);
          uint32_t v_21;
          if (v_20) {
            const uint64_t v_24 = (uint64_t)(int64_t)((int32_t)v_13);
            char *const v_25 = v_4 + (int64_t)v_24 * 4;
            const uint32_t v_26 = *(uint32_t *)v_25;
            v_21 = v_26;
          } else {
            v_21 = v_116;
          }
          const uint64_t v_30 = (uint64_t)(int64_t)((int32_t)v_17);
          char *const v_31 = v_143 + (int64_t)v_30 * 4;
          *(uint32_t *)v_31 = v_21;
          const bool v_35 = tx_144 < v_16;
          if (v_35) {
            const uint32_t v_39 = (uint32_t)(((int32_t)v_13) - ((int32_t)v_16));
            const uint32_t v_42 = 0x40u;
            const uint32_t v_43 = (uint32_t)(((int32_t)v_13) + ((int32_t)v_42));
            const bool v_46 = ((int32_t)v_39) >= ((int32_t)v_116);
            uint32_t v_47;
            if (v_46) {
              const uint64_t v_50 = (uint64_t)((int64_t)((int32_t)v_13) - INT64_C(3));
              char *const v_51 = v_4 + (int64_t)v_50 * 4;
              const uint32_t v_52 = *(uint32_t *)v_51;
              v_47 = v_52;
            } else {
              v_47 = v_116;
            }
            const uint32_t v_57 = (uint32_t)(((int32_t)v_17) - ((int32_t)v_16));
            const uint64_t v_58 = (uint64_t)((int64_t)((int32_t)v_17) - INT64_C(3));
            char *const v_59 = v_143 + (int64_t)v_58 * 4;
            *(uint32_t *)v_59 = v_47;
            const bool v_63 = ((int32_t)v_43) < ((int32_t)v_2);
            uint32_t v_64;
            if (v_63) {
              const uint64_t v_67 = (uint64_t)((int64_t)((int32_t)v_13) + INT64_C(64));
              char *const v_68 = v_4 + (int64_t)v_67 * 4;
              const uint32_t v_69 = *(uint32_t *)v_68;
              v_64 = v_69;
            } else {
              v_64 = v_116;
            }
            const uint32_t v_74 = (uint32_t)(((int32_t)v_17) + ((int32_t)v_42));
            const uint64_t v_75 = (uint64_t)((int64_t)((int32_t)v_17) + INT64_C(64));
            char *const v_76 = v_143 + (int64_t)v_75 * 4;
            *(uint32_t *)v_76 = v_64;
          }
        }
      }
    }
    const uint64_t v_155 = (uint64_t)(int64_t)((int32_t)v_2);
    const uint64_t v_156 = (uint64_t)v_137;
    const uint64_t v_157 = (uint64_t)(int64_t)((int32_t)v_11);
    const uint64_t v_158 = (uint64_t)(v_155 - v_157);
    const uint64_t v_159 = UINT64_C(0x1);
    const uint64_t v_160 = (uint64_t)(v_157 + v_156);
    const uint64_t v_161 = (uint64_t)(v_160 - v_159);
    const uint64_t v_162 = UINT64_C(0x7fffffff);
    const bool v_163 = ((int64_t)v_161) <= ((int64_t)v_162);
    const uint64_t v_164 = UINT64_C(0x0);
    const bool v_165 = ((int64_t)v_158) < ((int64_t)v_164);
    const uint64_t v_166 = v_165 ? v_164 : v_158;
    const bool v_167 = ((int64_t)v_166) < ((int64_t)v_156);
    const uint64_t v_168 = v_167 ? v_166 : v_156;
    const uint64_t v_169 = v_163 ? v_168 : v_156;
    const uint32_t v_170 = (uint32_t)v_169;
    const uint32_t v_173 = 0x1u;
    const bool v_174 = v_138 == v_173;
    const uint32_t v_175 = 0x1u;
    const bool v_176 = v_139 == v_175;
    const bool v_177 = (bool)(v_174 & v_176);
    if (v_177) {
      for (int32_t tz_180_c = 0; tz_180_c < (int32_t)v_175; ++tz_180_c) {
        const uint32_t tz_180 = (uint32_t)tz_180_c;
        for (int32_t ty_179_c = 0; ty_179_c < (int32_t)v_173; ++ty_179_c) {
          const uint32_t ty_179 = (uint32_t)ty_179_c;
#pragma GCC ivdep
          for (int32_t tx_178_c = 0; tx_178_c < (int32_t)v_170; ++tx_178_c) {
            const uint32_t tx_178 = (uint32_t)tx_178_c;
            const uint32_t v_181 = 0x0u;
            const uint32_t v_182 = (uint32_t)(v_11 + tx_178);
            const uint32_t v_183 = 0x3u;
            const uint32_t v_184 = (uint32_t)(tx_178 + v_183);
            const bool v_185 = ((int32_t)v_182) < ((int32_t)v_2);
            if (v_185) {
              const uint32_t v_186 = 0xfffffffdu;
              uint32_t v_187 = v_181;
              uint32_t v_188 = v_186;
              uint32_t v_190;
              uint32_t v_191;
              for (;;) {
                const bool v_189 = ((int32_t)v_188) <= ((int32_t)v_183);
                const uint32_t v_190_next0 = v_187;
                const uint32_t v_191_next1 = v_188;
                v_190 = v_190_next0;
                v_191 = v_191_next1;
                if (!v_189) break;
                const uint32_t v_192 = (uint32_t)(((int32_t)v_184) + ((int32_t)v_191));
                const uint64_t v_193 = (uint64_t)((int64_t)((int32_t)v_184) + (int64_t)((int32_t)v_191));
                char *const v_194 = v_143 + (int64_t)v_193 * 4;
                const uint32_t v_195 = *(uint32_t *)v_194;
                const uint32_t v_196 = 0x4u;
                const uint32_t v_197 = (uint32_t)(((int32_t)v_191) + ((int32_t)v_196));
                const uint32_t v_198 = (uint32_t)(((int32_t)v_195) * ((int32_t)v_197));
                const uint32_t v_199 = (uint32_t)(((int32_t)v_190) + ((int32_t)v_198));
                const uint32_t v_200 = 0x1u;
                const uint32_t v_201 = (uint32_t)(((int32_t)v_191) + ((int32_t)v_200));
                const uint32_t v_187_next0 = v_199;
                const uint32_t v_188_next1 = v_201;
                v_187 = v_187_next0;
                v_188 = v_188_next1;
              }
              const uint32_t v_202 = v_190;
              const uint32_t v_203 = v_191;
              const uint64_t v_204 = (uint64_t)(int64_t)((int32_t)v_182);
              char *const v_205 = v_6 + (int64_t)v_204 * 4;
              *(uint32_t *)v_205 = v_202;
            }
          }
        }
      }
    } else {
      const uint32_t v_206 = 0x0u;
      const uint32_t v_207 = 0x1u;
      for (int32_t tz_149_c = (int32_t)v_206; tz_149_c < (int32_t)v_139; ++tz_149_c) {
        const uint32_t tz_149 = (uint32_t)tz_149_c;
        for (int32_t ty_148_c = (int32_t)v_206; ty_148_c < (int32_t)v_138; ++ty_148_c) {
          const uint32_t ty_148 = (uint32_t)ty_148_c;
          for (int32_t tx_147_c = (int32_t)v_206; tx_147_c < (int32_t)v_170; ++tx_147_c) {
            const uint32_t tx_147 = (uint32_t)tx_147_c;
            const uint32_t v_150 = 0x0u;
            const uint32_t v_151 = (uint32_t)(v_11 + tx_147);
            const uint32_t v_152 = 0x3u;
            const uint32_t v_153 = (uint32_t)(tx_147 + v_152);
            const bool v_154 = ((int32_t)v_151) < ((int32_t)v_2);
            if (v_154) {
              const uint32_t v_133 = 0xfffffffdu;
              uint32_t v_124 = v_150;
              uint32_t v_129 = v_133;
              uint32_t v_125;
              uint32_t v_130;
              for (;;) {
                const bool v_89 = ((int32_t)v_129) <= ((int32_t)v_152);
                const uint32_t v_125_next0 = v_124;
                const uint32_t v_130_next1 = v_129;
                v_125 = v_125_next0;
                v_130 = v_130_next1;
                if (!v_89) break;
                const uint32_t v_93 = (uint32_t)(((int32_t)v_153) + ((int32_t)v_130));
                const uint64_t v_94 = (uint64_t)((int64_t)((int32_t)v_153) + (int64_t)((int32_t)v_130));
                char *const v_95 = v_143 + (int64_t)v_94 * 4;
                const uint32_t v_96 = *(uint32_t *)v_95;
                const uint32_t v_98 = 0x4u;
                const uint32_t v_99 = (uint32_t)(((int32_t)v_130) + ((int32_t)v_98));
                const uint32_t v_100 = (uint32_t)(((int32_t)v_96) * ((int32_t)v_99));
                const uint32_t v_102 = (uint32_t)(((int32_t)v_125) + ((int32_t)v_100));
                const uint32_t v_105 = 0x1u;
                const uint32_t v_106 = (uint32_t)(((int32_t)v_130) + ((int32_t)v_105));
                const uint32_t v_124_next0 = v_102;
                const uint32_t v_129_next1 = v_106;
                v_124 = v_124_next0;
                v_129 = v_129_next1;
              }
              const uint32_t v_126 = v_125;
              const uint32_t v_131 = v_130;
              const uint64_t v_111 = (uint64_t)(int64_t)((int32_t)v_151);
              char *const v_112 = v_6 + (int64_t)v_111 * 4;
              *(uint32_t *)v_112 = v_126;
            }
          }
        }
      }
    }
    ++cucc_b0; if (cucc_b0 == v_134) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_135) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}

/* kernel _Z6jacobiPKfPfii */
void k_Z6jacobiPKfPfii__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
  (void)launch; (void)block_begin; (void)block_end; (void)scratch;
  const uint32_t cucc_grid0 = launch->grid[0], cucc_grid1 = launch->grid[1], cucc_grid2 = launch->grid[2];
  const uint32_t cucc_block0 = launch->block[0], cucc_block1 = launch->block[1], cucc_block2 = launch->block[2];
  const size_t cucc_dyn_size = (size_t)launch->dynamic_shared;
  (void)cucc_grid0; (void)cucc_grid1; (void)cucc_grid2; (void)cucc_block0; (void)cucc_block1; (void)cucc_block2; (void)cucc_dyn_size;
  if (cucc_block0 - 1u >= 1024u || cucc_block1 - 1u >= 1024u || cucc_block2 - 1u >= 64u || cucc_grid0 - 1u >= 0x7fffffffu || cucc_grid1 - 1u >= 65535u || cucc_grid2 - 1u >= 65535u) __builtin_unreachable();
  char *const cucc_dyn = (char *)scratch + 400;
  (void)cucc_dyn;
  char * v_0 = *(char * *)args[0];
  char * v_1 = *(char * *)args[1];
  uint32_t v_2 = *(uint32_t *)args[2];
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
    const uint32_t v_12 = 0x8u;
    const uint32_t v_13 = (uint32_t)(bx_335 * v_12);
    const uint32_t v_19 = (uint32_t)(by_336 * v_12);
    const uint32_t v_391 = 0x0u;
    const uint32_t v_392 = 0x1u;
    for (int32_t tz_341_c = (int32_t)v_391; tz_341_c < (int32_t)v_334; ++tz_341_c) {
      const uint32_t tz_341 = (uint32_t)tz_341_c;
      for (int32_t ty_340_c = (int32_t)v_391; ty_340_c < (int32_t)v_333; ++ty_340_c) {
        const uint32_t ty_340 = (uint32_t)ty_340_c;
        for (int32_t tx_339_c = (int32_t)v_391; tx_339_c < (int32_t)v_332; ++tx_339_c) {
          const uint32_t tx_339 = (uint32_t)tx_339_c;
          const uint32_t v_312 = 0x0u;
          const bool v_318 = false;
          const uint32_t v_15 = (uint32_t)(v_13 + tx_339);
          const uint32_t v_21 = (uint32_t)(v_19 + ty_340);
          const uint32_t v_24 = 0x1u;
          const uint32_t v_25 = (uint32_t)(tx_339 + v_24);
          const uint32_t v_29 = (uint32_t)(ty_340 + v_24);
          const bool v_33 = ((int32_t)v_15) < ((int32_t)v_2);
          bool v_34;
          if (v_33) {
            const bool v_37 = ((int32_t)v_21) < ((int32_t)v_3);
            v_34 = v_37;
          } else {
            v_34 = v_318;
          }
          float v_40;
          if (v_34) {
            const uint32_t v_44 = (uint32_t)(((int32_t)v_21) * ((int32_t)v_2));
            const uint32_t v_46 = (uint32_t)(((int32_t)v_44) + ((int32_t)v_15));
            const uint64_t v_47 = (uint64_t)(((int64_t)((int32_t)v_21) * (int64_t)((int32_t)v_2)) + (int64_t)((int32_t)v_15));
            char *const v_48 = v_5 + (int64_t)v_47 * 4;
            const float v_49 = *(float *)v_48;
            v_40 = v_49;
          } else {
            const float v_50 = 0.0f;
            v_40 = v_50;
          }
          const uint64_t v_53 = (uint64_t)(int64_t)((int32_t)v_29);
          char *const v_54 = v_338 + (int64_t)v_53 * 40;
          const uint64_t v_56 = (uint64_t)(int64_t)((int32_t)v_25);
          char *const v_57 = v_54 + (int64_t)v_56 * 4;
          *(float *)v_57 = v_40;
          const bool v_61 = tx_339 == v_312;
          if (v_61) {
            const bool v_64 = ((int32_t)v_15) > ((int32_t)v_312);
            bool v_65;
            if (v_64) {
              const bool v_68 = ((int32_t)v_21) < ((int32_t)v_3);
              v_65 = v_68;
            } else {
              v_65 = v_318;
            }
            float v_70;
            if (v_65) {
              const uint32_t v_74 = (uint32_t)(((int32_t)v_21) * ((int32_t)v_2));
              const uint32_t v_76 = (uint32_t)(((int32_t)v_74) + ((int32_t)v_15));
              const uint32_t v_78 = (uint32_t)(((int32_t)v_76) - ((int32_t)v_24));
              const uint64_t v_79 = (uint64_t)((((int64_t)((int32_t)v_21) * (int64_t)((int32_t)v_2)) + (int64_t)((int32_t)v_15)) - INT64_C(1));
              char *const v_80 = v_5 + (int64_t)v_79 * 4;
              const float v_81 = *(float *)v_80;
              v_70 = v_81;
            } else {
              const float v_82 = 0.0f;
              v_70 = v_82;
            }
            const uint64_t v_321 = UINT64_C(0x0);
            char *const v_89 = v_54 + (int64_t)v_321 * 4;
            *(float *)v_89 = v_70;
          }
          const uint32_t v_322 = 0x7u;
          const bool v_95 = tx_339 == v_322;
          if (v_95) {
            const uint32_t v_98 = (uint32_t)(((int32_t)v_15) + ((int32_t)v_24));
            const bool v_100 = ((int32_t)v_98) < ((int32_t)v_2);
            bool v_101;
            if (v_100) {
              const bool v_104 = ((int32_t)v_21) < ((int32_t)v_3);
              v_101 = v_104;
            } else {
              v_101 = v_318;
            }
            float v_106;
            if (v_101) {
              const uint32_t v_110 = (uint32_t)(((int32_t)v_21) * ((int32_t)v_2));
              const uint32_t v_112 = (uint32_t)(((int32_t)v_110) + ((int32_t)v_15));
              const uint32_t v_114 = (uint32_t)(((int32_t)v_112) + ((int32_t)v_24));
              const uint64_t v_115 = (uint64_t)((((int64_t)((int32_t)v_21) * (int64_t)((int32_t)v_2)) + (int64_t)((int32_t)v_15)) + INT64_C(1));
              char *const v_116 = v_5 + (int64_t)v_115 * 4;
              const float v_117 = *(float *)v_116;
              v_106 = v_117;
            } else {
              const float v_118 = 0.0f;
              v_106 = v_118;
            }
            const uint64_t v_324 = UINT64_C(0x9);
            char *const v_127 = v_54 + (int64_t)v_324 * 4;
            *(float *)v_127 = v_106;
          }
          const bool v_131 = ty_340 == v_312;
          if (v_131) {
            const bool v_134 = ((int32_t)v_21) > ((int32_t)v_312);
            bool v_135;
            if (v_134) {
              v_135 = v_33;
            } else {
              v_135 = v_318;
            }
            float v_140;
            if (v_135) {
              const uint32_t v_144 = (uint32_t)(((int32_t)v_21) - ((int32_t)v_24));
              const uint32_t v_146 = (uint32_t)(((int32_t)v_144) * ((int32_t)v_2));
              const uint32_t v_148 = (uint32_t)(((int32_t)v_146) + ((int32_t)v_15));
              const uint64_t v_149 = (uint64_t)((((int64_t)((int32_t)v_21) - INT64_C(1)) * (int64_t)((int32_t)v_2)) + (int64_t)((int32_t)v_15));
              char *const v_150 = v_5 + (int64_t)v_149 * 4;
              const float v_151 = *(float *)v_150;
              v_140 = v_151;
            } else {
              const float v_152 = 0.0f;
              v_140 = v_152;
            }
            const uint64_t v_325 = UINT64_C(0x0);
            char *const v_156 = v_338 + (int64_t)v_325 * 40;
            char *const v_159 = v_156 + (int64_t)v_56 * 4;
            *(float *)v_159 = v_140;
          }
          const bool v_165 = ty_340 == v_322;
          if (v_165) {
            const uint32_t v_168 = (uint32_t)(((int32_t)v_21) + ((int32_t)v_24));
            const bool v_170 = ((int32_t)v_168) < ((int32_t)v_3);
            bool v_171;
            if (v_170) {
              v_171 = v_33;
            } else {
              v_171 = v_318;
            }
            float v_176;
            if (v_171) {
              const uint32_t v_182 = (uint32_t)(((int32_t)v_168) * ((int32_t)v_2));
              const uint32_t v_184 = (uint32_t)(((int32_t)v_182) + ((int32_t)v_15));
              const uint64_t v_185 = (uint64_t)((((int64_t)((int32_t)v_21) + INT64_C(1)) * (int64_t)((int32_t)v_2)) + (int64_t)((int32_t)v_15));
              char *const v_186 = v_5 + (int64_t)v_185 * 4;
              const float v_187 = *(float *)v_186;
              v_176 = v_187;
            } else {
              const float v_188 = 0.0f;
              v_176 = v_188;
            }
            const uint64_t v_328 = UINT64_C(0x9);
            char *const v_194 = v_338 + (int64_t)v_328 * 40;
            char *const v_197 = v_194 + (int64_t)v_56 * 4;
            *(float *)v_197 = v_176;
          }
        }
      }
    }
    const uint64_t v_359 = (uint64_t)(int64_t)((int32_t)v_2);
    const uint64_t v_360 = (uint64_t)v_332;
    const uint64_t v_361 = (uint64_t)(int64_t)((int32_t)v_13);
    const uint64_t v_362 = (uint64_t)(v_359 - v_361);
    const uint64_t v_363 = UINT64_C(0x1);
    const uint64_t v_364 = (uint64_t)(v_361 + v_360);
    const uint64_t v_365 = (uint64_t)(v_364 - v_363);
    const uint64_t v_366 = UINT64_C(0x7fffffff);
    const bool v_367 = ((int64_t)v_365) <= ((int64_t)v_366);
    const uint64_t v_368 = UINT64_C(0x0);
    const bool v_369 = ((int64_t)v_362) < ((int64_t)v_368);
    const uint64_t v_370 = v_369 ? v_368 : v_362;
    const bool v_371 = ((int64_t)v_370) < ((int64_t)v_360);
    const uint64_t v_372 = v_371 ? v_370 : v_360;
    const uint64_t v_373 = v_367 ? v_372 : v_360;
    const uint32_t v_374 = (uint32_t)v_373;
    const uint64_t v_375 = (uint64_t)(int64_t)((int32_t)v_3);
    const uint64_t v_376 = (uint64_t)v_333;
    const uint64_t v_377 = (uint64_t)(int64_t)((int32_t)v_19);
    const uint64_t v_378 = (uint64_t)(v_375 - v_377);
    const uint64_t v_379 = UINT64_C(0x1);
    const uint64_t v_380 = (uint64_t)(v_377 + v_376);
    const uint64_t v_381 = (uint64_t)(v_380 - v_379);
    const uint64_t v_382 = UINT64_C(0x7fffffff);
    const bool v_383 = ((int64_t)v_381) <= ((int64_t)v_382);
    const uint64_t v_384 = UINT64_C(0x0);
    const bool v_385 = ((int64_t)v_378) < ((int64_t)v_384);
    const uint64_t v_386 = v_385 ? v_384 : v_378;
    const bool v_387 = ((int64_t)v_386) < ((int64_t)v_376);
    const uint64_t v_388 = v_387 ? v_386 : v_376;
    const uint64_t v_389 = v_383 ? v_388 : v_376;
    const uint32_t v_390 = (uint32_t)v_389;
    const uint32_t v_393 = 0x0u;
    const uint32_t v_394 = 0x1u;
    for (int32_t tz_344_c = (int32_t)v_393; tz_344_c < (int32_t)v_334; ++tz_344_c) {
      const uint32_t tz_344 = (uint32_t)tz_344_c;
      for (int32_t ty_343_c = (int32_t)v_393; ty_343_c < (int32_t)v_390; ++ty_343_c) {
        const uint32_t ty_343 = (uint32_t)ty_343_c;
        for (int32_t tx_342_c = (int32_t)v_393; tx_342_c < (int32_t)v_374; ++tx_342_c) {
          const uint32_t tx_342 = (uint32_t)tx_342_c;
          const uint32_t v_345 = 0x0u;
          const bool v_346 = false;
          const uint32_t v_347 = (uint32_t)(v_13 + tx_342);
          const uint32_t v_348 = (uint32_t)(v_19 + ty_343);
          const uint32_t v_349 = 0x1u;
          const uint32_t v_350 = (uint32_t)(tx_342 + v_349);
          const uint32_t v_351 = (uint32_t)(ty_343 + v_349);
          const bool v_352 = ((int32_t)v_347) < ((int32_t)v_2);
          bool v_354;
          if (v_352) {
            const bool v_353 = ((int32_t)v_348) < ((int32_t)v_3);
            v_354 = v_353;
          } else {
            v_354 = v_346;
          }
          const uint64_t v_355 = (uint64_t)(int64_t)((int32_t)v_351);
          char *const v_356 = v_338 + (int64_t)v_355 * 40;
          const uint64_t v_357 = (uint64_t)(int64_t)((int32_t)v_350);
          char *const v_358 = v_356 + (int64_t)v_357 * 4;
          const bool v_200 = true;
          const bool v_201 = (bool)(v_354 ^ v_200);
          bool v_320;
          if (v_201) {
            v_320 = v_200;
          } else {
            v_320 = v_346;
          }
          const bool v_207 = (bool)(v_320 ^ v_200);
          if (v_207) {
            const bool v_210 = v_347 == v_345;
            bool v_211;
            if (v_210) {
              v_211 = v_200;
            } else {
              const bool v_214 = v_348 == v_345;
              v_211 = v_214;
            }
            bool v_216;
            if (v_211) {
              v_216 = v_200;
            } else {
              const uint32_t v_220 = (uint32_t)(((int32_t)v_2) - ((int32_t)v_349));
              const bool v_221 = v_347 == v_220;
              v_216 = v_221;
            }
            bool v_223;
            if (v_216) {
              v_223 = v_200;
            } else {
              const uint32_t v_227 = (uint32_t)(((int32_t)v_3) - ((int32_t)v_349));
              const bool v_228 = v_348 == v_227;
              v_223 = v_228;
            }
            if (v_223) {
              const float v_237 = *(float *)v_358;
              const uint32_t v_241 = (uint32_t)(((int32_t)v_348) * ((int32_t)v_2));
              const uint32_t v_243 = (uint32_t)(((int32_t)v_241) + ((int32_t)v_347));
              const uint64_t v_244 = (uint64_t)(((int64_t)((int32_t)v_348) * (int64_t)((int32_t)v_2)) + (int64_t)((int32_t)v_347));
              char *const v_245 = v_7 + (int64_t)v_244 * 4;
              *(float *)v_245 = v_237;
            } else {
              const float v_247 = 0.2f;
              const float v_255 = *(float *)v_358;
              const uint32_t v_259 = (uint32_t)(((int32_t)v_351) - ((int32_t)v_349));
              const uint64_t v_260 = (uint64_t)((int64_t)((int32_t)v_351) - INT64_C(1));
              char *const v_261 = v_338 + (int64_t)v_260 * 40;
              char *const v_264 = v_261 + (int64_t)v_357 * 4;
              const float v_265 = *(float *)v_264;
              const float v_266 = v_255 + v_265;
              const uint32_t v_270 = (uint32_t)(((int32_t)v_351) + ((int32_t)v_349));
              const uint64_t v_271 = (uint64_t)((int64_t)((int32_t)v_351) + INT64_C(1));
              char *const v_272 = v_338 + (int64_t)v_271 * 40;
              char *const v_275 = v_272 + (int64_t)v_357 * 4;
              const float v_276 = *(float *)v_275;
              const float v_277 = v_266 + v_276;
              const uint32_t v_284 = (uint32_t)(((int32_t)v_350) - ((int32_t)v_349));
              const uint64_t v_285 = (uint64_t)((int64_t)((int32_t)v_350) - INT64_C(1));
              char *const v_286 = v_356 + (int64_t)v_285 * 4;
              const float v_287 = *(float *)v_286;
              const float v_288 = v_277 + v_287;
              const uint32_t v_295 = (uint32_t)(((int32_t)v_350) + ((int32_t)v_349));
              const uint64_t v_296 = (uint64_t)((int64_t)((int32_t)v_350) + INT64_C(1));
              char *const v_297 = v_356 + (int64_t)v_296 * 4;
              const float v_298 = *(float *)v_297;
              const float v_299 = v_288 + v_298;
              const float v_300 = v_247 * v_299;
              const uint32_t v_304 = (uint32_t)(((int32_t)v_348) * ((int32_t)v_2));
              const uint32_t v_306 = (uint32_t)(((int32_t)v_304) + ((int32_t)v_347));
              const uint64_t v_307 = (uint64_t)(((int64_t)((int32_t)v_348) * (int64_t)((int32_t)v_2)) + (int64_t)((int32_t)v_347));
              char *const v_308 = v_7 + (int64_t)v_307 * 4;
              *(float *)v_308 = v_300;
            }
          }
        }
      }
    }
    ++cucc_b0; if (cucc_b0 == v_329) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_330) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}
