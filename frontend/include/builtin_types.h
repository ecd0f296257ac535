/* cucc: the built-in types (CUDA's builtin_types.h). */
#include "device_types.h"
#include "driver_types.h"
#include "vector_types.h"
#include "texture_types.h"
