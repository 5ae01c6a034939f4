/* A value checked against another engine's declaration of the option, its `option name ...` line,
 * as `setoption` checks its own (games/uci_options.h, whose struct this header keeps out, as the
 * UCI client names its own struct uci_option). */
#ifndef OPTION_LINE_H
#define OPTION_LINE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the declaration `line` ("option name N type spin default 1 min 1 max 256", ...) takes
 * value: false with the message setoption would give ("N: a number from 1 to 256 is expected"). */
bool option_line_check(const char *line, const char *value, char *err, size_t errlen);

#endif
