/* Whole-string decimal numbers within bounds. */
#include "number.h"

#include <errno.h>
#include <stdlib.h>

bool number_parse(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    /* Out of range, strtol answers its limit: that is no number of the text. */
    if (end == s || *end || errno || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

bool number_parse_real(const char *s, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || *end || !(x >= lo && x <= hi))
        return false;
    *out = x;
    return true;
}
