/* cucc: texture reference types (CUDA's cuda_texture_types.h). */
#include "texture_types.h"
