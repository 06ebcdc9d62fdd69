#include <wrapper.h>

void b(float *p) { touch_all(p); }
