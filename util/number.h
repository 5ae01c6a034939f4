/* Whole-string decimal numbers within bounds, as the UCI commands and options read them. */
#ifndef NUMBER_H
#define NUMBER_H

#include <stdbool.h>

/* Whether s is a decimal number from lo to hi and nothing else; if so *out is it. */
bool number_parse(const char *s, long lo, long hi, long *out);

#endif
