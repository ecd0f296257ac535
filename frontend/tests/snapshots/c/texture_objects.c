/* kernel _Z6sampleyyyPfi */
void k_Z6sampleyyyPfi__cucc(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {
  (void)launch; (void)block_begin; (void)block_end; (void)scratch;
  const uint32_t cucc_grid0 = launch->grid[0], cucc_grid1 = launch->grid[1], cucc_grid2 = launch->grid[2];
  const uint32_t cucc_block0 = launch->block[0], cucc_block1 = launch->block[1], cucc_block2 = launch->block[2];
  const size_t cucc_dyn_size = (size_t)launch->dynamic_shared;
  (void)cucc_grid0; (void)cucc_grid1; (void)cucc_grid2; (void)cucc_block0; (void)cucc_block1; (void)cucc_block2; (void)cucc_dyn_size;
  if (cucc_block0 - 1u >= 1024u || cucc_block1 - 1u >= 1024u || cucc_block2 - 1u >= 64u || cucc_grid0 - 1u >= 0x7fffffffu || cucc_grid1 - 1u >= 65535u || cucc_grid2 - 1u >= 65535u) __builtin_unreachable();
  char *const cucc_dyn = (char *)scratch + 0;
  (void)cucc_dyn;
  uint64_t v_0 = *(uint64_t *)args[0];
  uint64_t v_1 = *(uint64_t *)args[1];
  uint64_t v_2 = *(uint64_t *)args[2];
  char * v_3 = *(char * *)args[3];
  uint32_t v_4 = *(uint32_t *)args[4];
  const cucc_tex_view cucc_tv_0_0_1 = cucc_tex_view_of(launch, v_0, 0, 1u);
  const uint32_t v_139 = cucc_grid0;
  const uint32_t v_140 = cucc_grid1;
  const uint32_t v_141 = cucc_grid2;
  const uint32_t v_142 = cucc_block0;
  const uint32_t v_143 = cucc_block1;
  const uint32_t v_144 = cucc_block2;
  uint32_t cucc_b0 = (uint32_t)((block_begin) % v_139);
  uint32_t cucc_b1 = (uint32_t)(((block_begin) / v_139) % v_140);
  uint32_t cucc_b2 = (uint32_t)(((block_begin) / v_139) / v_140);
  for (uint32_t blin = block_begin; blin < block_end; ++blin) {
    const uint32_t bx_145 = cucc_b0;
    const uint32_t by_146 = cucc_b1;
    const uint32_t bz_147 = cucc_b2;
    char *const v_9 = v_3;
    const uint32_t v_13 = cucc_block0;
    const uint32_t v_14 = (uint32_t)(bx_145 * v_13);
    const uint64_t v_151 = (uint64_t)(int64_t)((int32_t)v_4);
    const uint64_t v_152 = (uint64_t)v_142;
    const uint64_t v_153 = (uint64_t)(int64_t)((int32_t)v_14);
    const uint64_t v_154 = (uint64_t)(v_151 - v_153);
    const uint64_t v_155 = UINT64_C(0x1);
    const uint64_t v_156 = (uint64_t)(v_153 + v_152);
    const uint64_t v_157 = (uint64_t)(v_156 - v_155);
    const uint64_t v_158 = UINT64_C(0x7fffffff);
    const bool v_159 = ((int64_t)v_157) <= ((int64_t)v_158);
    const uint64_t v_160 = UINT64_C(0x0);
    const bool v_161 = ((int64_t)v_154) < ((int64_t)v_160);
    const uint64_t v_162 = v_161 ? v_160 : v_154;
    const bool v_163 = ((int64_t)v_162) < ((int64_t)v_152);
    const uint64_t v_164 = v_163 ? v_162 : v_152;
    const uint64_t v_165 = v_159 ? v_164 : v_152;
    const uint32_t v_166 = (uint32_t)v_165;
    const uint32_t v_167 = 0x1u;
    const bool v_168 = v_143 == v_167;
    const uint32_t v_169 = 0x1u;
    const bool v_170 = v_144 == v_169;
    const bool v_171 = (bool)(v_168 & v_170);
    if (v_171) {
      for (int32_t tz_174_c = 0; tz_174_c < (int32_t)v_169; ++tz_174_c) {
        const uint32_t tz_174 = (uint32_t)tz_174_c;
        for (int32_t ty_173_c = 0; ty_173_c < (int32_t)v_167; ++ty_173_c) {
          const uint32_t ty_173 = (uint32_t)ty_173_c;
#pragma GCC ivdep
          for (int32_t tx_172_c = 0; tx_172_c < (int32_t)v_166; ++tx_172_c) {
            const uint32_t tx_172 = (uint32_t)tx_172_c;
            const bool v_175 = false;
            const uint32_t v_176 = (uint32_t)(v_14 + tx_172);
            const bool v_177 = ((int32_t)v_176) >= ((int32_t)v_4);
            bool v_179;
            if (v_177) {
              const bool v_178 = true;
              v_179 = v_178;
            } else {
              v_179 = v_175;
            }
            const bool v_180 = true;
            const bool v_181 = (bool)(v_179 ^ v_180);
            if (v_181) {
              const uint32_t v_182 = 0x10u;
              const uint32_t v_183 = (uint32_t)(((int32_t)v_176) % ((int32_t)v_182));
              const uint32_t v_184 = (uint32_t)(((int32_t)v_176) / ((int32_t)v_182));
              float v_185_tex[4];
              if (__builtin_expect(cucc_tex_fetch_view(&cucc_tv_0_0_1, launch, v_0, (int32_t)v_176, 0, 1u, v_185_tex), 0)) { __cucc_trap("texture fetch through a handle that names no texture"); return; }
              const float v_185 = v_185_tex[0];
              const float v_186 = (float)((int32_t)v_183);
              const float v_187 = 0.5f;
              const float v_188 = v_186 + v_187;
              float v_189_tex[4];
              if (__builtin_expect(cucc_tex_fetch(launch, v_1, 1, 0, v_188, 0.0f, 0.0f, 0, 1u, v_189_tex), 0)) { __cucc_trap("texture fetch through a handle that names no texture"); return; }
              const float v_189 = v_189_tex[0];
              const float v_190 = 19.0f;
              float v_191_tex[4];
              if (__builtin_expect(cucc_tex_fetch(launch, v_1, 1, 0, v_190, 0.0f, 0.0f, 0, 1u, v_191_tex), 0)) { __cucc_trap("texture fetch through a handle that names no texture"); return; }
              const float v_191 = v_191_tex[0];
              const float v_192 = (float)((int32_t)v_184);
              const float v_193 = v_192 + v_187;
              float v_194_tex[4];
              if (__builtin_expect(cucc_tex_fetch(launch, v_2, 2, 0, v_188, v_193, 0.0f, 0, 1u, v_194_tex), 0)) { __cucc_trap("texture fetch through a handle that names no texture"); return; }
              const float v_194 = v_194_tex[0];
              const float v_195 = -2.0f;
              float v_196_tex[4];
              if (__builtin_expect(cucc_tex_fetch(launch, v_2, 2, 0, v_188, v_195, 0.0f, 0, 1u, v_196_tex), 0)) { __cucc_trap("texture fetch through a handle that names no texture"); return; }
              const float v_196 = v_196_tex[0];
              const uint32_t v_197 = 0x4u;
              const uint32_t v_198 = (uint32_t)(((int32_t)v_197) * ((int32_t)v_176));
              const uint64_t v_199 = (uint64_t)(INT64_C(4) * (int64_t)((int32_t)v_176));
              char *const v_200 = v_9 + (int64_t)v_199 * 4;
              *(float *)v_200 = v_185;
              const float v_201 = v_189 + v_191;
              const uint32_t v_202 = 0x1u;
              const uint32_t v_203 = (uint32_t)(((int32_t)v_198) + ((int32_t)v_202));
              const uint64_t v_204 = (uint64_t)((INT64_C(4) * (int64_t)((int32_t)v_176)) + INT64_C(1));
              char *const v_205 = v_9 + (int64_t)v_204 * 4;
              *(float *)v_205 = v_201;
              const uint32_t v_206 = 0x2u;
              const uint32_t v_207 = (uint32_t)(((int32_t)v_198) + ((int32_t)v_206));
              const uint64_t v_208 = (uint64_t)((INT64_C(4) * (int64_t)((int32_t)v_176)) + INT64_C(2));
              char *const v_209 = v_9 + (int64_t)v_208 * 4;
              *(float *)v_209 = v_194;
              const uint32_t v_210 = 0x3u;
              const uint32_t v_211 = (uint32_t)(((int32_t)v_198) + ((int32_t)v_210));
              const uint64_t v_212 = (uint64_t)((INT64_C(4) * (int64_t)((int32_t)v_176)) + INT64_C(3));
              char *const v_213 = v_9 + (int64_t)v_212 * 4;
              *(float *)v_213 = v_196;
            }
          }
        }
      }
    } else {
      const uint32_t v_214 = 0x0u;
      const uint32_t v_215 = 0x1u;
      for (int32_t tz_150_c = (int32_t)v_214; tz_150_c < (int32_t)v_144; ++tz_150_c) {
        const uint32_t tz_150 = (uint32_t)tz_150_c;
        for (int32_t ty_149_c = (int32_t)v_214; ty_149_c < (int32_t)v_143; ++ty_149_c) {
          const uint32_t ty_149 = (uint32_t)ty_149_c;
          for (int32_t tx_148_c = (int32_t)v_214; tx_148_c < (int32_t)v_166; ++tx_148_c) {
            const uint32_t tx_148 = (uint32_t)tx_148_c;
            const bool v_120 = false;
            const uint32_t v_16 = (uint32_t)(v_14 + tx_148);
            const bool v_19 = ((int32_t)v_16) >= ((int32_t)v_4);
            bool v_121;
            if (v_19) {
              const bool v_22 = true;
              v_121 = v_22;
            } else {
              v_121 = v_120;
            }
            const bool v_24 = true;
            const bool v_25 = (bool)(v_121 ^ v_24);
            if (v_25) {
              const uint32_t v_28 = 0x10u;
              const uint32_t v_29 = (uint32_t)(((int32_t)v_16) % ((int32_t)v_28));
              const uint32_t v_33 = (uint32_t)(((int32_t)v_16) / ((int32_t)v_28));
              float v_37_tex[4];
              if (__builtin_expect(cucc_tex_fetch_view(&cucc_tv_0_0_1, launch, v_0, (int32_t)v_16, 0, 1u, v_37_tex), 0)) { __cucc_trap("texture fetch through a handle that names no texture"); return; }
              const float v_37 = v_37_tex[0];
              const float v_41 = (float)((int32_t)v_29);
              const float v_42 = 0.5f;
              const float v_43 = v_41 + v_42;
              float v_44_tex[4];
              if (__builtin_expect(cucc_tex_fetch(launch, v_1, 1, 0, v_43, 0.0f, 0.0f, 0, 1u, v_44_tex), 0)) { __cucc_trap("texture fetch through a handle that names no texture"); return; }
              const float v_44 = v_44_tex[0];
              const float v_137 = 19.0f;
              float v_51_tex[4];
              if (__builtin_expect(cucc_tex_fetch(launch, v_1, 1, 0, v_137, 0.0f, 0.0f, 0, 1u, v_51_tex), 0)) { __cucc_trap("texture fetch through a handle that names no texture"); return; }
              const float v_51 = v_51_tex[0];
              const float v_59 = (float)((int32_t)v_33);
              const float v_61 = v_59 + v_42;
              float v_62_tex[4];
              if (__builtin_expect(cucc_tex_fetch(launch, v_2, 2, 0, v_43, v_61, 0.0f, 0, 1u, v_62_tex), 0)) { __cucc_trap("texture fetch through a handle that names no texture"); return; }
              const float v_62 = v_62_tex[0];
              const float v_138 = -2.0f;
              float v_71_tex[4];
              if (__builtin_expect(cucc_tex_fetch(launch, v_2, 2, 0, v_43, v_138, 0.0f, 0, 1u, v_71_tex), 0)) { __cucc_trap("texture fetch through a handle that names no texture"); return; }
              const float v_71 = v_71_tex[0];
              const uint32_t v_74 = 0x4u;
              const uint32_t v_76 = (uint32_t)(((int32_t)v_74) * ((int32_t)v_16));
              const uint64_t v_79 = (uint64_t)(INT64_C(4) * (int64_t)((int32_t)v_16));
              char *const v_80 = v_9 + (int64_t)v_79 * 4;
              *(float *)v_80 = v_37;
              const float v_84 = v_44 + v_51;
              const uint32_t v_89 = 0x1u;
              const uint32_t v_90 = (uint32_t)(((int32_t)v_76) + ((int32_t)v_89));
              const uint64_t v_91 = (uint64_t)((INT64_C(4) * (int64_t)((int32_t)v_16)) + INT64_C(1));
              char *const v_92 = v_9 + (int64_t)v_91 * 4;
              *(float *)v_92 = v_84;
              const uint32_t v_99 = 0x2u;
              const uint32_t v_100 = (uint32_t)(((int32_t)v_76) + ((int32_t)v_99));
              const uint64_t v_101 = (uint64_t)((INT64_C(4) * (int64_t)((int32_t)v_16)) + INT64_C(2));
              char *const v_102 = v_9 + (int64_t)v_101 * 4;
              *(float *)v_102 = v_62;
              const uint32_t v_109 = 0x3u;
              const uint32_t v_110 = (uint32_t)(((int32_t)v_76) + ((int32_t)v_109));
              const uint64_t v_111 = (uint64_t)((INT64_C(4) * (int64_t)((int32_t)v_16)) + INT64_C(3));
              char *const v_112 = v_9 + (int64_t)v_111 * 4;
              *(float *)v_112 = v_71;
            }
          }
        }
      }
    }
    ++cucc_b0; if (cucc_b0 == v_139) { cucc_b0 = 0; ++cucc_b1; if (cucc_b1 == v_140) { cucc_b1 = 0; ++cucc_b2; } }
  }
  return;
}
