/* cucc: execution-space keywords (CUDA's host_defines.h). */
#include "__cucc_defines.h"
