/* cucc: cooperative-groups reductions live in cooperative_groups.h. */
#include "../cooperative_groups.h"
