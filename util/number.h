/* Whole-string decimal numbers within bounds, as the UCI commands and options and the sub-commands'
 * options read them. */
#ifndef NUMBER_H
#define NUMBER_H

#include <stdbool.h>

/* Whether s is a decimal number from lo to hi and nothing else; if so *out is it. */
bool number_parse(const char *s, long lo, long hi, long *out);
/* The same for a real number (strtod's forms). */
bool number_parse_real(const char *s, double lo, double hi, double *out);

#endif
