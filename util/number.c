/* Whole-string decimal numbers within bounds. */
#include "number.h"

#include <stdlib.h>

bool number_parse(const char *s, long lo, long hi, long *out)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || *end || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}
